package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rs/zerolog"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/vec"
)

// Stream resets and steps one session: each request gets exactly one
// answer, in order. An error ends the stream with a status; the session
// stays open (a new stream may attach) unless the client went away.
func (s *Server) Stream(st jgymv1.JgymService_StreamServer) error {
	ctx := st.Context()
	log := zerolog.Ctx(ctx)
	var ss *session
	defer func() {
		if ss != nil {
			ss.attached.Store(false)
			s.mu.Lock()
			s.streams--
			s.mu.Unlock()
		}
	}()
	for {
		req, err := st.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if ss != nil && ctx.Err() != nil {
				// The client cancelled or its connection died.
				log.Info().Str("session", ss.id).Err(err).Msg("client vanished")
				s.closeSession(ss, reasonVanished)
			}
			return err
		}
		if ss == nil {
			if ss, err = s.attach(req.GetSessionId()); err != nil {
				return toStatus(err)
			}
		} else if id := req.GetSessionId(); id != "" && id != ss.id {
			return toStatus(fmt.Errorf("%w: this stream is attached to session %q, not %q", errBadRequest, ss.id, id))
		}
		start := time.Now()
		resp, kind, err := s.handle(ctx, ss, req)
		if err != nil {
			if ctx.Err() != nil {
				log.Info().Str("session", ss.id).Err(err).Msg("client vanished during a request")
				s.closeSession(ss, reasonVanished)
			}
			return toStatus(err)
		}
		if err := st.Send(resp); err != nil {
			if ctx.Err() != nil {
				log.Info().Str("session", ss.id).Err(err).Msg("client vanished before its answer")
				s.closeSession(ss, reasonVanished)
			}
			return err
		}
		s.metrics.latency[kind].observe(time.Since(start))
	}
}

// attach binds a stream to a session; only one stream at a time.
func (s *Server) attach(id string) (*session, error) {
	ss, err := s.lookup(id)
	if err != nil {
		return nil, err
	}
	if !ss.attached.CompareAndSwap(false, true) {
		return nil, fmt.Errorf("%w: session %q is attached to another stream; close that one first", errAttached, id)
	}
	// A new stream starts its observation deltas from zero references.
	ss.mu.Lock()
	if ss.res.delta != nil {
		ss.res.delta.clear()
	}
	ss.mu.Unlock()
	s.mu.Lock()
	s.streams++
	s.mu.Unlock()
	return ss, nil
}

// handle answers one request under the session's lock. The answer points
// at the pool's buffers, which stay untouched until the next request.
func (s *Server) handle(ctx context.Context, ss *session, req *jgymv1.StreamRequest) (*jgymv1.StreamResponse, int, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		if ss.reason == reasonShutdown {
			return nil, 0, fmt.Errorf("%w: session %q was closed", errDraining, ss.id)
		}
		return nil, 0, fmt.Errorf("%w: session %q was closed (%s)", errNotFound, ss.id, ss.reason)
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
		return nil, 0, fmt.Errorf("%w: the request has none of reset, step, recv", errBadRequest)
	}
	s.metrics.requests[kind].Add(1)
	if err != nil {
		return nil, kind, err
	}
	return ss.res.fill(b), kind, nil
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
