package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"jgym/env"
	"jgym/env/crematoria"
	"jgym/server"
)

func init() {
	register(&command{
		name:  "serve",
		usage: "[--addr 127.0.0.1:50051] [--metrics-addr ADDR] [--workers N] [limits] [--log-format auto|json|console]",
		short: "serve the games to reinforcement-learning clients over gRPC",
		run:   runServe,
	})
}

// serveConfig holds the parsed flags of jgym serve.
type serveConfig struct {
	addr, metricsAddr    string
	logFormat, logLevel  string
	workers              int
	maxEnvsPerSession    int
	maxEnvs, maxSessions int
	idleTimeout, maxIdle time.Duration
	shutdownGrace        time.Duration
	traceDir             string
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["serve"]
	fs := newFlagSet(c, stderr)
	var cfg serveConfig
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:50051", "gRPC listen address; the default is loopback only, give an explicit address (e.g. 0.0.0.0:50051) to expose the server")
	fs.StringVar(&cfg.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9090; default: off)")
	fs.IntVar(&cfg.workers, "workers", runtime.GOMAXPROCS(0), "worker goroutines per session")
	fs.IntVar(&cfg.maxEnvsPerSession, "max-envs-per-session", 1024, "most game instances in one session")
	fs.IntVar(&cfg.maxEnvs, "max-envs", 4096, "most game instances in all sessions together")
	fs.IntVar(&cfg.maxSessions, "max-sessions", 256, "most open sessions")
	fs.DurationVar(&cfg.idleTimeout, "idle-timeout", 5*time.Minute, "close a session after this long without a request (clients may ask for another value)")
	fs.DurationVar(&cfg.maxIdle, "max-idle-timeout", time.Hour, "largest idle timeout a client may ask for")
	fs.DurationVar(&cfg.shutdownGrace, "shutdown-grace", 10*time.Second, "on SIGTERM or SIGINT, how long streams may take to end before they are cut")
	fs.StringVar(&cfg.traceDir, "trace-dir", "", "allow sessions to write .res traces of their env 0 (trace_env0) under this directory (default: refused)")
	fs.StringVar(&cfg.logFormat, "log-format", "auto", "log format: json, console, or auto (console on a terminal, else json)")
	fs.StringVar(&cfg.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("unexpected arguments %q", pos)
	}
	log, err := newLogger(stderr, cfg.logFormat, cfg.logLevel)
	if err != nil {
		return err
	}
	return serve(log.WithContext(ctx), cfg, nil)
}

// newLogger builds the root logger: JSON, or console output for a person
// at a terminal.
func newLogger(w io.Writer, format, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil || level == "" {
		return zerolog.Logger{}, usageErr("bad --log-level %q: want debug, info, warn or error", level)
	}
	switch format {
	case "auto":
		if f, ok := w.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly}
			}
		}
	case "console":
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.TimeOnly, NoColor: true}
	case "json":
	default:
		return zerolog.Logger{}, usageErr("bad --log-format %q: want auto, json or console", format)
	}
	return zerolog.New(w).Level(lvl).With().Timestamp().Logger(), nil
}

// newRegistry hosts the games, with bots resolved by resolveBot (so the
// prefixes registered in this binary work in sessions too).
func newRegistry() (*env.Registry, error) {
	prefixes := make([]string, len(botPrefixes))
	for i, p := range botPrefixes {
		prefixes[i] = p.prefix
	}
	return env.NewRegistry(crematoria.NewEnv(
		crematoria.WithResolver(resolveBot),
		crematoria.WithPrefixes(prefixes...),
	))
}

// isLoopback reports whether a listen address only accepts local clients.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serve runs the gRPC server (and the metrics endpoint) until ctx is
// cancelled. The logger comes from ctx. ready, if not nil, is called with
// the gRPC listener's address once it listens.
func serve(ctx context.Context, cfg serveConfig, ready func(grpcAddr, metricsAddr net.Addr)) error {
	log := zerolog.Ctx(ctx)
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	srv, err := server.New(reg,
		server.WithWorkers(cfg.workers),
		server.WithMaxEnvsPerSession(cfg.maxEnvsPerSession),
		server.WithMaxEnvs(cfg.maxEnvs),
		server.WithMaxSessions(cfg.maxSessions),
		server.WithIdleTimeout(cfg.idleTimeout),
		server.WithMaxIdleTimeout(cfg.maxIdle),
		server.WithShutdownGrace(cfg.shutdownGrace),
		server.WithTraceDir(cfg.traceDir),
	)
	if err != nil {
		return usageErr("%v", err)
	}
	lis, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if !isLoopback(cfg.addr) {
		log.Warn().Str("addr", cfg.addr).Msg("listening beyond loopback: the server has no authentication, expose it only on trusted networks")
	}
	var wg sync.WaitGroup
	var metricsAddr net.Addr
	var hs *http.Server
	if cfg.metricsAddr != "" {
		ml, err := net.Listen("tcp", cfg.metricsAddr)
		if err != nil {
			lis.Close()
			return fmt.Errorf("metrics listen: %w", err)
		}
		metricsAddr = ml.Addr()
		mux := http.NewServeMux()
		mux.Handle("/metrics", srv.MetricsHandler())
		hs = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := hs.Serve(ml); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error().Err(err).Msg("metrics server failed")
			}
		}()
		log.Info().Str("addr", metricsAddr.String()).Msg("metrics at /metrics")
	}
	if ready != nil {
		ready(lis.Addr(), metricsAddr)
	}
	err = srv.Serve(ctx, lis)
	if hs != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if serr := hs.Shutdown(sctx); serr != nil {
			hs.Close()
		}
		cancel()
	}
	wg.Wait()
	if err != nil && !strings.Contains(err.Error(), "use of closed network connection") {
		return err
	}
	return nil
}
