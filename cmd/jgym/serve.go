package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
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

	"jgym/cppbot"
	"jgym/env"
	"jgym/sandbox"
	"jgym/server"
)

func init() {
	register(&command{
		name:  "serve",
		usage: "[--addr 127.0.0.1:50051] [--tokens FILE --tls-cert FILE --tls-key FILE] [--bots-dir DIR] [limits] [--log-format auto|json|console]",
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
	maxStreams           int
	maxConns, maxPerPeer int
	idleTimeout, maxIdle time.Duration
	firstRequest         time.Duration
	shutdownGrace        time.Duration
	traceDir             string
	startTraces          string
	localSocket          string
	memoryBudget         string
	client               server.ClientLimits
	uploadBytes          string // "" or "0": no uploads
	uploadStore          string
	botsDirs             []string
	maxProcs, maxProcsPS int
	tokensFile           string
	tlsCert, tlsKey      string
	tlsClientCA          string
	insecure             bool
	h                    hostileConfig
	// cppUncounted hosts uploaded C++ bots even where the sandbox gives
	// them no control group (--allow-uncounted-cpp-uploads).
	cppUncounted bool
	// allowSearch seats the Search bot for clients (--allow-search).
	allowSearch bool
	// cppSandbox contains the C++ bots; nil: sandbox.Default(). Tests give
	// one without control groups.
	cppSandbox *sandbox.Sandbox
}

// stringsFlag is a repeatable string flag.
type stringsFlag struct{ v *[]string }

func (f stringsFlag) String() string {
	if f.v == nil {
		return ""
	}
	return strings.Join(*f.v, ",")
}
func (f stringsFlag) Set(s string) error { *f.v = append(*f.v, s); return nil }

// defaultServeConfig is the configuration of jgym serve without flags.
func defaultServeConfig() serveConfig {
	return serveConfig{
		addr: "127.0.0.1:50051", workers: runtime.GOMAXPROCS(0),
		maxEnvsPerSession: 1024, maxEnvs: 4096, maxSessions: 256, maxStreams: 1024, maxConns: 1024, maxPerPeer: 64,
		memoryBudget: "4GiB", client: server.DefaultClientLimits(),
		idleTimeout: 5 * time.Minute, maxIdle: time.Hour, firstRequest: 30 * time.Second, shutdownGrace: 10 * time.Second,
		uploadBytes: "16MiB", uploadStore: "1GiB", maxProcs: 256, maxProcsPS: 64,
		logFormat: "auto", logLevel: "info", h: defaultHostileConfig(),
	}
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["serve"]
	fs := newFlagSet(c, stderr)
	cfg := defaultServeConfig()
	d := cfg
	fs.StringVar(&cfg.addr, "addr", d.addr, "gRPC listen address; the default is loopback only. Beyond loopback the server needs --tokens and TLS (or --insecure); see docs/security.md")
	fs.StringVar(&cfg.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://ADDR/metrics and a health probe at /healthz (e.g. 127.0.0.1:9090; default: off); beyond loopback, like --addr, it needs --tokens and TLS (then HTTPS, and /metrics needs a token) or --insecure")
	fs.IntVar(&cfg.workers, "workers", d.workers, "worker goroutines per session")
	fs.IntVar(&cfg.maxEnvsPerSession, "max-envs-per-session", d.maxEnvsPerSession, "most game instances in one session")
	fs.IntVar(&cfg.maxEnvs, "max-envs", d.maxEnvs, "most game instances in all sessions together")
	fs.IntVar(&cfg.maxSessions, "max-sessions", d.maxSessions, "most open sessions")
	fs.IntVar(&cfg.maxStreams, "max-streams", d.maxStreams, "most open streams")
	fs.IntVar(&cfg.maxConns, "max-conns", d.maxConns, "most open connections")
	fs.IntVar(&cfg.maxPerPeer, "max-conns-per-peer", d.maxPerPeer, "most open connections from one IP address")
	fs.StringVar(&cfg.memoryBudget, "memory-budget", d.memoryBudget, "estimated memory all sessions may take together (K, M, G suffixes)")
	fs.IntVar(&cfg.client.Sessions, "client-sessions", d.client.Sessions, "most open sessions of one client (a token, else a client certificate, else an IP address)")
	fs.IntVar(&cfg.client.Envs, "client-envs", cfg.client.Envs, "most game instances of one client")
	fs.IntVar(&cfg.client.Streams, "client-streams", cfg.client.Streams, "most open streams of one client")
	fs.IntVar(&cfg.client.Uploads, "client-uploads", cfg.client.Uploads, "most uploaded bots one client keeps (the oldest are dropped)")
	fs.Int64Var(&cfg.client.UploadBytes, "client-upload-bytes", cfg.client.UploadBytes, "most bytes of uploaded bots one client keeps")
	fs.Int64Var(&cfg.client.TraceBytes, "client-trace-bytes", cfg.client.TraceBytes, "most bytes of traces one client may write (trace_env0)")
	fs.DurationVar(&cfg.idleTimeout, "idle-timeout", d.idleTimeout, "close a session after this long without a request (clients may ask for another value)")
	fs.DurationVar(&cfg.maxIdle, "max-idle-timeout", d.maxIdle, "largest idle timeout a client may ask for")
	fs.DurationVar(&cfg.firstRequest, "first-request-timeout", d.firstRequest, "end a stream that sends no request for this long after it opens")
	fs.DurationVar(&cfg.shutdownGrace, "shutdown-grace", d.shutdownGrace, "on SIGTERM or SIGINT, how long streams may take to end before they are cut")
	fs.StringVar(&cfg.startTraces, "start-traces", "", "offer the traces of this directory (NAME.res[.gz] with NAME.cmd[.gz]) as starts of games, by name (default: only traces clients send)")
	fs.StringVar(&cfg.localSocket, "local-socket", "", "offer the local channel on a Unix socket at this path: clients on this host receive batches in shared memory (Linux; docs/local.md)")
	fs.StringVar(&cfg.traceDir, "trace-dir", "", "allow sessions to write .res traces of their env 0 (trace_env0) under this directory (default: refused)")
	fs.Var(stringsFlag{&cfg.botsDirs}, "bots-dir", "offer the bots of this directory (repeatable): NAME.onnx as policy:NAME.onnx, AI*.cc and AI*.o as cpp:NAME")
	fs.StringVar(&cfg.uploadBytes, "max-upload-bytes", d.uploadBytes, "largest bot a client may upload (UploadBot); 0 refuses uploads")
	fs.StringVar(&cfg.uploadStore, "upload-store-bytes", d.uploadStore, "most bytes of uploaded bots kept for all clients together")
	fs.IntVar(&cfg.maxProcs, "max-bot-procs", d.maxProcs, "most C++ bot processes of all sessions together")
	fs.IntVar(&cfg.maxProcsPS, "max-bot-procs-per-session", d.maxProcsPS, "most C++ bot processes of one session (envs x cpp: seats)")
	fs.BoolVar(&cfg.cppUncounted, "allow-uncounted-cpp-uploads", false, "host uploaded C++ bots even where the machine gives their sandboxes no control groups, which count the memory and CPU of all their processes (docs/security.md)")
	fs.StringVar(&cfg.tokensFile, "tokens", "", "require a token on every request; FILE has lines NAME SECRET [LIMIT=VALUE ...] (docs/security.md)")
	fs.StringVar(&cfg.tlsCert, "tls-cert", "", "serve over TLS with this certificate (PEM; with --tls-key)")
	fs.StringVar(&cfg.tlsKey, "tls-key", "", "the private key of --tls-cert (PEM)")
	fs.StringVar(&cfg.tlsClientCA, "tls-client-ca", "", "mutual TLS: require client certificates signed by this CA (PEM)")
	hostileFlags(fs, &cfg)
	fs.BoolVar(&cfg.allowSearch, "allow-search", false, "seat the Search bot for clients (a rollout planner: 10 to 25 s of CPU a game; refused by default)")
	fs.BoolVar(&cfg.insecure, "insecure", false, "allow listening beyond loopback without a token or without TLS (trusted networks only)")
	fs.StringVar(&cfg.logFormat, "log-format", d.logFormat, "log format: json, console, or auto (console on a terminal, else json)")
	fs.StringVar(&cfg.logLevel, "log-level", d.logLevel, "log level: debug, info, warn, error")
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

// serveOptions turns the flags into the server's options: limits, tokens,
// TLS, bots directories and uploads, with the games of the table hosted
// and their prefix seats loaded by serveBots (no request names a host
// path).
func serveOptions(cfg serveConfig, stderr io.Writer) (*env.Registry, []server.Option, error) {
	budget, err := server.ParseBytes(cfg.memoryBudget)
	if err != nil || budget < 1 {
		return nil, nil, usageErr("bad --memory-budget %q: want a size such as 4GiB", cfg.memoryBudget)
	}
	uploadMax, err := server.ParseBytes(cfg.uploadBytes)
	if err != nil || uploadMax < 0 {
		return nil, nil, usageErr("bad --max-upload-bytes %q: want a size such as 16MiB, or 0", cfg.uploadBytes)
	}
	storeMax, err := server.ParseBytes(cfg.uploadStore)
	if err != nil || storeMax < 1 {
		return nil, nil, usageErr("bad --upload-store-bytes %q: want a size such as 1GiB", cfg.uploadStore)
	}
	cpp, err := cppOptions(os.Getenv, stderr)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	cpp.Processes = cppbot.NewProcessLimit(cfg.maxProcs)
	cpp.Sandbox = cfg.cppSandbox
	hostile, err := hostileOptions(cfg, &cpp)
	if err != nil {
		return nil, nil, err
	}
	// Uploaded C++ bots need a control group per sandbox, unless the
	// operator opts out; the operator's own (bots directories) do not.
	uploads := cpp
	uploads.RequireCounted = !cfg.cppUncounted
	var store *server.BotStore
	if uploadMax > 0 {
		store = server.NewBotStore(storeMax)
	}
	bots, err := newServeBots(cfg.botsDirs, store, cpp)
	if err != nil {
		return nil, nil, err
	}
	bots.uploadCpp = uploads
	reg, err := env.NewRegistry(bots.host(gameList())...)
	if err != nil {
		return nil, nil, err
	}
	opts := []server.Option{
		server.WithVersion(version),
		server.WithWorkers(cfg.workers),
		server.WithMaxEnvsPerSession(cfg.maxEnvsPerSession),
		server.WithMaxEnvs(cfg.maxEnvs),
		server.WithMaxSessions(cfg.maxSessions),
		server.WithMaxStreams(cfg.maxStreams),
		server.WithMaxConnections(cfg.maxConns, cfg.maxPerPeer),
		server.WithMemoryBudget(budget),
		server.WithClientLimits(cfg.client),
		server.WithIdleTimeout(cfg.idleTimeout),
		server.WithMaxIdleTimeout(cfg.maxIdle),
		server.WithFirstRequestTimeout(cfg.firstRequest),
		server.WithShutdownGrace(cfg.shutdownGrace),
		server.WithTraceDir(cfg.traceDir),
		server.WithStartTraces(cfg.startTraces),
		server.WithLocalSocket(cfg.localSocket),
		server.WithOfferedBots(bots.offered),
		server.WithBotProcesses([]string{"cpp"}, cfg.maxProcs, cfg.maxProcsPS),
		server.WithGauge("jgym_bot_processes", "C++ bot processes running.", func() float64 { return float64(cppbot.Running()) }),
	}
	opts = append(opts, hostile...)
	if cfg.allowSearch {
		opts = append(opts, server.WithRefusedBots())
	}
	if store != nil {
		opts = append(opts, server.WithUploads(store, bots.check, uploadMax))
	}
	if cfg.tokensFile != "" {
		toks, err := readTokens(cfg.tokensFile, cfg.client)
		if err != nil {
			return nil, nil, usageErr("--tokens: %v", err)
		}
		opts = append(opts, server.WithTokens(toks))
	}
	tlsCfg, err := serverTLS(cfg)
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if tlsCfg != nil {
		opts = append(opts, server.WithTLS(tlsCfg))
	}
	if !isLoopback(cfg.addr) && !cfg.insecure && (cfg.tokensFile == "" || tlsCfg == nil) {
		return nil, nil, usageErr("listening on %s, beyond loopback, needs --tokens FILE and --tls-cert/--tls-key (or --insecure on a trusted network): see docs/security.md", cfg.addr)
	}
	if err := checkMetricsAddr(cfg, tlsCfg != nil); err != nil {
		return nil, nil, err
	}
	return reg, opts, nil
}

// readTokens reads a tokens file, which users other than its owner and
// group (Kubernetes mounts secrets group-readable) may not read or write.
func readTokens(path string, def server.ClientLimits) ([]server.Token, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().Perm()&0o027 != 0 {
		return nil, fmt.Errorf("%s may be read or written by other users (mode %v): chmod 600 it", path, fi.Mode().Perm())
	}
	return server.ParseTokens(io.LimitReader(f, 1<<20), def)
}

// serverTLS builds the TLS configuration of the flags (nil without TLS).
func serverTLS(cfg serveConfig) (*tls.Config, error) {
	if cfg.tlsCert == "" && cfg.tlsKey == "" {
		if cfg.tlsClientCA != "" {
			return nil, errors.New("--tls-client-ca needs --tls-cert and --tls-key")
		}
		return nil, nil
	}
	if cfg.tlsCert == "" || cfg.tlsKey == "" {
		return nil, errors.New("--tls-cert and --tls-key go together")
	}
	cert, err := tls.LoadX509KeyPair(cfg.tlsCert, cfg.tlsKey)
	if err != nil {
		return nil, fmt.Errorf("TLS certificate: %w", err)
	}
	c := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if cfg.tlsClientCA != "" {
		pem, err := os.ReadFile(cfg.tlsClientCA)
		if err != nil {
			return nil, fmt.Errorf("--tls-client-ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-client-ca %s: no PEM certificate", cfg.tlsClientCA)
		}
		c.ClientCAs, c.ClientAuth = pool, tls.RequireAndVerifyClientCert
	}
	return c, nil
}

// logCppContainment says at start how C++ bots are contained where their
// sandboxes get no control groups: what runs, what is refused, and why.
func logCppContainment(log *zerolog.Logger, cfg serveConfig) {
	sb, err := cfg.cppSandbox, error(nil)
	if sb == nil {
		sb, err = sandbox.Default()
	}
	if err != nil {
		log.Warn().Str("why", err.Error()).Msg("C++ bots are refused: they cannot be contained here")
		return
	}
	why := sb.Counted()
	switch {
	case why == nil:
	case cfg.cppUncounted:
		log.Warn().Str("why", why.Error()).Msg("--allow-uncounted-cpp-uploads: C++ bots, uploaded ones too, run without control groups: per-process limits only")
	default:
		log.Warn().Str("why", why.Error()).Msg("uploaded C++ bots are refused: their sandboxes get no control groups (--allow-uncounted-cpp-uploads hosts them anyway); the bots directories' run with per-process limits only")
	}
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
	reg, opts, err := serveOptions(cfg, os.Stderr)
	if err != nil {
		return err
	}
	srv, err := server.New(reg, opts...)
	if err != nil {
		return usageErr("%v", err)
	}
	lis, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	if !isLoopback(cfg.addr) && (cfg.tokensFile == "" || cfg.tlsCert == "") {
		log.Warn().Str("addr", cfg.addr).Msg("--insecure: listening beyond loopback without a token or without TLS; expose it only on trusted networks")
	}
	logCppContainment(log, cfg)
	var wg sync.WaitGroup
	var metricsAddr net.Addr
	var hs *http.Server
	if cfg.metricsAddr != "" {
		tlsCfg, _ := serverTLS(cfg) // loaded once already by serveOptions
		var ml net.Listener
		hs, ml, err = metricsServer(cfg.metricsAddr, metricsSecured(cfg, tlsCfg), srv, tlsCfg)
		if err != nil {
			lis.Close()
			return fmt.Errorf("metrics listen: %w", err)
		}
		metricsAddr = ml.Addr()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := hs.Serve(ml); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error().Err(err).Msg("metrics server failed")
			}
		}()
		if metricsSecured(cfg, tlsCfg) {
			log.Info().Str("addr", metricsAddr.String()).Msg("metrics at https://ADDR/metrics, for a token of --tokens; /healthz open")
		} else {
			if !isLoopback(cfg.metricsAddr) {
				log.Warn().Str("addr", cfg.metricsAddr).Msg("--insecure: metrics beyond loopback in plain HTTP to anyone; expose them only on trusted networks")
			}
			log.Info().Str("addr", metricsAddr.String()).Msg("metrics at /metrics")
		}
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
