package server

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// frame encodes an HTTP/2 frame with a payload of n zero bytes.
func frame(typ, flags byte, stream uint32, n int) []byte {
	b := make([]byte, h2FrameHeaderLen+n)
	b[0], b[1], b[2] = byte(n>>16), byte(n>>8), byte(n)
	b[3], b[4] = typ, flags
	binary.BigEndian.PutUint32(b[5:], stream)
	return b
}

// A connection's streams, followed from its frames fed in pieces of every
// size: open from the client's HEADERS to the server's END_STREAM or a
// reset from either side.
func TestH2Streams(t *testing.T) {
	var client, server bytes.Buffer
	client.WriteString(h2ClientPreface)
	client.Write(frame(0x4, 0, 0, 6))               // SETTINGS
	client.Write(frame(h2FrameHeaders, 0x4, 1, 40)) // stream 1
	client.Write(frame(0x0, 0, 1, 70000))           // DATA
	client.Write(frame(h2FrameHeaders, 0x4, 3, 20)) // stream 3
	client.Write(frame(h2FrameHeaders, 0x5, 5, 20)) // stream 5, half-closed at once
	client.Write(frame(h2FrameHeaders, 0x5, 3, 10)) // trailers of 3: not a new stream
	client.Write(frame(h2FrameRSTStream, 0, 5, 4))  // the client resets 5
	server.Write(frame(0x4, 0, 0, 0))               // SETTINGS
	server.Write(frame(h2FrameHeaders, 0x4, 1, 30)) // response headers of 1
	server.Write(frame(0x0, 0, 1, 20000))           // DATA of 1
	server.Write(frame(h2FrameHeaders, 0x5, 3, 15)) // trailers of 3: ended
	for _, piece := range []int{1, 7, 9, 100, 1 << 20} {
		t.Run(fmt.Sprint(piece), func(t *testing.T) {
			st := h2Streams{open: map[uint32]struct{}{}}
			rd := h2Scanner{skip: len(h2ClientPreface), frame: st.clientFrame}
			wr := h2Scanner{frame: st.serverFrame}
			feed := func(sc *h2Scanner, b []byte) {
				for len(b) > 0 {
					n := min(piece, len(b))
					sc.feed(b[:n])
					b = b[n:]
				}
			}
			feed(&rd, client.Bytes())
			feed(&wr, server.Bytes())
			if _, ok := st.open[1]; !ok || len(st.open) != 1 {
				t.Errorf("open streams %v, want only 1 (3 ended by the server, 5 reset by the client)", st.open)
			}
			wr.feed(frame(h2FrameRSTStream, 0, 1, 4))
			if len(st.open) != 0 {
				t.Errorf("open streams %v after the server reset 1, want none", st.open)
			}
		})
	}
}

// The scanner's cost on the server's answers: frame headers only.
func BenchmarkH2Scanner(b *testing.B) {
	var buf bytes.Buffer
	for range 64 { // a 1 MiB answer in 16 KiB DATA frames
		buf.Write(frame(0x0, 0, 1, 16<<10))
	}
	st := h2Streams{open: map[uint32]struct{}{}}
	sc := h2Scanner{frame: st.serverFrame}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		for p := buf.Bytes(); len(p) > 0; {
			n := min(len(p), 256<<10) // the transport's writes
			sc.feed(p[:n])
			p = p[n:]
		}
	}
}
