package server

import (
	"crypto/tls"
	"runtime"
	"slices"
	"time"
)

// Option configures a Server.
type Option func(*options)

type options struct {
	maxEnvsPerSession int
	maxEnvs           int
	maxSessions       int
	maxStreams        int
	maxConns          int
	maxConnsPerPeer   int
	workers           int
	idleTimeout       time.Duration
	maxIdleTimeout    time.Duration
	firstRequest      time.Duration
	shutdownGrace     time.Duration
	reapInterval      time.Duration
	window            int32
	traceDir          string
	startTraces       string
	memoryBudget      int64
	clientLimits      ClientLimits
	tokens            []Token
	tls               *tls.Config
	store             *BotStore
	botCheck          BotCheck
	maxUploadBytes    int64
	offered           func(game string) []string
	processPrefixes   []string
	maxProcs          int
	maxProcsPerSess   int
	gauges            []gauge
	version           string
	unauthBytes       int64
	unauthStreams     int
	unreadTimeout     time.Duration
	localSocket       string
	refusedBots       []string
}

// gauge is a metric read at scrape time.
type gauge struct {
	name, help string
	read       func() float64
}

func defaultOptions() options {
	return options{
		maxEnvsPerSession: 1024,
		maxEnvs:           4096,
		maxSessions:       256,
		maxStreams:        1024,
		maxConns:          1024,
		maxConnsPerPeer:   64,
		workers:           runtime.GOMAXPROCS(0),
		idleTimeout:       5 * time.Minute,
		maxIdleTimeout:    time.Hour,
		firstRequest:      30 * time.Second,
		shutdownGrace:     10 * time.Second,
		reapInterval:      time.Second,
		window:            8 << 20,
		memoryBudget:      4 << 30,
		clientLimits:      DefaultClientLimits(),
		maxUploadBytes:    16 << 20,
		maxProcs:          256,
		maxProcsPerSess:   64,
		version:           "dev",
		unauthBytes:       64 << 10,
		unauthStreams:     64,
		unreadTimeout:     2 * time.Minute,
		refusedBots:       slices.Clone(DefaultRefusedBots),
	}
}

// DefaultRefusedBots are the built-in bots a server does not seat unless
// its operator allows them (WithRefusedBots): Search, the rollout planner
// every game registers (game.SearchBotName; this package cannot import
// game, a test of cmd/jgym checks that the names agree), costs 10 to 25
// seconds of CPU a game where the other bots cost milliseconds, so three
// of them in a few hundred envs would take a shared server's cores.
var DefaultRefusedBots = []string{"Search"}

// WithRefusedBots sets the built-in bots the server refuses to seat and
// leaves out of ListBots (default DefaultRefusedBots; none: every
// registered bot). jgym serve --allow-search gives none.
func WithRefusedBots(names ...string) Option {
	return func(o *options) { o.refusedBots = slices.Clone(names) }
}

// WithVersion sets the release GetVersion reports (default "dev"); jgym
// serve gives its own.
func WithVersion(v string) Option { return func(o *options) { o.version = v } }

// WithMaxEnvsPerSession limits num_envs of one session (default 1024). The
// server's message size limits are computed from it.
func WithMaxEnvsPerSession(n int) Option { return func(o *options) { o.maxEnvsPerSession = n } }

// WithMaxEnvs limits the game instances of all sessions together (default
// 4096).
func WithMaxEnvs(n int) Option { return func(o *options) { o.maxEnvs = n } }

// WithMaxSessions limits the number of open sessions (default 256).
func WithMaxSessions(n int) Option { return func(o *options) { o.maxSessions = n } }

// WithMaxStreams limits the open streams of all clients together (default
// 1024).
func WithMaxStreams(n int) Option { return func(o *options) { o.maxStreams = n } }

// WithMaxConnections limits the open connections (default 1024) and those
// of one IP address (default 64); connections past them are closed at once.
func WithMaxConnections(total, perPeer int) Option {
	return func(o *options) { o.maxConns, o.maxConnsPerPeer = total, perPeer }
}

// WithWorkers sets the worker goroutines of each session's pool (default
// GOMAXPROCS).
func WithWorkers(n int) Option { return func(o *options) { o.workers = n } }

// WithIdleTimeout sets how long a session may go without a request before
// it is closed, when the client does not say (default 5 minutes).
func WithIdleTimeout(d time.Duration) Option { return func(o *options) { o.idleTimeout = d } }

// WithMaxIdleTimeout bounds the idle timeout a client may ask for
// (default 1 hour).
func WithMaxIdleTimeout(d time.Duration) Option { return func(o *options) { o.maxIdleTimeout = d } }

// WithFirstRequestTimeout sets how long a new stream may wait before its
// first request (default 30 seconds); a stream that sends nothing is then
// ended. A stream attached to a session ends when the session closes.
func WithFirstRequestTimeout(d time.Duration) Option { return func(o *options) { o.firstRequest = d } }

// WithShutdownGrace sets how long Serve waits for streams to end after its
// context is cancelled before it cuts them (default 10 seconds).
func WithShutdownGrace(d time.Duration) Option { return func(o *options) { o.shutdownGrace = d } }

// WithTraceDir allows sessions to record the games of their env 0
// (CreateSessionRequest.trace_env0) in directories under dir. Without it
// trace_env0 is refused.
func WithTraceDir(dir string) Option { return func(o *options) { o.traceDir = dir } }

// WithStartTraces offers the traces of dir (NAME.res or NAME.res.gz with
// NAME.cmd or NAME.cmd.gz) as starts of games (ResetRequest.trace_start
// by name). Without it only traces the client sends are accepted.
func WithStartTraces(dir string) Option { return func(o *options) { o.startTraces = dir } }

// WithReapInterval sets how often idle sessions are looked for (default 1
// second; tests shorten it).
func WithReapInterval(d time.Duration) Option { return func(o *options) { o.reapInterval = d } }

// WithMemoryBudget bounds the memory the sessions may take together, by
// an estimate made from each session's spaces and envs (default 4 GiB).
func WithMemoryBudget(bytes int64) Option { return func(o *options) { o.memoryBudget = bytes } }

// WithClientLimits sets the limits of clients without a token of their
// own (default DefaultClientLimits).
func WithClientLimits(l ClientLimits) Option { return func(o *options) { o.clientLimits = l } }

// WithTokens makes every request carry one of the tokens (metadata
// "authorization: Bearer SECRET"); the client is then the token's name,
// with the token's limits. The gRPC health service stays open to all.
func WithTokens(toks []Token) Option { return func(o *options) { o.tokens = toks } }

// WithTLS serves over TLS with cfg (mutual TLS when cfg verifies client
// certificates).
func WithTLS(cfg *tls.Config) Option { return func(o *options) { o.tls = cfg } }

// WithUploads accepts uploaded bots (UploadBot) into store, each checked by
// check and of at most maxBytes (default 16 MiB when 0). The resolver of
// the games' bots reads them from the same store.
func WithUploads(store *BotStore, check BotCheck, maxBytes int64) Option {
	return func(o *options) {
		o.store, o.botCheck = store, check
		if maxBytes > 0 {
			o.maxUploadBytes = maxBytes
		}
	}
}

// WithOfferedBots lists, for ListBots, the "prefix:NAME" bots the operator
// offers for a game (files of a bots directory).
func WithOfferedBots(f func(game string) []string) Option { return func(o *options) { o.offered = f } }

// WithBotProcesses names the seat prefixes whose bots run a process each
// ("cpp"), and caps those processes: in all sessions together (default
// 256) and in one session (default 64). A session that would pass a cap
// is refused.
func WithBotProcesses(prefixes []string, total, perSession int) Option {
	return func(o *options) {
		o.processPrefixes = append([]string(nil), prefixes...)
		o.maxProcs, o.maxProcsPerSess = total, perSession
	}
}

// WithGauge adds a gauge to the metrics, read at every scrape (for
// example the C++ bot processes running).
func WithGauge(name, help string, read func() float64) Option {
	return func(o *options) { o.gauges = append(o.gauges, gauge{name, help, read}) }
}

// WithUnauthenticated bounds what a stranger costs where tokens are
// required (WithTokens): a connection on which no call has carried a
// valid token reads at most bytes in all (default 64 KiB) and is then
// closed; calls without a token (only the health service takes them) are
// at most calls in progress on the server (default 64) and 4 on a
// connection. Calls to other methods without a valid token are refused
// from their headers, before their body is read.
func WithUnauthenticated(bytes int64, calls int) Option {
	return func(o *options) { o.unauthBytes, o.unauthStreams = bytes, calls }
}

// WithUnreadTimeout sets how long a connection may keep the answers of
// ended streams unread (default 2 minutes): a stream ends with its
// session, but the transport sends its last answers and its status only
// as fast as the client reads them, and drops them only with the
// connection, which the server then closes.
func WithUnreadTimeout(d time.Duration) Option { return func(o *options) { o.unreadTimeout = d } }

// WithLocalSocket offers the local channel on a Unix socket at path (jgym
// serve --local-socket): clients on this host attach their sessions there
// and receive batches in shared memory (local.go, docs/local.md). The
// path is the operator's; a request never names one. Linux only.
func WithLocalSocket(path string) Option { return func(o *options) { o.localSocket = path } }
