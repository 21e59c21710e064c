package server

// HTTP/2 frames, read only as far as their 9-byte headers: a connection's
// bytes are followed as they pass (in both directions) to know which
// streams the transport still holds. A stream is open from the client's
// HEADERS frame that starts it until the server writes its end (trailers:
// HEADERS with END_STREAM) or either side resets it (RST_STREAM). The
// transport writes the trailers of a stream only after all its DATA,
// which waits for the client's flow-control window: a stream whose
// handler has returned but which is still open holds answers the client
// does not read (see conn.unread).

const (
	h2FrameHeaderLen = 9
	h2FrameHeaders   = 0x1
	h2FrameRSTStream = 0x3
	h2FlagEndStream  = 0x1
)

// h2ClientPreface starts every HTTP/2 connection, from the client.
const h2ClientPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// h2Scanner follows the frames of one direction of a connection. It is
// fed the bytes in order, in pieces of any size, and calls frame with the
// header of each frame as soon as that header is complete.
type h2Scanner struct {
	skip  int                    // bytes still to skip: the preface, or a payload
	hdr   [h2FrameHeaderLen]byte // the header being read
	have  int                    // bytes of hdr read
	frame func(typ, flags byte, stream uint32)
}

// feed passes p through the scanner.
func (sc *h2Scanner) feed(p []byte) {
	for len(p) > 0 {
		if sc.skip > 0 {
			n := min(sc.skip, len(p))
			sc.skip -= n
			p = p[n:]
			continue
		}
		n := copy(sc.hdr[sc.have:], p)
		sc.have += n
		p = p[n:]
		if sc.have < h2FrameHeaderLen {
			return
		}
		sc.have = 0
		h := sc.hdr
		sc.skip = int(h[0])<<16 | int(h[1])<<8 | int(h[2])
		stream := (uint32(h[5])<<24 | uint32(h[6])<<16 | uint32(h[7])<<8 | uint32(h[8])) & 0x7fffffff
		sc.frame(h[3], h[4], stream)
	}
}

// h2Streams is the set of a connection's open streams, updated from both
// directions' frames. Not safe for concurrent use: conn guards it.
type h2Streams struct {
	open    map[uint32]struct{}
	highest uint32 // the highest stream the client started
}

// clientFrame records a frame the client sent.
func (st *h2Streams) clientFrame(typ, _ byte, id uint32) {
	switch typ {
	case h2FrameHeaders:
		// A HEADERS frame on a new (odd, higher) stream starts it; on an
		// open one it is the client's trailers.
		if id%2 == 1 && id > st.highest {
			st.highest = id
			st.open[id] = struct{}{}
		}
	case h2FrameRSTStream:
		delete(st.open, id)
	}
}

// serverFrame records a frame the server wrote.
func (st *h2Streams) serverFrame(typ, flags byte, id uint32) {
	switch {
	case typ == h2FrameHeaders && flags&h2FlagEndStream != 0, typ == h2FrameRSTStream:
		delete(st.open, id)
	}
}
