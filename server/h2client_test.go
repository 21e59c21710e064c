package server_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/protobuf/proto"

	"jgym/server"
)

// countingListener counts the bytes the server reads from its
// connections, below gRPC and TLS: what a client made it read.
type countingListener struct {
	net.Listener
	read atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: &l.read}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// rawClient speaks HTTP/2 by hand to a server, to do what no gRPC client
// does: stall in the middle of a request, or never give the server any
// flow-control window. A goroutine reads the server's frames.
type rawClient struct {
	t    testing.TB
	c    net.Conn
	fr   *http2.Framer
	wmu  sync.Mutex
	enc  *hpack.Encoder
	hbuf bytes.Buffer

	mu      sync.Mutex
	status  map[uint32]string // grpc-status of each ended stream
	resets  map[uint32]bool
	changed chan struct{} // signalled on every frame
	closed  chan struct{} // closed when the server closed the connection
}

// dialRaw connects to addr, sends the preface and SETTINGS with
// initialWindow as the client's receive window of each stream.
func dialRaw(t testing.TB, addr string, initialWindow uint32) *rawClient {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	rc := &rawClient{t: t, c: c, fr: http2.NewFramer(c, c), status: map[uint32]string{}, resets: map[uint32]bool{},
		changed: make(chan struct{}, 1), closed: make(chan struct{})}
	rc.enc = hpack.NewEncoder(&rc.hbuf)
	rc.fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	t.Cleanup(func() { c.Close(); <-rc.closed })
	if _, err := io.WriteString(c, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	if err := rc.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: initialWindow}); err != nil {
		t.Fatal(err)
	}
	go rc.readLoop()
	return rc
}

func (rc *rawClient) readLoop() {
	defer close(rc.closed)
	for {
		f, err := rc.fr.ReadFrame()
		if err != nil {
			return
		}
		rc.mu.Lock()
		switch f := f.(type) {
		case *http2.MetaHeadersFrame:
			if v := f.PseudoValue("status"); v != "" && v != "200" {
				rc.status[f.StreamID] = "http " + v
			}
			for _, hf := range f.RegularFields() {
				if hf.Name == "grpc-status" {
					rc.status[f.StreamID] = hf.Value
				}
			}
		case *http2.RSTStreamFrame:
			rc.resets[f.StreamID] = true
		case *http2.SettingsFrame:
			if !f.IsAck() {
				rc.wmu.Lock()
				rc.fr.WriteSettingsAck()
				rc.wmu.Unlock()
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				rc.wmu.Lock()
				rc.fr.WritePing(true, f.Data)
				rc.wmu.Unlock()
			}
		}
		rc.mu.Unlock()
		select {
		case rc.changed <- struct{}{}:
		default:
		}
	}
}

// call starts a gRPC call on stream id to method with the given metadata.
func (rc *rawClient) call(id uint32, method string, md map[string]string) error {
	rc.wmu.Lock()
	defer rc.wmu.Unlock()
	rc.hbuf.Reset()
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", method}, {":authority", "jgym"},
		{"content-type", "application/grpc"}, {"te", "trailers"}} {
		rc.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	for k, v := range md {
		rc.enc.WriteField(hpack.HeaderField{Name: k, Value: v})
	}
	return rc.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: rc.hbuf.Bytes(), EndHeaders: true})
}

// data sends raw DATA on stream id, in frames of at most 16 KiB.
func (rc *rawClient) data(id uint32, p []byte) error {
	rc.wmu.Lock()
	defer rc.wmu.Unlock()
	for len(p) > 0 {
		n := min(len(p), 16<<10)
		if err := rc.fr.WriteData(id, false, p[:n]); err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}

// message sends m as one gRPC message on stream id.
func (rc *rawClient) message(id uint32, m proto.Message) error {
	b, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	return rc.data(id, append(grpcPrefix(len(b)), b...))
}

// grpcPrefix is the 5-byte header of an uncompressed gRPC message of n
// bytes.
func grpcPrefix(n int) []byte {
	p := make([]byte, 5)
	binary.BigEndian.PutUint32(p[1:], uint32(n))
	return p
}

// waitStatus waits up to d for the end of stream id and returns its
// grpc-status (or "reset").
func (rc *rawClient) waitStatus(id uint32, d time.Duration) (string, error) {
	deadline := time.After(d)
	for {
		rc.mu.Lock()
		st, ok := rc.status[id]
		reset := rc.resets[id]
		rc.mu.Unlock()
		switch {
		case ok:
			return st, nil
		case reset:
			return "reset", nil
		}
		select {
		case <-rc.changed:
		case <-rc.closed:
			return "", errors.New("the server closed the connection")
		case <-deadline:
			return "", errors.New("no answer")
		}
	}
}

// waitClosed reports whether the server closes the connection within d.
func (rc *rawClient) waitClosed(d time.Duration) bool {
	select {
	case <-rc.closed:
		return true
	case <-time.After(d):
		return false
	}
}

// gauge reads a metric of the server's /metrics page.
func gauge(t testing.TB, srv *server.Server, name string) int64 {
	t.Helper()
	w := httptest.NewRecorder()
	srv.MetricsHandler().ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\d+)$`).FindStringSubmatch(w.Body.String())
	if m == nil {
		t.Fatalf("no metric %s", name)
	}
	v, _ := strconv.ParseInt(m[1], 10, 64)
	return v
}
