package server

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/tap"
)

// A call is identified by the transport's tap handle (grpc.InTapHandle),
// which sees its method and headers as soon as they arrive, before gRPC
// reads any of its body: a call without a valid token is refused there,
// at the cost of its headers. (gRPC reads a unary request whole before
// the interceptors run; refusing it there would come after its 16 MB.)
// Only the health service answers calls without a token, and only a few
// at a time (WithUnauthenticated); a connection on which no call carried a
// valid token may read only a few kilobytes in all (conn.Read).

// maxUnauthPerConn bounds the calls without a token in progress on one
// connection.
const maxUnauthPerConn = 4

// tapped is what the tap learned of a call, for the interceptors and the
// handlers.
type tapped struct {
	who    identity
	authed bool               // a valid token, or none needed
	cancel context.CancelFunc // ends the call's context (Stream uses it)
}

type tapKey struct{}

// tapOf returns what the tap learned of the call of ctx, or nil.
func tapOf(ctx context.Context) *tapped {
	t, _ := ctx.Value(tapKey{}).(*tapped)
	return t
}

// tap is the server's grpc.InTapHandle (see above). It also counts the
// calls of each connection, whose ends the transport's context reports,
// for the unread-answer check (conn.update).
func (s *Server) tap(ctx context.Context, info *tap.Info) (context.Context, error) {
	p, _ := peer.FromContext(ctx)
	var c *conn
	if p != nil {
		c = connOf(p)
	}
	who, err := s.identify(info.Header, p)
	authed := err == nil
	if !authed && !isHealth(info.FullMethodName) {
		s.logFailure(s.logger(), info.FullMethodName, err)
		return nil, err
	}
	if authed && c != nil && !c.authed.Load() {
		c.authed.Store(true)
	}
	if !authed {
		if err := s.takeUnauth(c); err != nil {
			s.logFailure(s.logger(), info.FullMethodName, err)
			return nil, err
		}
	}
	if c != nil {
		c.beginCall()
	}
	// The transport cancels ctx when the call ends (its trailers are
	// queued, or it is reset); what the tap took is given back then.
	context.AfterFunc(ctx, func() {
		if c != nil {
			c.endCall()
		}
		if !authed {
			s.giveUnauth(c)
		}
	})
	call, cancel := context.WithCancel(ctx)
	return context.WithValue(call, tapKey{}, &tapped{who: who, authed: authed, cancel: cancel}), nil
}

// takeUnauth counts a call without a token, or refuses it past the
// server's and the connection's limits.
func (s *Server) takeUnauth(c *conn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unauth >= s.opts.unauthStreams {
		return status.Errorf(codes.ResourceExhausted, "%d calls without a token in progress, the server's limit: send a token", s.unauth)
	}
	if c != nil && c.unauth.Load() >= maxUnauthPerConn {
		return status.Errorf(codes.ResourceExhausted, "%d calls without a token in progress on this connection, the limit: send a token", maxUnauthPerConn)
	}
	s.unauth++
	if c != nil {
		c.unauth.Add(1)
	}
	return nil
}

func (s *Server) giveUnauth(c *conn) {
	s.mu.Lock()
	s.unauth--
	s.mu.Unlock()
	if c != nil {
		c.unauth.Add(-1)
	}
}
