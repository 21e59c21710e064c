package server

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
)

// Request kinds of the Stream, for metrics and logs.
const (
	kindReset = iota
	kindStep
	kindRecv
	numKinds
)

var kindNames = [numKinds]string{"reset", "step", "recv"}

// latencyBuckets are the upper bounds (seconds) of the request latency
// histogram.
var latencyBuckets = []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5}

type histogram struct {
	counts []atomic.Uint64 // per bucket, then +Inf
	sumNs  atomic.Int64
}

func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	k := len(latencyBuckets)
	for i, ub := range latencyBuckets {
		if s <= ub {
			k = i
			break
		}
	}
	h.counts[k].Add(1)
	h.sumNs.Add(int64(d))
}

// metrics are the server's counters, written in the Prometheus text format
// by hand. All fields are safe for concurrent use.
type metrics struct {
	envSteps        atomic.Uint64 // one env playing one round
	envResets       atomic.Uint64
	requests        [numKinds]atomic.Uint64
	latency         [numKinds]histogram
	sessionsCreated atomic.Uint64
	uploads         atomic.Uint64
	refusedConns    atomic.Uint64
	connsClosed     [numConnReasons]atomic.Uint64
	compiles        atomic.Int64      // uploads being checked (compiled) now
	sessionsClosed  sync.Map          // reason -> *atomic.Uint64
	errs            [17]atomic.Uint64 // by gRPC code

	rateMu  sync.Mutex
	samples [11]rateSample // ring of (time, envSteps) taken every second
	next    int
}

type rateSample struct {
	at    time.Time
	steps uint64
}

func newMetrics() *metrics {
	m := &metrics{}
	for k := range m.latency {
		m.latency[k].counts = make([]atomic.Uint64, len(latencyBuckets)+1)
	}
	return m
}

func (m *metrics) closed(reason string) {
	v, _ := m.sessionsClosed.LoadOrStore(reason, new(atomic.Uint64))
	v.(*atomic.Uint64).Add(1)
}

// Reasons the server closes a connection it had accepted.
const (
	connUnauthenticated = iota // read too much without a valid token
	connUnread                 // left answers unread (WithUnreadTimeout)
	numConnReasons
)

var connReasonNames = [numConnReasons]string{"unauthenticated", "unread"}

func (m *metrics) connClosed(reason int) { m.connsClosed[reason].Add(1) }

func (m *metrics) failed(c codes.Code) {
	if int(c) < len(m.errs) {
		m.errs[c].Add(1)
	}
}

// sample records the step counter for the steps-per-second gauge.
func (m *metrics) sample(now time.Time) {
	m.rateMu.Lock()
	m.samples[m.next%len(m.samples)] = rateSample{now, m.envSteps.Load()}
	m.next++
	m.rateMu.Unlock()
}

// rate returns env steps per second over the last ten seconds.
func (m *metrics) rate() float64 {
	m.rateMu.Lock()
	defer m.rateMu.Unlock()
	if m.next < 2 {
		return 0
	}
	last := m.samples[(m.next-1)%len(m.samples)]
	firstIdx := 0
	if m.next > len(m.samples) {
		firstIdx = m.next - len(m.samples)
	}
	first := m.samples[firstIdx%len(m.samples)]
	dt := last.at.Sub(first.at).Seconds()
	if dt <= 0 {
		return 0
	}
	return float64(last.steps-first.steps) / dt
}

// gauges are the values the server reads at scrape time.
type gauges struct {
	sessions, envs, streams, allStreams, clients, procs int
	unauth                                              int
	memory                                              int64
	extra                                               []gauge
}

// write writes every metric in the Prometheus text exposition format.
func (m *metrics) write(w io.Writer, g gauges) {
	p := func(name, typ, help string) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	p("jgym_env_steps_total", "counter", "Rounds played, summed over envs.")
	fmt.Fprintf(w, "jgym_env_steps_total %d\n", m.envSteps.Load())
	p("jgym_env_resets_total", "counter", "Games started by explicit resets.")
	fmt.Fprintf(w, "jgym_env_resets_total %d\n", m.envResets.Load())
	p("jgym_env_steps_per_second", "gauge", "Env steps per second over the last ten seconds.")
	fmt.Fprintf(w, "jgym_env_steps_per_second %s\n", strconv.FormatFloat(m.rate(), 'f', 1, 64))
	p("jgym_sessions", "gauge", "Open sessions.")
	fmt.Fprintf(w, "jgym_sessions %d\n", g.sessions)
	p("jgym_envs", "gauge", "Game instances of the open sessions.")
	fmt.Fprintf(w, "jgym_envs %d\n", g.envs)
	p("jgym_streams", "gauge", "Streams attached to sessions.")
	fmt.Fprintf(w, "jgym_streams %d\n", g.streams)
	p("jgym_streams_open", "gauge", "Streams open, attached to a session or not.")
	fmt.Fprintf(w, "jgym_streams_open %d\n", g.allStreams)
	p("jgym_clients", "gauge", "Clients (tokens, certificates or peer addresses) holding sessions, streams, uploads or traces.")
	fmt.Fprintf(w, "jgym_clients %d\n", g.clients)
	p("jgym_session_memory_bytes", "gauge", "Estimated memory of the open sessions, counted against the memory budget.")
	fmt.Fprintf(w, "jgym_session_memory_bytes %d\n", g.memory)
	p("jgym_bot_process_seats", "gauge", "Bot processes the open sessions may run (seats of process bots times envs).")
	fmt.Fprintf(w, "jgym_bot_process_seats %d\n", g.procs)
	p("jgym_uploads_total", "counter", "Bots uploaded and accepted.")
	fmt.Fprintf(w, "jgym_uploads_total %d\n", m.uploads.Load())
	p("jgym_connections_refused_total", "counter", "Connections closed at once for passing a connection limit.")
	fmt.Fprintf(w, "jgym_connections_refused_total %d\n", m.refusedConns.Load())
	p("jgym_connections_closed_total", "counter", "Connections the server closed, by reason: unauthenticated (read too much without a valid token), unread (left the answers of ended streams unread).")
	for r, name := range connReasonNames {
		fmt.Fprintf(w, "jgym_connections_closed_total{reason=%q} %d\n", name, m.connsClosed[r].Load())
	}
	p("jgym_unauthenticated_calls", "gauge", "Calls without a valid token in progress (health checks).")
	fmt.Fprintf(w, "jgym_unauthenticated_calls %d\n", g.unauth)
	p("jgym_compiles", "gauge", "Uploaded bots being checked (C++: compiled) now.")
	fmt.Fprintf(w, "jgym_compiles %d\n", m.compiles.Load())
	for _, x := range g.extra {
		p(x.name, "gauge", x.help)
		fmt.Fprintf(w, "%s %s\n", x.name, strconv.FormatFloat(x.read(), 'g', -1, 64))
	}
	p("jgym_sessions_created_total", "counter", "Sessions created.")
	fmt.Fprintf(w, "jgym_sessions_created_total %d\n", m.sessionsCreated.Load())
	p("jgym_sessions_closed_total", "counter", "Sessions closed, by reason.")
	m.sessionsClosed.Range(func(k, v any) bool {
		fmt.Fprintf(w, "jgym_sessions_closed_total{reason=%q} %d\n", k, v.(*atomic.Uint64).Load())
		return true
	})
	p("jgym_requests_total", "counter", "Stream requests, by kind.")
	for k := range m.requests {
		fmt.Fprintf(w, "jgym_requests_total{kind=%q} %d\n", kindNames[k], m.requests[k].Load())
	}
	p("jgym_errors_total", "counter", "Requests answered with an error status, by code.")
	for c := range m.errs {
		if n := m.errs[c].Load(); n > 0 {
			fmt.Fprintf(w, "jgym_errors_total{code=%q} %d\n", codes.Code(c).String(), n)
		}
	}
	p("jgym_request_duration_seconds", "histogram", "Stream request latency, from receipt to the answer sent, by kind.")
	for k := range m.latency {
		h := &m.latency[k]
		var cum uint64
		for i, ub := range latencyBuckets {
			cum += h.counts[i].Load()
			fmt.Fprintf(w, "jgym_request_duration_seconds_bucket{kind=%q,le=%q} %d\n", kindNames[k], strconv.FormatFloat(ub, 'g', -1, 64), cum)
		}
		cum += h.counts[len(latencyBuckets)].Load()
		fmt.Fprintf(w, "jgym_request_duration_seconds_bucket{kind=%q,le=\"+Inf\"} %d\n", kindNames[k], cum)
		fmt.Fprintf(w, "jgym_request_duration_seconds_sum{kind=%q} %s\n", kindNames[k], strconv.FormatFloat(float64(h.sumNs.Load())/1e9, 'f', 6, 64))
		fmt.Fprintf(w, "jgym_request_duration_seconds_count{kind=%q} %d\n", kindNames[k], cum)
	}
}

// MetricsHandler serves the metrics in the Prometheus text format.
func (s *Server) MetricsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		s.metrics.write(w, s.gauges())
		writeRuntimeMetrics(w)
	})
}

// HealthHandler answers 200 "serving" while the server serves and 503
// once it shuts down: a probe for orchestrators that cannot speak gRPC
// over TLS (Kubernetes' gRPC probes carry no TLS).
func (s *Server) HealthHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		draining := s.draining
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if draining {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "shutting down\n")
			return
		}
		io.WriteString(w, "serving\n")
	})
}

// TokenHandler passes to h only the requests that carry one of the
// server's tokens (WithTokens) as "Authorization: Bearer SECRET", and
// answers the others 401; without tokens it is h. jgym serve puts the
// metrics beyond loopback behind it.
func (s *Server) TokenHandler(h http.Handler) http.Handler {
	if len(s.tokens) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if _, known := s.tokens[sha256.Sum256([]byte(secret))]; !ok || !known {
			s.metrics.failed(codes.Unauthenticated)
			w.Header().Set("WWW-Authenticate", `Bearer realm="jgym"`)
			http.Error(w, "this endpoint needs a token of the server: send \"Authorization: Bearer TOKEN\"", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}
