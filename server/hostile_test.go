package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/server"
)

// The tests of this file are hostile clients that hold the server's
// resources rather than send it bad requests: a stranger stalling in the
// middle of a large request, a client that never reads its answers.

// serveCounting runs a server of reg on 127.0.0.1 behind a
// countingListener; it stops at the end of the test.
func serveCounting(t *testing.T, reg *env.Registry, opts ...server.Option) (*server.Server, *countingListener) {
	t.Helper()
	srv, err := server.New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lis := &countingListener{Listener: tl}
	ctx, cancel := context.WithCancel(context.Background())
	var logw io.Writer = io.Discard
	if testing.Verbose() {
		logw = zerolog.ConsoleWriter{Out: testWriter{t}, NoColor: true}
	}
	ctx = zerolog.New(logw).WithContext(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve = %v", err)
		}
	})
	return srv, lis
}

// dialGRPC connects a gRPC client to addr, sending token if not empty.
func dialGRPC(t *testing.T, addr, token string) *grpc.ClientConn {
	t.Helper()
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64 << 20))}
	if token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearer(token)))
	}
	conn, err := grpc.NewClient(addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// A stranger's request costs its headers: UploadBot without a valid token
// is refused before its body is read (gRPC would read the 15 MiB of a
// unary request before any interceptor), and a connection that keeps
// sending without a token is closed after 64 KiB.
func TestStrangerIsRefusedFromHeaders(t *testing.T) {
	checkLeaks(t)
	const allowance = 64 << 10
	store := server.NewBotStore(64 << 20)
	srv, lis := serveCounting(t, registry(t), server.WithTokens(tokens), server.WithUploads(store, acceptAll, 16<<20),
		server.WithUnauthenticated(allowance, 8))
	addr := lis.Addr().String()
	upload := "/jgym.v1.JgymService/UploadBot"
	for _, c := range []struct {
		name string
		md   map[string]string
	}{
		{"no token", nil},
		{"an unknown token", map[string]string{"authorization": "Bearer not-a-token-of-this-server"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := lis.read.Load()
			rc := dialRaw(t, addr, 1<<20)
			if err := rc.call(1, upload, c.md); err != nil {
				t.Fatal(err)
			}
			st, err := rc.waitStatus(1, 5*time.Second)
			if err != nil || st != "16" { // UNAUTHENTICATED
				t.Fatalf("UploadBot without a valid token, headers only: status %q, %v; want 16 (Unauthenticated) at once", st, err)
			}
			if read := lis.read.Load() - before; read > 2<<10 {
				t.Errorf("the server read %d bytes before refusing, want the preface, settings and headers (< 2 KiB)", read)
			} else {
				t.Logf("refused after reading %d bytes", read)
			}
			// The stranger sends the 15 MiB body anyway, on a new stream.
			rc.call(3, upload, c.md)
			body := append(grpcPrefix(15<<20), make([]byte, 1<<20)...)
			rc.data(3, body) // fails once the server closes the connection
			if !rc.waitClosed(5 * time.Second) {
				t.Fatal("the server kept reading a connection without a valid token")
			}
			if read := lis.read.Load() - before; read > allowance+1<<10 {
				t.Errorf("the server read %d bytes of a connection without a valid token, want at most %d", read, allowance)
			} else {
				t.Logf("connection closed after %d bytes read", read)
			}
		})
	}
	if n := gauge(t, srv, `jgym_connections_closed_total{reason="unauthenticated"}`); n != 2 {
		t.Errorf("jgym_connections_closed_total{reason=unauthenticated} = %d, want 2", n)
	}

	// Health checks need no token, a few at a time.
	hc := healthpb.NewHealthClient(dialGRPC(t, addr, ""))
	if r, err := hc.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil || r.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health without a token: %v %v", r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var watches []healthpb.Health_WatchClient
	for range 4 {
		w, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Recv(); err != nil {
			t.Fatalf("Watch without a token: %v", err)
		}
		watches = append(watches, w)
	}
	w, err := hc.Watch(ctx, &healthpb.HealthCheckRequest{})
	if err == nil {
		_, err = w.Recv()
	}
	wantCode(t, "a fifth health watch without a token on one connection", err, codes.ResourceExhausted)
	if n := gauge(t, srv, "jgym_unauthenticated_calls"); n != 4 {
		t.Errorf("jgym_unauthenticated_calls = %d, want 4", n)
	}
	cancel()
	eventually(t, "the watches to end", func() bool { return gauge(t, srv, "jgym_unauthenticated_calls") == 0 })

	// A client with a token is served as before.
	c := jgymv1.NewJgymServiceClient(dialGRPC(t, addr, victimToken))
	if _, err := c.ListGames(context.Background(), &jgymv1.ListGamesRequest{}); err != nil {
		t.Fatalf("a client with a token: %v", err)
	}
}

// A client that never gives the server a flow-control window (and so
// never reads) keeps no goroutine once its session is reaped, and its
// connection, which holds the answers the transport could not send, is
// closed within the unread timeout. With one request the server has
// queued one answer; with three, its handler is blocked sending the
// second.
func TestUnreadAnswersAreDropped(t *testing.T) {
	checkLeaks(t)
	const unread = time.Second
	srv, lis := serveCounting(t, registry(t), server.WithReapInterval(50*time.Millisecond), server.WithUnreadTimeout(unread))
	addr := lis.Addr().String()
	victim := jgymv1.NewJgymServiceClient(dialGRPC(t, addr, ""))
	want := victimGame(t, victim)

	t.Run("clients", func(t *testing.T) {
		for _, requests := range []int{1, 3} {
			t.Run(strings.Repeat("request ", requests), func(t *testing.T) {
				t.Parallel()
				unreadClient(t, srv, victim, addr, requests, unread)
			})
		}
	})
	if n := gauge(t, srv, `jgym_connections_closed_total{reason="unread"}`); n != 2 {
		t.Errorf("jgym_connections_closed_total{reason=unread} = %d, want 2", n)
	}
	if got := victimGame(t, victim); got != want {
		t.Error("the victim's game changed")
	}
}

// unreadClient is one client of TestUnreadAnswersAreDropped: it sends
// requests on a stream with a receive window of zero.
func unreadClient(t *testing.T, srv *server.Server, victim jgymv1.JgymServiceClient, addr string, requests int, unread time.Duration) {
	cr, err := victim.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 16,
		Seats: seats("", "Demo", "Demo", "Demo"), IdleTimeoutSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	rc := dialRaw(t, addr, 0)
	if err := rc.call(1, "/jgym.v1.JgymService/Stream", nil); err != nil {
		t.Fatal(err)
	}
	req := resetReq(1)
	req.SessionId = cr.SessionId
	for range requests {
		if err := rc.message(1, req); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "the stream to attach", func() bool { return gauge(t, srv, "jgym_streams") >= 1 })
	start := time.Now()
	// The session is reaped after 1 s idle; the stream ends with
	// it (its handler within sendGrace), before the connection is
	// closed.
	eventually(t, "the stream to end with its session", func() bool { return gauge(t, srv, "jgym_streams_open") == 0 })
	if !rc.waitClosed(unread + 5*time.Second) {
		t.Fatal("the connection holding unread answers was not closed")
	}
	t.Logf("stream ended, connection closed %v after the stream attached", time.Since(start).Round(10*time.Millisecond))
}

// A client whose session is reaped after it read every answer, and one
// that cancels its stream in the middle of an answer, keep their
// connection: only answers left unread close it.
func TestReadingClientsKeepTheirConnection(t *testing.T) {
	checkLeaks(t)
	srv, lis := serveCounting(t, registry(t), server.WithReapInterval(50*time.Millisecond), server.WithUnreadTimeout(time.Second))
	c := jgymv1.NewJgymServiceClient(dialGRPC(t, lis.Addr().String(), ""))
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cr, err := c.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 64,
				Seats: seats("", "Demo", "Demo", "Demo"), IdleTimeoutSeconds: 1})
			if err != nil {
				t.Error(err)
				return
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			st, err := c.Stream(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			req := resetReq(int64(i))
			req.SessionId = cr.SessionId
			st.Send(req)
			if i%2 == 0 {
				st.Recv() // read, then idle until reaped
				st.Recv() // the status: the session was closed
				return
			}
			cancel() // in the middle of the answer
		}()
	}
	wg.Wait()
	eventually(t, "the sessions to be reaped", func() bool { return gauge(t, srv, "jgym_sessions") == 0 })
	time.Sleep(2 * time.Second) // past the unread timeout
	if n := gauge(t, srv, `jgym_connections_closed_total{reason="unread"}`); n != 0 {
		t.Errorf("jgym_connections_closed_total{reason=unread} = %d, want 0", n)
	}
	if _, err := c.ListGames(context.Background(), &jgymv1.ListGamesRequest{}); err != nil {
		t.Error(err)
	}
}

// Uploads: a client checks (compiles) at most Compiles uploads at once,
// the others are refused at once; what the check leaves on disk (a C++
// bot's executable) counts against the client's quota; a check that finds
// every compiler taken is ResourceExhausted.
func TestUploadChecksAndQuota(t *testing.T) {
	checkLeaks(t)
	store := server.NewBotStore(64 << 20)
	release := make(chan struct{})
	var mu sync.Mutex
	running, most := 0, 0
	check := func(_ context.Context, _, _, name string, data []byte) (int64, error) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		defer func() { mu.Lock(); running--; mu.Unlock() }()
		switch {
		case strings.HasPrefix(name, "AISlow"):
			<-release
		case name == "AIBusy.cc":
			return 0, fmt.Errorf("compile: %w", env.ErrBusy)
		}
		return int64(len(data)) * 1000, nil // an executable 1000 times the source
	}
	limits := server.ClientLimits{Sessions: 1, Envs: 1, Streams: 1, Uploads: 8, UploadBytes: 1 << 20, TraceBytes: 1, Compiles: 2}
	toks := []server.Token{{Name: "a", Secret: victimToken, Limits: limits}, {Name: "b", Secret: attackerToken, Limits: limits}}
	ts := startWith(t, "bufconn", guardedRegistry(t, store, nil), victimToken, server.WithTokens(toks), server.WithUploads(store, check, 1<<20))
	a, b := ts.client, ts.dial(t, attackerToken)
	ctx := context.Background()
	up := func(c jgymv1.JgymServiceClient, name string, size int) (*jgymv1.UploadBotResponse, error) {
		return c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: name, Content: []byte(strings.Repeat(name[:3], size/3))})
	}
	// Six uploads of client a at once: two are checked, four refused.
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := up(a, fmt.Sprintf("AISlow%d.cc", i), 30)
			errs <- err
		}()
	}
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	for range 4 {
		select {
		case err := <-errs:
			wantCode(t, "a third upload checked at once", err, codes.ResourceExhausted)
		case <-time.After(5 * time.Second):
			free()
			t.Fatal("six uploads of one client are all being checked")
		}
	}
	eventually(t, "a's two checks", func() bool { mu.Lock(); defer mu.Unlock(); return running == 2 })
	// Client b is not held up by a's checks.
	if _, err := up(b, "AIFree.cc", 30); err != nil {
		t.Fatalf("another client's upload: %v", err)
	}
	free()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a checked upload: %v", err)
		}
	}
	if most != 3 { // a's two and b's one
		t.Errorf("at most %d checks ran at once, want 3", most)
	}
	// The executable counts: 300 bytes of source, 300,000 on disk.
	r, err := up(b, "AIBig.cc", 300)
	if err != nil {
		t.Fatal(err)
	}
	if r.QuotaUsedBytes < 300_000 {
		t.Errorf("quota used %d after a bot with a 300,000-byte build, want it counted", r.QuotaUsedBytes)
	}
	// Three such make 900 KB of the 1 MiB quota; a fourth drops the oldest.
	for i := range 3 {
		if r, err = up(b, fmt.Sprintf("AIBig%d.cc", i), 300); err != nil {
			t.Fatal(err)
		}
	}
	if r.QuotaUsedBytes > 1<<20 {
		t.Errorf("quota used %d, over the quota of %d", r.QuotaUsedBytes, 1<<20)
	}
	// A build larger than the whole quota is refused.
	_, err = up(b, "AIHuge.cc", 1200)
	wantCode(t, "an upload whose build passes the quota", err, codes.ResourceExhausted)
	_, err = up(b, "AIBusy.cc", 30)
	wantCode(t, "an upload that finds every compiler taken", err, codes.ResourceExhausted)
}
