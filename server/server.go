package server

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/experimental"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
)

// Server serves the games of a registry over gRPC (jgym.v1.JgymService).
// Make it with New and run it with Serve.
type Server struct {
	jgymv1.UnimplementedJgymServiceServer

	reg     *env.Registry
	opts    options
	metrics *metrics
	health  *health.Server
	maxReq  int64 // largest request accepted (gRPC receive limit)
	maxResp int64 // largest response sent (gRPC send limit)

	tokens map[[32]byte]Token // by the SHA-256 of the secret
	store  *BotStore

	mu        sync.Mutex
	sessions  map[string]*session
	clients   map[string]*client
	booked    int   // sessions open or being created
	envs      int   // instances of the open sessions, reserved ones included
	procs     int   // bot processes of the open sessions (seats of processPrefixes)
	memory    int64 // estimated bytes of the open sessions
	streams   int   // attached to sessions
	allStream int   // open, attached or not
	unauth    int   // calls without a token in progress (see tap)
	draining  bool
	log       zerolog.Logger // the Serve context's logger, for the reaper

	connMu sync.Mutex
	conns  map[*conn]struct{} // open connections (see conn)

	// readers are the streams' request readers (see Stream); each ends
	// soon after its stream's handler returns, and Serve waits for them.
	// The local channel's connections are counted here too.
	readers sync.WaitGroup

	localMu    sync.Mutex
	localConns map[*net.UnixConn]struct{} // open local connections (localserve.go)
}

var _ jgymv1.JgymServiceServer = (*Server)(nil)

// New makes a server for the games of reg. The message size limits are
// computed from the games' default spaces: a batch of the largest session
// with every seat a learner.
func New(reg *env.Registry, opts ...Option) (*Server, error) {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxEnvsPerSession < 1 || o.maxEnvs < 1 || o.maxSessions < 1 {
		return nil, errors.New("server: limits must be at least 1")
	}
	if o.maxStreams < 1 || o.maxConns < 1 || o.maxConnsPerPeer < 1 || o.memoryBudget < 1 || o.maxProcs < 0 || o.maxProcsPerSess < 0 {
		return nil, errors.New("server: limits must be at least 1")
	}
	if o.unauthBytes < 1 || o.unauthStreams < 0 || o.unreadTimeout <= 0 {
		return nil, errors.New("server: the unauthenticated allowance and the unread timeout must be positive")
	}
	if o.idleTimeout <= 0 || o.maxIdleTimeout < o.idleTimeout || o.firstRequest <= 0 {
		return nil, fmt.Errorf("server: idle timeout %v must be positive and at most the maximum %v", o.idleTimeout, o.maxIdleTimeout)
	}
	games := reg.Games()
	if len(games) == 0 {
		return nil, errors.New("server: no game registered")
	}
	s := &Server{reg: reg, opts: o, metrics: newMetrics(), health: health.NewServer(),
		sessions: map[string]*session{}, clients: map[string]*client{}, store: o.store, log: zerolog.Nop(),
		conns: map[*conn]struct{}{}}
	if len(o.tokens) > 0 {
		s.tokens = map[[32]byte]Token{}
		for _, t := range o.tokens {
			if len(t.Secret) < minSecretLen || !tokenNameRE.MatchString(t.Name) {
				return nil, fmt.Errorf("server: token %s: a name of 1 to 64 letters, digits, '.', '_', '-' and a secret of at least %d characters", short(t.Name), minSecretLen)
			}
			s.tokens[sha256.Sum256([]byte(t.Secret))] = t
		}
	}
	for _, g := range games {
		sp := g.Spec()
		s.maxReq = max(s.maxReq, requestBytes(&sp, o.maxEnvsPerSession, sp.NumSeats))
		s.maxResp = max(s.maxResp, responseBytes(&sp, o.maxEnvsPerSession, sp.NumSeats, true))
	}
	if o.store != nil {
		s.maxReq = max(s.maxReq, o.maxUploadBytes+4096)
	}
	// A trace start sends a trace and its command file; a set_state, the
	// states of some envs (a client restores many in several requests).
	s.maxReq = max(s.maxReq, 2*env.MaxTraceBytes+4096)
	return s, nil
}

// MaxMessageBytes returns the receive and send limits of the server.
func (s *Server) MaxMessageBytes() (request, response int64) { return s.maxReq, s.maxResp }

// grpcOptions are the gRPC server options: message limits fitted to the
// batches, flow-control windows large enough for a batch, keepalive so
// that vanished clients are noticed, and the interceptors.
func (s *Server) grpcOptions() []grpc.ServerOption {
	opts := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(int(s.maxReq)),
		grpc.MaxSendMsgSize(int(s.maxResp)),
		grpc.InitialWindowSize(s.opts.window),
		grpc.InitialConnWindowSize(2 * s.opts.window),
		grpc.ReadBufferSize(256 << 10),
		grpc.WriteBufferSize(256 << 10),
		experimental.BufferPool(BufferPool()),
		grpc.ForceServerCodecV2(Codec()),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 30 * time.Second, Timeout: 10 * time.Second, MaxConnectionIdle: s.opts.maxIdleTimeout + time.Minute}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 5 * time.Second, PermitWithoutStream: true}),
		grpc.MaxConcurrentStreams(maxStreamsPerConn),
		grpc.ConnectionTimeout(10 * time.Second),
		grpc.InTapHandle(s.tap),
		grpc.ChainUnaryInterceptor(s.unaryInterceptor),
		grpc.ChainStreamInterceptor(s.streamInterceptor),
	}
	creds := insecure.NewCredentials()
	if s.opts.tls != nil {
		creds = credentials.NewTLS(s.opts.tls)
	}
	return append(opts, grpc.Creds(connCreds{TransportCredentials: creds, s: s}))
}

// maxStreamsPerConn bounds the concurrent calls of one connection.
const maxStreamsPerConn = 128

// Serve serves on lis until ctx is cancelled, then shuts down gracefully:
// health turns NOT_SERVING, new sessions are refused, open sessions are
// closed (answers in progress are sent first), streams get the grace
// period to end, then the rest are cut. The logger comes from ctx
// (zerolog.Ctx). Serve closes lis.
func (s *Server) Serve(ctx context.Context, lis net.Listener) error {
	s.mu.Lock()
	s.log = *zerolog.Ctx(ctx)
	s.draining = false
	s.mu.Unlock()
	log := s.log
	lis = newLimitListener(lis, s.opts.maxConns, s.opts.maxConnsPerPeer, s.metrics)
	gs := grpc.NewServer(s.grpcOptions()...)
	jgymv1.RegisterJgymServiceServer(gs, s)
	healthpb.RegisterHealthServer(gs, s.health)
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	s.health.SetServingStatus(jgymv1.JgymService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)

	var local *net.UnixListener
	if s.opts.localSocket != "" {
		var err error
		if local, err = listenLocal(s.opts.localSocket); err != nil {
			lis.Close()
			return err
		}
		s.localMu.Lock()
		s.localConns = map[*net.UnixConn]struct{}{}
		s.localMu.Unlock()
	}
	stopReaper := make(chan struct{})
	var wg sync.WaitGroup
	if local != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveLocal(local)
		}()
		log.Info().Str("local_socket", s.opts.localSocket).Msg("local channel offered")
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.reapLoop(stopReaper)
	}()
	serveErr := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		serveErr <- gs.Serve(lis)
	}()
	log.Info().Str("addr", lis.Addr().String()).
		Int64("max_request_bytes", s.maxReq).Int64("max_response_bytes", s.maxResp).
		Int("max_envs_per_session", s.opts.maxEnvsPerSession).Int("max_envs", s.opts.maxEnvs).
		Int("max_sessions", s.opts.maxSessions).Int("workers", s.opts.workers).
		Dur("idle_timeout", s.opts.idleTimeout).Msg("serving")

	var err error
	select {
	case <-ctx.Done():
	case err = <-serveErr:
		err = fmt.Errorf("serve: %w", err)
	}
	s.shutdown(gs)
	if local != nil {
		s.closeLocal(local)
	}
	close(stopReaper)
	wg.Wait()
	s.readers.Wait()
	log.Info().Msg("stopped")
	return err
}

// shutdown drains the server (see Serve).
func (s *Server) shutdown(gs *grpc.Server) {
	s.health.Shutdown()
	s.mu.Lock()
	s.draining = true
	open := len(s.sessions)
	s.mu.Unlock()
	s.log.Info().Int("sessions", open).Dur("grace", s.opts.shutdownGrace).Msg("shutting down")
	s.closeAll(reasonShutdown)
	stopped := make(chan struct{})
	go func() {
		gs.GracefulStop()
		close(stopped)
	}()
	t := time.NewTimer(s.opts.shutdownGrace)
	defer t.Stop()
	select {
	case <-stopped:
	case <-t.C:
		s.log.Warn().Msg("grace period over: cutting the remaining streams")
		gs.Stop()
		// GracefulStop still waits for handlers that do not return, such
		// as a CreateSession stuck preparing its bots; it ends with them,
		// and such a session is closed as soon as it is made (draining).
		select {
		case <-stopped:
		case <-time.After(time.Second):
		}
	}
}

// reapLoop closes idle sessions and samples the step rate until stop is
// closed.
func (s *Server) reapLoop(stop <-chan struct{}) {
	t := time.NewTicker(s.opts.reapInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			s.metrics.sample(now)
			s.reap(now)
			s.closeUnread(now)
			s.mu.Lock()
			s.forgetIdleClients()
			s.mu.Unlock()
		}
	}
}

func (s *Server) gauges() gauges {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := gauges{sessions: len(s.sessions), streams: s.streams, allStreams: s.allStream, clients: len(s.clients),
		procs: s.procs, memory: s.memory, unauth: s.unauth, extra: s.opts.gauges}
	for _, ss := range s.sessions {
		g.envs += ss.n
	}
	return g
}

// logger returns the Serve context's logger.
func (s *Server) logger() zerolog.Logger {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log
}

// isHealth reports whether a method is the gRPC health service's, which
// needs no token (probes of Kubernetes and load balancers carry none).
func isHealth(method string) bool { return strings.HasPrefix(method, "/grpc.health.v1.Health/") }

// unaryInterceptor identifies the client (refusing requests without a
// valid token where tokens are required), gives handlers the server's
// logger and logs and counts failures.
func (s *Server) unaryInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	log := s.logger()
	if isHealth(info.FullMethod) {
		return h(ctx, req)
	}
	c, err := s.caller(ctx)
	if err != nil {
		s.logFailure(log, info.FullMethod, err)
		return nil, err
	}
	ctx = context.WithValue(log.With().Str("client", c.id).Logger().WithContext(ctx), clientKey{}, c)
	resp, err := h(ctx, req)
	if err != nil {
		s.logFailure(log.With().Str("client", c.id).Logger(), info.FullMethod, err)
	}
	return resp, err
}

type ctxStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (c ctxStream) Context() context.Context { return c.ctx }

// streamInterceptor is unaryInterceptor for streams; it also counts the
// open streams against the server's and the client's limits.
func (s *Server) streamInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	log := s.logger()
	if isHealth(info.FullMethod) {
		return h(srv, ss)
	}
	c, err := s.caller(ss.Context())
	if err != nil {
		s.logFailure(log, info.FullMethod, err)
		return err
	}
	log = log.With().Str("client", c.id).Logger()
	if err := s.openStream(c); err != nil {
		err = toStatus(err)
		s.logFailure(log, info.FullMethod, err)
		return err
	}
	defer s.closeStream(c)
	ctx := context.WithValue(log.WithContext(ss.Context()), clientKey{}, c)
	err = h(srv, ctxStream{ss, ctx})
	if err != nil {
		s.logFailure(log, info.FullMethod, err)
	}
	return err
}

// openStream counts a new stream, or refuses it past a limit.
func (s *Server) openStream(c *client) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.allStream >= s.opts.maxStreams:
		return fmt.Errorf("%w: %d streams open, the server's limit", errLimit, s.allStream)
	case c.streams >= c.limits.Streams:
		return fmt.Errorf("%w: you have %d streams open, your limit", errLimit, c.streams)
	}
	s.allStream++
	c.streams++
	return nil
}

func (s *Server) closeStream(c *client) {
	s.mu.Lock()
	s.allStream--
	c.streams--
	s.mu.Unlock()
}

// logFailure counts a failed call and logs it; a client that cancelled
// is logged at debug level only.
func (s *Server) logFailure(log zerolog.Logger, method string, err error) {
	st := status.Convert(err)
	s.metrics.failed(st.Code())
	ev := log.Warn()
	if st.Code() == codes.Canceled {
		ev = log.Debug()
	}
	ev.Str("method", method).Str("code", st.Code().String()).Str("error", st.Message()).Msg("request failed")
}
