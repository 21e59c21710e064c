package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/experimental"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
)

// Option configures a Server.
type Option func(*options)

type options struct {
	maxEnvsPerSession int
	maxEnvs           int
	maxSessions       int
	workers           int
	idleTimeout       time.Duration
	maxIdleTimeout    time.Duration
	shutdownGrace     time.Duration
	reapInterval      time.Duration
	window            int32
	traceDir          string
}

func defaultOptions() options {
	return options{
		maxEnvsPerSession: 1024,
		maxEnvs:           4096,
		maxSessions:       256,
		workers:           runtime.GOMAXPROCS(0),
		idleTimeout:       5 * time.Minute,
		maxIdleTimeout:    time.Hour,
		shutdownGrace:     10 * time.Second,
		reapInterval:      time.Second,
		window:            8 << 20,
	}
}

// WithMaxEnvsPerSession limits num_envs of one session (default 1024). The
// server's message size limits are computed from it.
func WithMaxEnvsPerSession(n int) Option { return func(o *options) { o.maxEnvsPerSession = n } }

// WithMaxEnvs limits the game instances of all sessions together (default
// 4096).
func WithMaxEnvs(n int) Option { return func(o *options) { o.maxEnvs = n } }

// WithMaxSessions limits the number of open sessions (default 256).
func WithMaxSessions(n int) Option { return func(o *options) { o.maxSessions = n } }

// WithWorkers sets the worker goroutines of each session's pool (default
// GOMAXPROCS).
func WithWorkers(n int) Option { return func(o *options) { o.workers = n } }

// WithIdleTimeout sets how long a session may go without a request before
// it is closed, when the client does not say (default 5 minutes).
func WithIdleTimeout(d time.Duration) Option { return func(o *options) { o.idleTimeout = d } }

// WithMaxIdleTimeout bounds the idle timeout a client may ask for
// (default 1 hour).
func WithMaxIdleTimeout(d time.Duration) Option { return func(o *options) { o.maxIdleTimeout = d } }

// WithShutdownGrace sets how long Serve waits for streams to end after its
// context is cancelled before it cuts them (default 10 seconds).
func WithShutdownGrace(d time.Duration) Option { return func(o *options) { o.shutdownGrace = d } }

// WithTraceDir allows sessions to record the games of their env 0
// (CreateSessionRequest.trace_env0) in directories under dir. Without it
// trace_env0 is refused.
func WithTraceDir(dir string) Option { return func(o *options) { o.traceDir = dir } }

// WithReapInterval sets how often idle sessions are looked for (default 1
// second; tests shorten it).
func WithReapInterval(d time.Duration) Option { return func(o *options) { o.reapInterval = d } }

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

	mu       sync.Mutex
	sessions map[string]*session
	booked   int // sessions open or being created
	envs     int // instances of the open sessions, reserved ones included
	streams  int
	draining bool
	log      zerolog.Logger // the Serve context's logger, for the reaper

	// readers are the streams' request readers (see Stream); each ends
	// soon after its stream's handler returns, and Serve waits for them.
	readers sync.WaitGroup
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
	if o.idleTimeout <= 0 || o.maxIdleTimeout < o.idleTimeout {
		return nil, fmt.Errorf("server: idle timeout %v must be positive and at most the maximum %v", o.idleTimeout, o.maxIdleTimeout)
	}
	games := reg.Games()
	if len(games) == 0 {
		return nil, errors.New("server: no game registered")
	}
	s := &Server{reg: reg, opts: o, metrics: newMetrics(), health: health.NewServer(),
		sessions: map[string]*session{}, log: zerolog.Nop()}
	for _, g := range games {
		sp := g.Spec()
		s.maxReq = max(s.maxReq, requestBytes(&sp, o.maxEnvsPerSession, sp.NumSeats))
		s.maxResp = max(s.maxResp, responseBytes(&sp, o.maxEnvsPerSession, sp.NumSeats, true))
	}
	return s, nil
}

// MaxMessageBytes returns the receive and send limits of the server.
func (s *Server) MaxMessageBytes() (request, response int64) { return s.maxReq, s.maxResp }

// grpcOptions are the gRPC server options: message limits fitted to the
// batches, flow-control windows large enough for a batch, keepalive so
// that vanished clients are noticed, and the interceptors.
func (s *Server) grpcOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(int(s.maxReq)),
		grpc.MaxSendMsgSize(int(s.maxResp)),
		grpc.InitialWindowSize(s.opts.window),
		grpc.InitialConnWindowSize(2 * s.opts.window),
		grpc.ReadBufferSize(256 << 10),
		grpc.WriteBufferSize(256 << 10),
		experimental.BufferPool(BufferPool()),
		grpc.ForceServerCodecV2(Codec()),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: 30 * time.Second, Timeout: 10 * time.Second}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 5 * time.Second, PermitWithoutStream: true}),
		grpc.ChainUnaryInterceptor(s.unaryInterceptor),
		grpc.ChainStreamInterceptor(s.streamInterceptor),
	}
}

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
	gs := grpc.NewServer(s.grpcOptions()...)
	jgymv1.RegisterJgymServiceServer(gs, s)
	healthpb.RegisterHealthServer(gs, s.health)
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	s.health.SetServingStatus(jgymv1.JgymService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)

	stopReaper := make(chan struct{})
	var wg sync.WaitGroup
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
		<-stopped
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
		}
	}
}

func (s *Server) gauges() gauges {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := gauges{sessions: len(s.sessions), streams: s.streams}
	for _, ss := range s.sessions {
		g.envs += ss.n
	}
	return g
}

// unaryInterceptor gives handlers the server's logger and logs and
// counts failures.
func (s *Server) unaryInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
	s.mu.Lock()
	log := s.log
	s.mu.Unlock()
	ctx = log.WithContext(ctx)
	resp, err := h(ctx, req)
	if err != nil {
		s.logFailure(log, info.FullMethod, err)
	}
	return resp, err
}

type ctxStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (c ctxStream) Context() context.Context { return c.ctx }

// streamInterceptor is unaryInterceptor for streams.
func (s *Server) streamInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
	s.mu.Lock()
	log := s.log
	s.mu.Unlock()
	err := h(srv, ctxStream{ss, log.WithContext(ss.Context())})
	if err != nil {
		s.logFailure(log, info.FullMethod, err)
	}
	return err
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
