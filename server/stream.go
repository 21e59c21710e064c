package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/vec"
)

// Stream resets and steps one session: each request gets exactly one
// answer, in order. An error ends the stream with a status; the session
// stays open (a new stream may attach) unless the client went away.
//
// Two goroutines serve a stream, so that a client that keeps several
// requests in flight has the next batch stepped while the last answer is
// encoded and written: a reader (serveRequests) receives each request,
// steps the pool and fills an answer; this one, the handler, sends the
// answers in order. An answer owns its bytes (see result), and a stream
// has two of them, so the reader can fill one while the other is sent.
func (s *Server) Stream(st jgymv1.JgymService_StreamServer) error {
	ctx, cancel := context.WithCancel(st.Context())
	defer cancel() // stops the reader if this returns first
	answers := make(chan answer, 1)
	attached := make(chan *session, 1)
	s.readers.Add(1)
	go func() {
		defer s.readers.Done()
		s.serveRequests(ctx, st, answers, attached)
	}()
	log := zerolog.Ctx(ctx)
	// A stream that sends nothing is ended after the first-request
	// timeout; once attached, it ends when its session closes (idle,
	// closed by the client, or shutdown).
	first := time.NewTimer(s.opts.firstRequest)
	defer first.Stop()
	var closed <-chan struct{}
	var ss *session
	for {
		select {
		case <-first.C:
			return status.Errorf(codes.DeadlineExceeded, "no request within %v of opening the stream", s.opts.firstRequest)
		case ss = <-attached:
			first.Stop()
			closed = ss.done
			if t := tapOf(st.Context()); t != nil {
				// A handler blocked sending to a client that does not
				// read is not here to see its session close: sendGrace
				// after it closes, the call's context is cancelled, which
				// ends the send (the transport drops the answers it still
				// holds with the connection, see conn.unread).
				defer context.AfterFunc(ss.ctx, func() { time.AfterFunc(sendGrace, t.cancel) })()
			}
		case <-closed:
			return closedStatus(ss)
		case a, ok := <-answers:
			if !ok {
				return nil
			}
			first.Stop()
			if a.err != nil {
				return a.err
			}
			if err := st.Send(a.res.resp); err != nil {
				if a.ss.ctx.Err() != nil {
					return closedStatus(a.ss) // the send was cancelled (see sendGrace)
				}
				if st.Context().Err() != nil {
					log.Info().Str("session", a.ss.id).Err(err).Msg("client vanished before its answer")
					s.closeSession(a.ss, reasonVanished)
				}
				return err
			}
			s.metrics.latency[a.kind].observe(time.Since(a.start))
			a.free <- a.res
		}
	}
}

// closedStatus is the status that ends the stream of a closed session.
func closedStatus(ss *session) error {
	ss.mu.Lock()
	reason := ss.reason
	ss.mu.Unlock()
	if reason == reasonShutdown {
		return toStatus(fmt.Errorf("%w: session %s was closed", errDraining, ss.id))
	}
	return toStatus(fmt.Errorf("%w: session %s was closed (%s)", errNotFound, ss.id, reason))
}

// sendGrace is how long after its session closes a stream's handler may
// still be sending before the send is cancelled.
const sendGrace = time.Second

// answer is what the reader hands the handler: a filled result to send
// and give back to free, or the error that ends the stream.
type answer struct {
	ss    *session
	res   *result
	free  chan<- *result
	kind  int
	start time.Time
	err   error
}

// serveRequests is a stream's reader (see Stream). It closes answers when
// it is done, after releasing the session.
func (s *Server) serveRequests(ctx context.Context, st jgymv1.JgymService_StreamServer, answers chan<- answer, attached chan<- *session) {
	defer close(answers)
	log := zerolog.Ctx(ctx)
	var (
		ss   *session
		free chan *result
	)
	// detach releases the session. It runs before the error that ends
	// the stream is handed over, and before answers is closed, so that a
	// client that sees its stream end can attach a new one at once. (If
	// the handler's Send fails first, the client is gone or the stream is
	// broken anyway; the session is released when this reader ends.)
	detach := func() {
		if ss != nil {
			ss.attached.Store(false)
			s.mu.Lock()
			s.streams--
			s.mu.Unlock()
			ss = nil
		}
	}
	defer detach()
	fail := func(err error) {
		detach()
		select {
		case answers <- answer{err: err}:
		case <-ctx.Done():
		}
	}
	for {
		req, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			if ss != nil && st.Context().Err() != nil && ss.ctx.Err() == nil {
				// The client cancelled or its connection died.
				log.Info().Str("session", ss.id).Err(err).Msg("client vanished")
				s.closeSession(ss, reasonVanished)
			}
			fail(err)
			return
		}
		if ss == nil {
			if ss, err = s.attach(s.clientOf(ctx), req.GetSessionId()); err != nil {
				fail(toStatus(err))
				return
			}
			attached <- ss // room for one: sent once
			// The answers of this stream: two, so that one is filled while
			// the other is sent. They are the stream's own, so that a
			// stream that ended while its last answer was being sent
			// shares nothing with the next one.
			free = make(chan *result, 2)
			for range 2 {
				free <- newResult(&ss.spec, ss.l, ss.delta)
			}
		} else if id := req.GetSessionId(); id != "" && id != ss.id {
			fail(toStatus(fmt.Errorf("%w: this stream is attached to session %s, not %s", errBadRequest, ss.id, short(id))))
			return
		}
		var r *result
		select {
		case r = <-free:
		case <-ctx.Done():
			return
		}
		start := time.Now()
		kind, err := s.handle(ctx, ss, req, r)
		if err != nil {
			if st.Context().Err() != nil {
				log.Info().Str("session", ss.id).Err(err).Msg("client vanished during a request")
				s.closeSession(ss, reasonVanished)
			}
			fail(toStatus(err))
			return
		}
		select {
		case answers <- answer{ss: ss, res: r, free: free, kind: kind, start: start}:
		case <-ctx.Done():
			return
		}
	}
}

// attach binds a stream to a session of client c; only one stream at a
// time.
func (s *Server) attach(c *client, id string) (*session, error) {
	if id == "" {
		return nil, fmt.Errorf("%w: the first message of a stream must name its session_id", errBadRequest)
	}
	ss, err := s.lookup(c, id)
	if err != nil {
		return nil, err
	}
	if !ss.attached.CompareAndSwap(false, true) {
		return nil, fmt.Errorf("%w: session %s is attached to another stream; close that one first", errAttached, id)
	}
	// A new stream starts its observation deltas from zero references.
	ss.mu.Lock()
	if ss.delta != nil {
		ss.delta.clear()
	}
	ss.mu.Unlock()
	s.mu.Lock()
	s.streams++
	s.mu.Unlock()
	return ss, nil
}

// handle answers one request under the session's lock, into r.
func (s *Server) handle(ctx context.Context, ss *session, req *jgymv1.StreamRequest, r *result) (int, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		if ss.reason == reasonShutdown {
			return 0, fmt.Errorf("%w: session %q was closed", errDraining, ss.id)
		}
		return 0, fmt.Errorf("%w: session %q was closed (%s)", errNotFound, ss.id, ss.reason)
	}
	ss.touch()
	defer ss.touch()
	var (
		b    *vec.Batch
		err  error
		kind int
	)
	switch k := req.GetKind().(type) {
	case *jgymv1.StreamRequest_Reset_:
		kind = kindReset
		b, err = s.reset(ctx, ss, k.Reset_)
	case *jgymv1.StreamRequest_Step:
		kind = kindStep
		b, err = s.step(ctx, ss, k.Step)
	case *jgymv1.StreamRequest_Recv:
		kind = kindRecv
		b, err = ss.pool.Recv(ctx)
		if err == nil {
			s.metrics.envSteps.Add(uint64(len(b.EnvIDs)))
		}
	default:
		return 0, fmt.Errorf("%w: the request has none of reset, step, recv", errBadRequest)
	}
	s.metrics.requests[kind].Add(1)
	if err != nil {
		return kind, err
	}
	r.fill(b)
	return kind, nil
}

func (s *Server) reset(ctx context.Context, ss *session, r *jgymv1.ResetRequest) (*vec.Batch, error) {
	seed := vec.NoSeed
	if r.GetSeedGiven() {
		seed = r.GetSeed()
		if seed < 0 || seed > 1<<31-1 {
			return nil, fmt.Errorf("%w: seed %d, want 0..2147483647", errBadRequest, seed)
		}
	}
	ids := r.GetEnvIds()
	if len(ids) == 0 {
		ids = nil
	}
	b, err := ss.pool.Reset(ctx, ids, seed)
	if err == nil {
		s.metrics.envResets.Add(uint64(len(b.EnvIDs)))
	}
	return b, err
}

// step checks the tensors' dtype and shape against the session's spaces,
// then steps synchronously, or (batch_size > 0) sends and receives the
// first batch_size envs ready.
func (s *Server) step(ctx context.Context, ss *session, r *jgymv1.StepRequest) (*vec.Batch, error) {
	ids := r.GetEnvIds()
	if len(ids) == 0 {
		ids = nil
	}
	nb := len(ids)
	if ids == nil {
		nb = ss.n
	}
	if r.GetActions() == nil {
		return nil, fmt.Errorf("%w: step.actions is required", errBadRequest)
	}
	as := &ss.spec.Action
	if err := checkTensor("step.actions", r.GetActions(), as.Dtype, append([]int64{int64(nb), int64(ss.l)}, shape64(as.Shape...)...)); err != nil {
		return nil, err
	}
	var order []byte
	if o := r.GetActionOrder(); o != nil {
		os := &ss.spec.ActionOrder
		if err := checkTensor("step.action_order", o, os.Dtype, append([]int64{int64(nb), int64(ss.l)}, shape64(os.Shape...)...)); err != nil {
			return nil, err
		}
		order = o.GetData()
		if order == nil {
			order = []byte{}
		}
	}
	act := r.GetActions().GetData()
	var b *vec.Batch
	var err error
	if ss.async {
		if err = ss.pool.Send(ids, act, order); err != nil {
			return nil, err
		}
		b, err = ss.pool.Recv(ctx)
	} else {
		b, err = ss.pool.Step(ctx, ids, act, order)
	}
	if err == nil {
		s.metrics.envSteps.Add(uint64(len(b.EnvIDs)))
	}
	return b, err
}
