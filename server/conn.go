package server

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"
)

// conn is a client connection as the gRPC transport reads and writes it
// (after the TLS handshake, if any). It counts the bytes read, bounds them
// while no call on it has carried a valid token (WithUnauthenticated), and
// follows its HTTP/2 streams to find answers the client does not read
// (WithUnreadTimeout).
type conn struct {
	net.Conn
	s *Server

	read   atomic.Int64 // bytes read
	authed atomic.Bool  // a call carried a valid token (or none is needed)
	unauth atomic.Int32 // calls without a token in progress (health checks)

	mu          sync.Mutex
	rd, wr      h2Scanner
	streams     h2Streams
	live        int       // calls past the tap whose handler has not ended
	unreadSince time.Time // since when streams stayed open past their handler (zero: none)

	closeOnce sync.Once
}

// errUnauthBytes ends a connection that read more than its allowance
// without a valid token.
var errUnauthBytes = errors.New("connection closed: too many bytes without a valid token")

func (s *Server) newConn(nc net.Conn) *conn {
	c := &conn{Conn: nc, s: s, streams: h2Streams{open: map[uint32]struct{}{}}}
	c.rd.skip = len(h2ClientPreface)
	c.rd.frame = c.streams.clientFrame
	c.wr.frame = c.streams.serverFrame
	c.authed.Store(len(s.tokens) == 0)
	s.connMu.Lock()
	s.conns[c] = struct{}{}
	s.connMu.Unlock()
	return c
}

// Read reads from the connection; while no call has carried a valid
// token it reads at most the server's allowance (unauthBytes), then fails,
// which makes the transport close the connection.
func (c *conn) Read(p []byte) (int, error) {
	if !c.authed.Load() {
		left := c.s.opts.unauthBytes - c.read.Load()
		if left <= 0 {
			c.s.metrics.connClosed(connUnauthenticated)
			return 0, errUnauthBytes
		}
		if int64(len(p)) > left {
			p = p[:left]
		}
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.read.Add(int64(n))
		c.mu.Lock()
		c.rd.feed(p[:n])
		c.update()
		c.mu.Unlock()
	}
	return n, err
}

// Write writes to the connection, following the streams the server ends.
func (c *conn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if n > 0 {
		c.mu.Lock()
		c.wr.feed(p[:n])
		c.update()
		c.mu.Unlock()
	}
	return n, err
}

// Close closes the connection and forgets it.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.s.connMu.Lock()
		delete(c.s.conns, c)
		c.s.connMu.Unlock()
	})
	return c.Conn.Close()
}

// beginCall and endCall count the calls whose handler runs (from the tap
// to the end of the call's context).
func (c *conn) beginCall() {
	c.mu.Lock()
	c.live++
	c.update()
	c.mu.Unlock()
}

func (c *conn) endCall() {
	c.mu.Lock()
	c.live--
	c.update()
	c.mu.Unlock()
}

// update notes when streams began to outlive their handlers: the
// transport holds their last answers and trailers until the client takes
// them. Call with c.mu held.
func (c *conn) update() {
	if len(c.streams.open) > c.live {
		if c.unreadSince.IsZero() {
			c.unreadSince = time.Now()
		}
		return
	}
	c.unreadSince = time.Time{}
}

// unread reports for how long the connection has held, without a break,
// the answers of streams whose calls have ended (0: none).
func (c *conn) unread(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.unreadSince.IsZero() {
		return 0
	}
	return now.Sub(c.unreadSince)
}

// closeUnread closes the connections that have held answers their client
// does not read for longer than the unread timeout: only closing the
// connection makes the transport drop them. It returns how many.
func (s *Server) closeUnread(now time.Time) int {
	s.connMu.Lock()
	var late []*conn
	for c := range s.conns {
		if c.unread(now) > s.opts.unreadTimeout {
			late = append(late, c)
		}
	}
	s.connMu.Unlock()
	for _, c := range late {
		s.metrics.connClosed(connUnread)
		s.log.Warn().Str("peer", c.RemoteAddr().String()).Dur("unread_timeout", s.opts.unreadTimeout).
			Msg("closing a connection whose client has not taken the answers of its ended streams")
		c.Close()
	}
	return len(late)
}

// connCreds wraps the server's transport credentials (TLS, or none) so
// that every connection the transport uses is a *conn, which the calls
// find in their peer's AuthInfo (connInfo).
type connCreds struct {
	credentials.TransportCredentials
	s *Server
}

// ServerHandshake runs the wrapped handshake and wraps its connection.
func (cc connCreds) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	nc, ai, err := cc.TransportCredentials.ServerHandshake(raw)
	if err != nil {
		return nil, nil, err
	}
	c := cc.s.newConn(nc)
	return c, connInfo{AuthInfo: ai, conn: c}, nil
}

// Clone clones the wrapped credentials.
func (cc connCreds) Clone() credentials.TransportCredentials {
	return connCreds{TransportCredentials: cc.TransportCredentials.Clone(), s: cc.s}
}

// connInfo is the AuthInfo of a connection: the handshake's, and the conn.
type connInfo struct {
	credentials.AuthInfo
	conn *conn
}

// connOf returns the connection of a call, or nil.
func connOf(p *peer.Peer) *conn {
	if ci, ok := p.AuthInfo.(connInfo); ok {
		return ci.conn
	}
	return nil
}

// authInfo returns the handshake's AuthInfo of a peer.
func authInfo(p *peer.Peer) credentials.AuthInfo {
	if ci, ok := p.AuthInfo.(connInfo); ok {
		return ci.AuthInfo
	}
	return p.AuthInfo
}
