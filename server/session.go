package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
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
	client   *client
	n, l     int
	procs    int   // bot processes its seats may run
	memory   int64 // estimated bytes, booked against the memory budget
	trace    *os.Root
	done     chan struct{}      // closed when the session closes
	ctx      context.Context    // cancelled when the session closes
	cancel   context.CancelFunc // cancels ctx
	async    bool
	idle     time.Duration
	spec     env.Spec
	factory  env.Factory
	pool     *vec.Pool
	delta    *deltaRefs // observation_delta: the references, else nil
	created  time.Time
	lastUsed atomic.Int64 // unix nanoseconds of the last request
	attached atomic.Bool
	local    atomic.Bool // a local channel is attached (localserve.go)
	secret   [localSecretBytes]byte

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
	close(ss.done)
	ss.cancel()
	err := ss.pool.Close()
	if ferr := ss.factory.Close(); err == nil {
		err = ferr
	}
	if ss.trace != nil {
		ss.trace.Close()
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

// ListBots lists the bots of a game (empty: the first hosted game): the
// built-in ones and the files the operator offers.
func (s *Server) ListBots(ctx context.Context, req *jgymv1.ListBotsRequest) (*jgymv1.ListBotsResponse, error) {
	id, err := s.gameID(req.GetGame())
	if err != nil {
		return nil, toStatus(err)
	}
	g, err := s.reg.Lookup(id)
	if err != nil {
		return nil, toStatus(err)
	}
	names, prefixes := g.Bots()
	names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(s.opts.refusedBots, n) })
	if s.opts.offered != nil {
		names = append(names, s.opts.offered(id)...)
		sort.Strings(names)
	}
	return &jgymv1.ListBotsResponse{Bots: names, Prefixes: prefixes}, nil
}

// CreateSession validates the request, reserves its instances against the
// limits and starts a pool.
func (s *Server) CreateSession(ctx context.Context, req *jgymv1.CreateSessionRequest) (*jgymv1.CreateSessionResponse, error) {
	ss, err := s.createSession(ctx, req)
	if err != nil {
		return nil, toStatus(err)
	}
	resp := &jgymv1.CreateSessionResponse{
		SessionId:        ss.id,
		Game:             specToProto(ss.spec),
		NumLearners:      int32(ss.l),
		BatchSize:        int32(ss.pool.BatchSize()),
		MaxResponseBytes: responseBytes(&ss.spec, ss.n, ss.l, ss.pool.Autoreset() == vec.SameStep),
		MaxRequestBytes:  s.maxReq,
	}
	if s.opts.localSocket != "" {
		resp.LocalSocket, resp.LocalSecret = s.opts.localSocket, ss.secret[:]
	}
	return resp, nil
}

// Bounds of a session's options, so that a request's strings stay small
// in memory and messages.
const (
	maxOptionBytes   = 64
	maxCreditWeights = 32
)

func (s *Server) createSession(ctx context.Context, req *jgymv1.CreateSessionRequest) (*session, error) {
	if err := checkCreate(req); err != nil {
		return nil, err
	}
	if req.GetGame() == "" {
		return nil, fmt.Errorf("%w: game is required (hosted: %v)", errBadRequest, s.reg.IDs())
	}
	g, err := s.reg.Lookup(req.GetGame())
	if err != nil {
		return nil, fmt.Errorf("%w %s (hosted: %v)", env.ErrUnknownGame, short(req.GetGame()), s.reg.IDs())
	}
	c := s.clientOf(ctx)
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
	reward, err := rewardFromProto(req.GetRewardMode())
	if err != nil {
		return nil, err
	}
	auto, err := autoresetFromProto(req.GetAutoresetMode())
	if err != nil {
		return nil, err
	}
	setup := env.Setup{Config: req.GetConfig(), Shuffle: req.GetShuffleSeats(), Reward: reward,
		OpponentOrder: req.GetOpponentOrder(), ActionOrder: req.GetActionOrder(), UnitRewards: req.GetUnitRewards()}
	if len(setup.OpponentOrder) > maxOptionBytes || len(setup.ActionOrder) > maxOptionBytes || len(req.GetCreditWeights()) > maxCreditWeights {
		return nil, fmt.Errorf("%w: opponent_order and action_order take at most %d bytes, credit_weights at most %d entries",
			errBadRequest, maxOptionBytes, maxCreditWeights)
	}
	if w := req.GetCreditWeights(); len(w) > 0 {
		setup.CreditWeights = make(map[string]float64, len(w))
		for k, v := range w {
			if len(k) > maxOptionBytes {
				return nil, fmt.Errorf("%w: a credit weight's name takes at most %d bytes", errBadRequest, maxOptionBytes)
			}
			setup.CreditWeights[k] = v
		}
	}
	if t := req.GetTensors(); len(t) > 0 {
		if len(t) > env.MaxTensors {
			return nil, fmt.Errorf("%w: tensors names %d tensors, at most %d", errBadRequest, len(t), env.MaxTensors)
		}
		for _, name := range t {
			if len(name) > maxOptionBytes {
				return nil, fmt.Errorf("%w: a tensor's name takes at most %d bytes", errBadRequest, maxOptionBytes)
			}
		}
		setup.Tensors = slices.Clone(t)
	}
	for _, seat := range req.GetSeats() {
		setup.Seats = append(setup.Seats, seat.GetBot())
	}
	spec := g.Spec()
	if want := spec.NumSeats; len(setup.Seats) != want {
		return nil, fmt.Errorf("%w: %d seats given, want %d (an empty bot name is a learner seat)", errBadRequest, len(setup.Seats), want)
	}
	procSeats, err := s.checkSeats(c, spec.ID, setup.Seats)
	if err != nil {
		return nil, err
	}
	// The observations held are those of the tensors asked for; a bad
	// list is refused below, where the env is made.
	held := spec
	if sub, err := spec.Subset(setup.Tensors); err == nil {
		held = sub
	}
	b := booking{envs: n, procs: n * procSeats, memory: sessionMemory(&held, n, setup.Learners())}
	if b.procs > s.opts.maxProcsPerSess {
		return nil, fmt.Errorf("%w: %d envs with %d bots that run a process each make %d processes, over the limit of %d per session",
			errLimit, n, procSeats, b.procs, s.opts.maxProcsPerSess)
	}
	trace, err := s.traceRoot(req.GetTraceEnv0())
	if err != nil {
		return nil, err
	}
	if err := s.reserve(c, b); err != nil {
		closeRoot(trace)
		return nil, err
	}
	ss, err := s.startSession(c, g, setup, n, auto, int(req.GetBatchSize()), stride, req.GetObservationDelta(), idle, trace)
	if err != nil {
		closeRoot(trace)
		s.release(c, b)
		return nil, err
	}
	ss.procs, ss.memory = b.procs, b.memory
	s.mu.Lock()
	if s.draining {
		// Shutdown began while the bots were being prepared.
		s.mu.Unlock()
		ss.close(reasonShutdown)
		s.release(c, b)
		return nil, errDraining
	}
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
func (s *Server) startSession(c *client, g env.Game, setup env.Setup, n int, auto vec.Autoreset, batch, stride int, delta bool, idle time.Duration, trace *os.Root) (*session, error) {
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
	opts := []vec.Option{vec.WithWorkers(s.opts.workers), vec.WithAutoreset(auto), vec.WithBatchSize(batch),
		vec.WithSeedStride(stride)}
	if trace != nil {
		opts = append(opts, vec.WithTrace(func(episode int, seed int64) (io.WriteCloser, error) {
			name := fmt.Sprintf("%s-env0-game%04d-seed%d.res", id, episode, seed)
			f, err := trace.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return nil, err
			}
			return &quotaWriter{f: f, c: c}, nil
		}))
	}
	pool, err := vec.New(f, n, opts...)
	if err != nil {
		f.Close()
		return nil, err
	}
	ss := &session{id: id, game: spec.ID, client: c, n: n, l: l, async: batch > 0, idle: idle,
		spec: spec, factory: f, pool: pool, created: time.Now(), trace: trace, done: make(chan struct{})}
	ss.ctx, ss.cancel = context.WithCancel(context.Background())
	_, _ = rand.Read(ss.secret[:]) // crypto/rand.Read never fails on supported platforms
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

// traceRoot resolves a trace_env0 request: a relative directory under
// the server's --trace-dir, created if needed, opened as an os.Root so
// that no symbolic link leads a trace out of it. Files are created new
// (never overwritten) and count against the client's TraceBytes.
func (s *Server) traceRoot(req string) (*os.Root, error) {
	if req == "" {
		return nil, nil
	}
	if s.opts.traceDir == "" {
		return nil, fmt.Errorf("%w: trace_env0 needs a server started with a trace directory (jgym serve --trace-dir)", errForbidden)
	}
	if !validTraceDir(req) {
		return nil, fmt.Errorf("%w: trace_env0 %s: want \".\" or a relative path of at most 4 names of letters, digits, '.', '_' and '-'", errBadRequest, short(req))
	}
	root, err := os.OpenRoot(s.opts.traceDir)
	if err != nil {
		return nil, fmt.Errorf("%w: the server's trace directory cannot be opened", errForbidden)
	}
	if err := root.MkdirAll(req, 0o755); err != nil {
		root.Close()
		return nil, fmt.Errorf("%w: trace_env0 %s cannot be made in the trace directory", errForbidden, short(req))
	}
	sub, err := root.OpenRoot(req)
	root.Close()
	if err != nil {
		return nil, fmt.Errorf("%w: trace_env0 %s cannot be opened in the trace directory", errForbidden, short(req))
	}
	return sub, nil
}

// validTraceDir reports whether a trace_env0 is "." or a relative path of
// at most 4 names (ValidBotFile names).
func validTraceDir(d string) bool {
	if d == "." {
		return true
	}
	parts := strings.Split(d, "/")
	if len(parts) > 4 {
		return false
	}
	for _, p := range parts {
		if !ValidBotFile(p) {
			return false
		}
	}
	return true
}

func closeRoot(r *os.Root) {
	if r != nil {
		r.Close()
	}
}

// quotaWriter writes a trace, charging its bytes to the client's
// TraceBytes.
type quotaWriter struct {
	f *os.File
	c *client
}

func (w *quotaWriter) Write(p []byte) (int, error) {
	if n := w.c.traceBytes.Add(int64(len(p))); n > w.c.limits.TraceBytes {
		w.c.traceBytes.Add(-int64(len(p)))
		return 0, fmt.Errorf("%w: the trace quota of %d bytes is used up", errLimit, w.c.limits.TraceBytes)
	}
	return w.f.Write(p)
}

func (w *quotaWriter) Close() error { return w.f.Close() }

// booking is what a session holds against the limits.
type booking struct {
	envs, procs int
	memory      int64
}

// defaultInstanceBytes is the memory of one instance when the game does
// not say (env.Spec.InstanceBytes).
const defaultInstanceBytes = 256 << 10

// sessionMemory estimates the memory of a session: its instances with
// the command lists they record (saved states are their encoding, held by
// the client), and its observations held about six times (the pool's
// buffers and final observations, a gathered batch, a stream's two
// answers, delta references).
func sessionMemory(sp *env.Spec, n, learners int) int64 {
	per := int64(sp.InstanceBytes)
	if per <= 0 {
		per = defaultInstanceBytes
	}
	return int64(n) * (per + 6*int64(max(learners, 1))*int64(sp.ObservationBytes()) + commandLogBytes(sp))
}

// commandLogBytes bounds the command lists one instance records for its
// saved states: a game's rounds, each at most one command per unit slot
// (the player-side filter keeps one per unit) of 16 bytes, and four lists'
// headers.
func commandLogBytes(sp *env.Spec) int64 {
	return int64(sp.NumRounds) * (int64(sp.Action.NumElems())*16 + 4*24)
}

// reserve books a session against the server's and the client's limits.
func (s *Server) reserve(c *client, b booking) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.draining:
		return errDraining
	case s.booked >= s.opts.maxSessions:
		return fmt.Errorf("%w: %d sessions open, the server's limit", errLimit, s.booked)
	case s.envs+b.envs > s.opts.maxEnvs:
		return fmt.Errorf("%w: %d envs asked, %d of the server's %d are free", errLimit, b.envs, s.opts.maxEnvs-s.envs, s.opts.maxEnvs)
	case c.sessions >= c.limits.Sessions:
		return fmt.Errorf("%w: you have %d sessions open, your limit", errLimit, c.sessions)
	case c.envs+b.envs > c.limits.Envs:
		return fmt.Errorf("%w: %d envs asked, %d of your %d are free", errLimit, b.envs, c.limits.Envs-c.envs, c.limits.Envs)
	case s.memory+b.memory > s.opts.memoryBudget:
		return fmt.Errorf("%w: this session needs about %d MiB, %d MiB of the server's memory budget of %d MiB are free",
			errLimit, b.memory>>20, (s.opts.memoryBudget-s.memory)>>20, s.opts.memoryBudget>>20)
	case s.procs+b.procs > s.opts.maxProcs:
		return fmt.Errorf("%w: this session's bots run %d processes, %d of the server's %d are free", errLimit, b.procs, s.opts.maxProcs-s.procs, s.opts.maxProcs)
	}
	s.booked++
	s.envs += b.envs
	s.memory += b.memory
	s.procs += b.procs
	c.sessions++
	c.envs += b.envs
	return nil
}

// release returns what reserve booked.
func (s *Server) release(c *client, b booking) {
	s.mu.Lock()
	s.booked--
	s.envs -= b.envs
	s.memory -= b.memory
	s.procs -= b.procs
	c.sessions--
	c.envs -= b.envs
	s.mu.Unlock()
}

// clientOf returns the client of a request; calls that did not come
// through the interceptors (tests calling methods directly) are one local
// client.
func (s *Server) clientOf(ctx context.Context) *client {
	if c := clientOf(ctx); c != nil {
		return c
	}
	return s.clientFor("local", s.opts.clientLimits)
}

// CloseSession closes a session at the client's request.
func (s *Server) CloseSession(ctx context.Context, req *jgymv1.CloseSessionRequest) (*jgymv1.CloseSessionResponse, error) {
	ss, err := s.lookup(s.clientOf(ctx), req.GetSessionId())
	if err != nil {
		return nil, toStatus(err)
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
	s.release(ss.client, booking{envs: ss.n, procs: ss.procs, memory: ss.memory})
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

// lookup finds an open session of client c; the sessions of other clients
// are not found.
func (s *Server) lookup(c *client, id string) (*session, error) {
	if id == "" {
		return nil, fmt.Errorf("%w: session_id is required", errBadRequest)
	}
	if len(id) > maxSessionIDBytes {
		return nil, fmt.Errorf("%w: session_id %s is not one the server gives", errNotFound, short(id))
	}
	s.mu.Lock()
	ss, ok := s.sessions[id]
	s.mu.Unlock()
	if !ok || ss.client != c {
		return nil, fmt.Errorf("%w: %s (closed, expired or never created)", errNotFound, short(id))
	}
	return ss, nil
}
