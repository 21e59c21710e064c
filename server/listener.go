package server

import (
	"net"
	"sync"
)

// limitListener closes connections past a total and a per-IP limit as
// soon as they are accepted, so that one peer cannot hold every
// connection (and its goroutines and buffers) of the server.
type limitListener struct {
	net.Listener
	total, perPeer int
	m              *metrics

	mu    sync.Mutex
	open  int
	peers map[string]int
}

func newLimitListener(l net.Listener, total, perPeer int, m *metrics) net.Listener {
	return &limitListener{Listener: l, total: total, perPeer: perPeer, m: m, peers: map[string]int{}}
}

// Accept returns the next connection within the limits.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := peerHost(c.RemoteAddr())
		l.mu.Lock()
		ok := l.open < l.total && l.peers[host] < l.perPeer
		if ok {
			l.open++
			l.peers[host]++
		}
		l.mu.Unlock()
		if !ok {
			l.m.refusedConns.Add(1)
			c.Close()
			continue
		}
		return &limitConn{Conn: c, l: l, host: host}, nil
	}
}

func (l *limitListener) release(host string) {
	l.mu.Lock()
	l.open--
	if l.peers[host]--; l.peers[host] <= 0 {
		delete(l.peers, host)
	}
	l.mu.Unlock()
}

// peerHost is the IP of an address (the whole address when it has none,
// as with in-memory listeners).
func peerHost(a net.Addr) string {
	if a == nil {
		return ""
	}
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

type limitConn struct {
	net.Conn
	l    *limitListener
	host string
	once sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.host) })
	return err
}
