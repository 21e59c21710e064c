package server

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// ClientLimits bound what one client may hold at once. A client is a
// token (WithTokens), else the common name of a verified client
// certificate (mutual TLS), else the peer's IP address.
type ClientLimits struct {
	// Sessions is the most open sessions.
	Sessions int
	// Envs is the most game instances over its sessions.
	Envs int
	// Streams is the most open streams.
	Streams int
	// Uploads is the most uploaded bots kept; the oldest are dropped to
	// make room.
	Uploads int
	// UploadBytes is the most bytes of uploaded bots kept.
	UploadBytes int64
	// TraceBytes is the most bytes of traces (trace_env0) it may write
	// while the server runs.
	TraceBytes int64
	// Compiles is the most uploads checked at once (a C++ upload is
	// compiled); past it an upload is refused (ResourceExhausted).
	Compiles int
}

// DefaultClientLimits are the limits of a client without a token of its
// own: 16 sessions, 1024 envs, 32 streams, 64 uploads of 256 MiB in all
// (their builds included), 1 GiB of traces, 2 uploads checked at once.
func DefaultClientLimits() ClientLimits {
	return ClientLimits{Sessions: 16, Envs: 1024, Streams: 32, Uploads: 64, UploadBytes: 256 << 20, TraceBytes: 1 << 30, Compiles: 2}
}

// Token authenticates a client: requests carry the metadata
// "authorization: Bearer SECRET"; the client is then Name, with Limits.
type Token struct {
	Name   string
	Secret string
	Limits ClientLimits
}

var tokenNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// minSecretLen is the shortest token secret accepted.
const minSecretLen = 16

// ParseTokens reads a tokens file: one token per line, "NAME SECRET
// [LIMIT=VALUE ...]", blank lines and lines starting with # ignored.
// Limits not given take def. LIMIT is one of sessions, envs, streams,
// uploads, upload_bytes, trace_bytes, compiles; byte sizes take the suffixes K, M,
// G (powers of 1024). Error messages never quote a secret.
func ParseTokens(r io.Reader, def ClientLimits) ([]Token, error) {
	var toks []Token
	names, secrets := map[string]bool{}, map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 4096)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, fmt.Errorf("tokens line %d: want NAME SECRET [LIMIT=VALUE ...]", n)
		}
		t := Token{Name: f[0], Secret: f[1], Limits: def}
		switch {
		case !tokenNameRE.MatchString(t.Name):
			return nil, fmt.Errorf("tokens line %d: name %s: want 1 to 64 letters, digits, '.', '_' or '-'", n, short(t.Name))
		case len(t.Secret) < minSecretLen:
			return nil, fmt.Errorf("tokens line %d (%s): the secret is shorter than %d characters", n, t.Name, minSecretLen)
		case names[t.Name]:
			return nil, fmt.Errorf("tokens line %d: name %s given twice", n, t.Name)
		case secrets[t.Secret]:
			return nil, fmt.Errorf("tokens line %d (%s): the secret of an earlier token", n, t.Name)
		}
		names[t.Name], secrets[t.Secret] = true, true
		for _, kv := range f[2:] {
			if err := setLimit(&t.Limits, kv); err != nil {
				return nil, fmt.Errorf("tokens line %d (%s): %w", n, t.Name, err)
			}
		}
		toks = append(toks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	if len(toks) == 0 {
		return nil, errors.New("tokens: the file has no token")
	}
	return toks, nil
}

// setLimit sets one LIMIT=VALUE of a tokens line.
func setLimit(l *ClientLimits, kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("%s: want LIMIT=VALUE", short(kv))
	}
	var dst any
	switch k {
	case "sessions":
		dst = &l.Sessions
	case "envs":
		dst = &l.Envs
	case "streams":
		dst = &l.Streams
	case "uploads":
		dst = &l.Uploads
	case "upload_bytes":
		dst = &l.UploadBytes
	case "trace_bytes":
		dst = &l.TraceBytes
	case "compiles":
		dst = &l.Compiles
	default:
		return fmt.Errorf("unknown limit %s (want sessions, envs, streams, uploads, upload_bytes, trace_bytes or compiles)", short(k))
	}
	n, err := ParseBytes(v)
	if err != nil || n < 0 {
		return fmt.Errorf("%s=%s: want a number at least 0", k, short(v))
	}
	switch d := dst.(type) {
	case *int:
		if n > 1<<31-1 {
			return fmt.Errorf("%s=%s: too large", k, short(v))
		}
		*d = int(n)
	case *int64:
		*d = n
	}
	return nil
}

// ParseBytes parses a size: a number with an optional suffix K, M or G
// (also KiB, MiB, GiB; powers of 1024).
func ParseBytes(s string) (int64, error) {
	mult := int64(1)
	for _, suf := range []struct {
		s []string
		m int64
	}{{[]string{"KiB", "K"}, 1 << 10}, {[]string{"MiB", "M"}, 1 << 20}, {[]string{"GiB", "G"}, 1 << 30}} {
		for _, x := range suf.s {
			if t, ok := strings.CutSuffix(s, x); ok {
				s, mult = t, suf.m
				break
			}
		}
		if mult != 1 {
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, err
	}
	if n > (1<<62)/mult {
		return 0, errors.New("too large")
	}
	return n * mult, nil
}

// client is what the server holds for one client. The counters are
// guarded by Server.mu, except traceBytes.
type client struct {
	id     string
	limits ClientLimits

	sessions, envs, streams int
	checks                  int // uploads being checked (takeCheck)
	traceBytes              atomic.Int64
}

// idle reports whether the client holds nothing, so that its entry may be
// dropped. Call with Server.mu held.
func (c *client) idle() bool {
	return c.sessions == 0 && c.streams == 0 && c.checks == 0 && c.traceBytes.Load() == 0
}

type clientKey struct{}

// clientOf returns the client of a request's context (set by the
// interceptors).
func clientOf(ctx context.Context) *client {
	c, _ := ctx.Value(clientKey{}).(*client)
	return c
}

// identity is who a call comes from: a client's id and its limits.
type identity struct {
	id  string
	lim ClientLimits
}

// authenticate identifies the client of a request, or refuses it.
func (s *Server) authenticate(ctx context.Context) (*client, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	p, _ := peer.FromContext(ctx)
	who, err := s.identify(md, p)
	if err != nil {
		return nil, err
	}
	return s.clientFor(who.id, who.lim), nil
}

// caller returns the client of a call: the one the tap identified, else
// (a call that did not pass the tap) the one authenticate finds.
func (s *Server) caller(ctx context.Context) (*client, error) {
	if t := tapOf(ctx); t != nil && t.authed {
		return s.clientFor(t.who.id, t.who.lim), nil
	}
	return s.authenticate(ctx)
}

// identify finds who a call comes from, from its headers and its peer: a
// token where the server requires one (else an Unauthenticated status),
// else a verified client certificate's common name, else the peer's IP.
func (s *Server) identify(md metadata.MD, p *peer.Peer) (identity, error) {
	if len(s.tokens) > 0 {
		vals := md.Get("authorization")
		if len(vals) != 1 {
			return identity{}, status.Error(codes.Unauthenticated, "this server needs a token: send the metadata \"authorization: Bearer TOKEN\" (Python: token=...)")
		}
		secret, ok := strings.CutPrefix(vals[0], "Bearer ")
		if !ok {
			return identity{}, status.Error(codes.Unauthenticated, "the authorization metadata must be \"Bearer TOKEN\"")
		}
		t, ok := s.tokens[sha256.Sum256([]byte(secret))]
		if !ok {
			return identity{}, status.Error(codes.Unauthenticated, "unknown token")
		}
		return identity{"token:" + t.Name, t.Limits}, nil
	}
	id := "peer:unknown"
	if p != nil {
		if ti, ok := authInfo(p).(credentials.TLSInfo); ok && len(ti.State.VerifiedChains) > 0 && len(ti.State.VerifiedChains[0]) > 0 {
			id = "cert:" + ti.State.VerifiedChains[0][0].Subject.CommonName
		} else if host, _, err := net.SplitHostPort(p.Addr.String()); err == nil {
			id = "peer:" + host
		} else {
			id = "peer:" + p.Addr.String()
		}
	}
	return identity{id, s.opts.clientLimits}, nil
}

// clientFor returns the client entry of id, made if needed.
func (s *Server) clientFor(id string, lim ClientLimits) *client {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	if !ok {
		c = &client{id: id, limits: lim}
		s.clients[id] = c
	}
	return c
}

// forgetIdleClients drops the entries of clients that hold nothing.
// Call with s.mu held.
func (s *Server) forgetIdleClients() {
	for id, c := range s.clients {
		if c.idle() && !s.store.holds(id) {
			delete(s.clients, id)
		}
	}
}
