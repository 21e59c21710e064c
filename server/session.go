package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc/peer"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/vec"
)

// Reasons a session is closed, in logs and metrics.
const (
	reasonClient   = "client"
	reasonIdle     = "idle"
	reasonVanished = "vanished"
	reasonShutdown = "shutdown"
)

// session is one client's vector of game instances: a vec.Pool and, with
// observation_delta, the references of the deltas. Requests are serialized by mu; at most one stream is
// attached at a time.
type session struct {
	id       string
	game     string
	n, l     int
	async    bool
	idle     time.Duration
	spec     env.Spec
	factory  env.Factory
	pool     *vec.Pool
	delta    *deltaRefs // observation_delta: the references, else nil
	created  time.Time
	lastUsed atomic.Int64 // unix nanoseconds of the last request
	attached atomic.Bool

	mu     sync.Mutex
	closed bool
	reason string // why it was closed
}

func (ss *session) touch() { ss.lastUsed.Store(time.Now().UnixNano()) }

// close stops the pool and releases the bots; it waits for a request in
// progress. It reports whether this call closed the session.
func (ss *session) close(reason string) (bool, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return false, nil
	}
	ss.closed, ss.reason = true, reason
	err := ss.pool.Close()
	if ferr := ss.factory.Close(); err == nil {
		err = ferr
	}
	return true, err
}

func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "s-" + hex.EncodeToString(b[:])
}

// ListGames lists the hosted games and their default spaces.
func (s *Server) ListGames(ctx context.Context, _ *jgymv1.ListGamesRequest) (*jgymv1.ListGamesResponse, error) {
	resp := &jgymv1.ListGamesResponse{}
	for _, g := range s.reg.Games() {
		resp.Games = append(resp.Games, specToProto(g.Spec()))
	}
	return resp, nil
}

// ListBots lists the bots of a game (empty: the first hosted game).
func (s *Server) ListBots(ctx context.Context, req *jgymv1.ListBotsRequest) (*jgymv1.ListBotsResponse, error) {
	id := req.GetGame()
	if id == "" {
		id = s.reg.IDs()[0]
	}
	g, err := s.reg.Lookup(id)
	if err != nil {
		return nil, toStatus(err)
	}
	names, prefixes := g.Bots()
	return &jgymv1.ListBotsResponse{Bots: names, Prefixes: prefixes}, nil
}

// CreateSession validates the request, reserves its instances against the
// limits and starts a pool.
func (s *Server) CreateSession(ctx context.Context, req *jgymv1.CreateSessionRequest) (*jgymv1.CreateSessionResponse, error) {
	ss, err := s.createSession(ctx, req)
	if err != nil {
		return nil, toStatus(err)
	}
	return &jgymv1.CreateSessionResponse{
		SessionId:        ss.id,
		Game:             specToProto(ss.spec),
		NumLearners:      int32(ss.l),
		BatchSize:        int32(ss.pool.BatchSize()),
		MaxResponseBytes: responseBytes(&ss.spec, ss.n, ss.l, ss.pool.Autoreset() == vec.SameStep),
		MaxRequestBytes:  s.maxReq,
	}, nil
}

func (s *Server) createSession(ctx context.Context, req *jgymv1.CreateSessionRequest) (*session, error) {
	if req.GetGame() == "" {
		return nil, fmt.Errorf("%w: game is required (hosted: %v)", errBadRequest, s.reg.IDs())
	}
	g, err := s.reg.Lookup(req.GetGame())
	if err != nil {
		return nil, err
	}
	n := int(req.GetNumEnvs())
	switch {
	case n < 1:
		return nil, fmt.Errorf("%w: num_envs is %d, want at least 1", errBadRequest, n)
	case n > s.opts.maxEnvsPerSession:
		return nil, fmt.Errorf("%w: num_envs %d is over the server's limit of %d per session", errLimit, n, s.opts.maxEnvsPerSession)
	}
	if b := int(req.GetBatchSize()); b < 0 || b > n {
		return nil, fmt.Errorf("%w: batch_size is %d, want 0 (synchronous) to num_envs %d", errBadRequest, b, n)
	}
	idle := s.opts.idleTimeout
	if t := req.GetIdleTimeoutSeconds(); t != 0 {
		idle = time.Duration(t) * time.Second
		if t < 0 || idle > s.opts.maxIdleTimeout {
			return nil, fmt.Errorf("%w: idle_timeout_seconds is %d, want 0 (server default %v) to %d",
				errBadRequest, t, s.opts.idleTimeout, int(s.opts.maxIdleTimeout.Seconds()))
		}
	}
	stride := int(req.GetSeedStride())
	if stride != 0 && stride < n {
		return nil, fmt.Errorf("%w: seed_stride is %d, want 0 (num_envs) or at least num_envs %d", errBadRequest, stride, n)
	}
	traceDir, err := s.traceDir(req.GetTraceEnv0())
	if err != nil {
		return nil, err
	}
	reward, err := rewardFromProto(req.GetRewardMode())
	if err != nil {
		return nil, err
	}
	auto, err := autoresetFromProto(req.GetAutoresetMode())
	if err != nil {
		return nil, err
	}
	setup := env.Setup{Config: req.GetConfig(), Shuffle: req.GetShuffleSeats(), Reward: reward}
	for _, seat := range req.GetSeats() {
		setup.Seats = append(setup.Seats, seat.GetBot())
	}
	if want := g.Spec().NumSeats; len(setup.Seats) != want {
		return nil, fmt.Errorf("%w: %d seats given, want %d (an empty bot name is a learner seat)", errBadRequest, len(setup.Seats), want)
	}
	if err := s.reserve(n); err != nil {
		return nil, err
	}
	ss, err := s.startSession(g, setup, n, auto, int(req.GetBatchSize()), stride, req.GetObservationDelta(), idle, traceDir)
	if err != nil {
		s.release(n)
		return nil, err
	}
	s.mu.Lock()
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	s.metrics.sessionsCreated.Add(1)
	ev := zerolog.Ctx(ctx).Info().Str("session", ss.id).Str("game", ss.game).Int("envs", n).
		Int("learners", ss.l).Strs("seats", setup.Seats).Bool("shuffle", setup.Shuffle).
		Str("reward", reward.String()).Str("autoreset", auto.String()).Int("batch_size", ss.pool.BatchSize()).
		Dur("idle_timeout", idle)
	if p, ok := peer.FromContext(ctx); ok {
		ev = ev.Str("peer", p.Addr.String())
	}
	ev.Msg("session created")
	return ss, nil
}

// startSession builds the factory and the pool of a validated request.
func (s *Server) startSession(g env.Game, setup env.Setup, n int, auto vec.Autoreset, batch, stride int, delta bool, idle time.Duration, traceDir string) (*session, error) {
	f, err := g.NewFactory(setup)
	if err != nil {
		return nil, err
	}
	spec := f.Spec()
	l := f.Learners()
	if rq := requestBytes(&spec, n, l); rq > s.maxReq {
		f.Close()
		return nil, fmt.Errorf("%w: a step of this session takes up to %d bytes, over the server's message limit of %d; use fewer envs", errLimit, rq, s.maxReq)
	}
	if rs := responseBytes(&spec, n, l, auto == vec.SameStep); rs > s.maxResp {
		f.Close()
		return nil, fmt.Errorf("%w: a batch of this session takes up to %d bytes, over the server's message limit of %d; use fewer envs", errLimit, rs, s.maxResp)
	}
	id := newSessionID()
	opts := []vec.Option{vec.WithWorkers(s.opts.workers), vec.WithAutoreset(auto), vec.WithBatchSize(batch), vec.WithSeedStride(stride)}
	if traceDir != "" {
		opts = append(opts, vec.WithTrace(func(episode int, seed int64) (io.WriteCloser, error) {
			return os.Create(filepath.Join(traceDir, fmt.Sprintf("%s-env0-game%04d-seed%d.res", id, episode, seed)))
		}))
	}
	pool, err := vec.New(f, n, opts...)
	if err != nil {
		f.Close()
		return nil, err
	}
	ss := &session{id: id, game: spec.ID, n: n, l: l, async: batch > 0, idle: idle,
		spec: spec, factory: f, pool: pool, created: time.Now()}
	if delta {
		var per []int
		for _, ts := range spec.Observation {
			per = append(per, l*ts.Bytes())
		}
		ss.delta = newDeltaRefs(per, n)
	}
	ss.touch()
	return ss, nil
}

// traceDir resolves a trace_env0 request: a directory under the server's
// --trace-dir (relative paths are taken from it), created if needed.
func (s *Server) traceDir(req string) (string, error) {
	if req == "" {
		return "", nil
	}
	if s.opts.traceDir == "" {
		return "", fmt.Errorf("%w: trace_env0 needs a server started with a trace directory (jgym serve --trace-dir)", errForbidden)
	}
	root, err := filepath.Abs(s.opts.traceDir)
	if err != nil {
		return "", fmt.Errorf("trace directory: %w", err)
	}
	dir := req
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	dir = filepath.Clean(dir)
	if rel, err := filepath.Rel(root, dir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: trace_env0 %q is outside the server's trace directory %s", errForbidden, req, root)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("%w: trace_env0: %v", errForbidden, err)
	}
	return dir, nil
}

// reserve books a session of n instances against the server's limits.
func (s *Server) reserve(n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.draining:
		return errDraining
	case s.booked >= s.opts.maxSessions:
		return fmt.Errorf("%w: %d sessions open, the server's limit", errLimit, s.booked)
	case s.envs+n > s.opts.maxEnvs:
		return fmt.Errorf("%w: %d envs asked, %d of the server's %d are free", errLimit, n, s.opts.maxEnvs-s.envs, s.opts.maxEnvs)
	}
	s.envs += n
	s.booked++
	return nil
}

// release returns what reserve booked.
func (s *Server) release(n int) {
	s.mu.Lock()
	s.envs -= n
	s.booked--
	s.mu.Unlock()
}

// CloseSession closes a session at the client's request.
func (s *Server) CloseSession(ctx context.Context, req *jgymv1.CloseSessionRequest) (*jgymv1.CloseSessionResponse, error) {
	s.mu.Lock()
	ss, ok := s.sessions[req.GetSessionId()]
	s.mu.Unlock()
	if !ok {
		return nil, toStatus(fmt.Errorf("%w: %q (closed, expired or never created)", errNotFound, req.GetSessionId()))
	}
	s.closeSession(ss, reasonClient)
	return &jgymv1.CloseSessionResponse{}, nil
}

// closeSession removes a session, closes it and frees its instances.
func (s *Server) closeSession(ss *session, reason string) {
	s.mu.Lock()
	if s.sessions[ss.id] == ss {
		delete(s.sessions, ss.id)
	}
	s.mu.Unlock()
	closed, err := ss.close(reason)
	if !closed {
		return
	}
	s.release(ss.n)
	s.metrics.closed(reason)
	ev := s.log.Info()
	if err != nil {
		ev = s.log.Warn().Err(err)
	}
	ev.Str("session", ss.id).Str("reason", reason).Int("envs", ss.n).
		Dur("age", time.Since(ss.created)).Msg("session closed")
}

// closeAll closes every session.
func (s *Server) closeAll(reason string) {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		all = append(all, ss)
	}
	s.mu.Unlock()
	for _, ss := range all {
		s.closeSession(ss, reason)
	}
}

// reap closes the sessions idle for longer than their timeout. A session
// answering a request is not idle.
func (s *Server) reap(now time.Time) {
	s.mu.Lock()
	var idle []*session
	for _, ss := range s.sessions {
		if now.Sub(time.Unix(0, ss.lastUsed.Load())) > ss.idle {
			idle = append(idle, ss)
		}
	}
	s.mu.Unlock()
	for _, ss := range idle {
		if !ss.mu.TryLock() {
			continue // busy answering
		}
		ss.mu.Unlock()
		if now.Sub(time.Unix(0, ss.lastUsed.Load())) > ss.idle {
			s.closeSession(ss, reasonIdle)
		}
	}
}

// lookup finds an open session.
func (s *Server) lookup(id string) (*session, error) {
	if id == "" {
		return nil, fmt.Errorf("%w: the first message of a stream must name its session_id", errBadRequest)
	}
	s.mu.Lock()
	ss, ok := s.sessions[id]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: %q (closed, expired or never created)", errNotFound, id)
	}
	return ss, nil
}
