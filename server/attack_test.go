package server_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/env/crematoria"
	"jgym/server"
)

// The tests of this file play the attacker over gRPC: each hostile request
// gets a clear status, the server goes on serving, and another client's
// games are unchanged.

const (
	victimToken   = "victim-secret-0123456789"
	attackerToken = "attacker-secret-0123456789"
)

var tokens = []server.Token{
	{Name: "victim", Secret: victimToken, Limits: server.DefaultClientLimits()},
	{Name: "attacker", Secret: attackerToken, Limits: server.ClientLimits{Sessions: 2, Envs: 64, Streams: 4, Uploads: 2, UploadBytes: 1 << 20, TraceBytes: 1 << 20, Compiles: 1}},
}

// guardedRegistry hosts Crematoria with "policy" and "cpp" seats resolved
// from the upload store or, for plain names, as Null bots; a resolver
// reached with anything that looks like a host path fails the test, since
// the server must refuse it first. A seat named "policy:slow.onnx" waits
// on slow, like a bot whose preparation is stuck.
func guardedRegistry(t testing.TB, store *server.BotStore, slow *stuckBot) *env.Registry {
	resolve := func(name string) (crematoria.BotFactory, io.Closer, error) {
		prefix, rest, ok := strings.Cut(name, ":")
		if !ok {
			f, err := crematoria.Def.Bots.Lookup(name)
			return f, nil, err
		}
		if hash, _, ok := server.ParseUploadRef(rest); ok {
			if _, _, ok := store.Get(prefix, hash); !ok {
				return nil, nil, fmt.Errorf("%w: no upload %s", env.ErrUnknownBot, hash)
			}
			return func(int, int) crematoria.Bot { return crematoria.Null{} }, nil, nil
		}
		if !server.ValidBotFile(rest) {
			t.Errorf("the resolver was reached with %q", name)
			return nil, nil, errors.New("path")
		}
		if rest == "slow.onnx" {
			close(slow.entered)
			<-slow.release
		}
		return func(int, int) crematoria.Bot { return crematoria.Null{} }, nil, nil
	}
	reg, err := env.NewRegistry(crematoria.Def.Host(env.WithResolver(resolve), env.WithPrefixes[crematoria.Bot]("policy", "cpp")))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// stuckBot is a bot whose preparation waits for release, once it has
// closed entered.
type stuckBot struct{ entered, release chan struct{} }

// acceptAll is a BotCheck that accepts any content.
func acceptAll(context.Context, string, string, string, []byte) (int64, error) { return 0, nil }

// victimDigest plays the victim's reference game: 4 envs, 60 steps.
func victimGame(t testing.TB, c jgymv1.JgymServiceClient) string {
	t.Helper()
	cr, err := c.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 4, Seats: seats("", "Demo", "Null", "Demo")})
	if err != nil {
		t.Fatalf("victim: %v", err)
	}
	st, err := c.Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d := play(t, &stream{t: t, id: cr.SessionId, st: st, l: 1}, 7, 60)
	st.CloseSend()
	st.Recv()
	if _, err := c.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.SessionId}); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAttackerRequests(t *testing.T) {
	checkLeaks(t)
	store := server.NewBotStore(64 << 20)
	ts := startWith(t, "tcp", guardedRegistry(t, store, nil), victimToken,
		server.WithTokens(tokens), server.WithUploads(store, acceptAll, 1<<20),
		server.WithBotProcesses([]string{"cpp"}, 8, 4))
	victim := ts.client
	want := victimGame(t, victim)
	attacker := ts.dial(t, attackerToken)
	ctx := context.Background()

	big := strings.Repeat("A", 16<<10)
	create := func(bot, config, gameID, trace string, n int32) error {
		_, err := attacker.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: gameID, NumEnvs: n,
			Seats: seats("", bot, "Demo", "Demo"), Config: config, TraceEnv0: trace})
		return err
	}
	attacks := []struct {
		name string
		call func() error
		code codes.Code
	}{
		{"cpp:/etc/passwd", func() error { return create("cpp:/etc/passwd", "", game, "", 1) }, codes.InvalidArgument},
		{"policy:/dev/zero", func() error { return create("policy:/dev/zero", "", game, "", 1) }, codes.InvalidArgument},
		{"cpp:../up.cc", func() error { return create("cpp:../up.cc", "", game, "", 1) }, codes.InvalidArgument},
		{"policy:dir/x.onnx", func() error { return create("policy:dir/x.onnx", "", game, "", 1) }, codes.InvalidArgument},
		{"cpp:.hidden", func() error { return create("cpp:.hidden", "", game, "", 1) }, codes.InvalidArgument},
		{"exec:ls", func() error { return create("exec:/bin/ls", "", game, "", 1) }, codes.NotFound},
		{"someone else's upload", func() error {
			return create("policy:@0123456789abcdef0123456789abcdef/x.onnx", "", game, "", 1)
		}, codes.NotFound},
		{"a 16 KB bot name", func() error { return create(big, "", game, "", 1) }, codes.InvalidArgument},
		{"a 16 KB game id", func() error { return create("Demo", "", big, "", 1) }, codes.InvalidArgument},
		{"a 100 KB config", func() error { return create("Demo", strings.Repeat("x", 100<<10), game, "", 1) }, codes.InvalidArgument},
		{"a bad config", func() error { return create("Demo", "NOT A CONFIG "+big[:2000], game, "", 1) }, codes.InvalidArgument},
		{"a control character", func() error { return create("De\x00mo", "", game, "", 1) }, codes.InvalidArgument},
		{"trace_env0 without --trace-dir", func() error { return create("Demo", "", game, "x", 1) }, codes.PermissionDenied},
		{"too many envs", func() error { return create("Demo", "", game, "", 65) }, codes.ResourceExhausted},
		{"too many bot processes", func() error { return create("cpp:AIMine.cc", "", game, "", 5) }, codes.ResourceExhausted},
		{"a 16 KB session id", func() error {
			_, err := attacker.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: big})
			return err
		}, codes.NotFound},
		{"a 16 KB upload name", func() error {
			_, err := attacker.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_POLICY, Name: big, Content: []byte("x")})
			return err
		}, codes.InvalidArgument},
		{"an upload named as a path", func() error {
			_, err := attacker.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: "../AIx.cc", Content: []byte("x")})
			return err
		}, codes.InvalidArgument},
		{"an upload over the size limit", func() error {
			_, err := attacker.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_POLICY, Name: "x.onnx", Content: make([]byte, 1<<20+1)})
			return err
		}, codes.ResourceExhausted},
		{"no token", func() error {
			_, err := ts.dial(t, "").ListGames(ctx, &jgymv1.ListGamesRequest{})
			return err
		}, codes.Unauthenticated},
		{"a wrong token", func() error {
			_, err := ts.dial(t, "not-a-token-0123456789").ListGames(ctx, &jgymv1.ListGamesRequest{})
			return err
		}, codes.Unauthenticated},
	}
	var wg sync.WaitGroup
	wg.Add(1)
	var during string
	go func() {
		defer wg.Done()
		during = victimGame(t, victim)
	}()
	for _, a := range attacks {
		err := a.call()
		st := status.Convert(err)
		if err == nil || st.Code() != a.code {
			t.Errorf("%s: status %v %.200q, want %v", a.name, st.Code(), st.Message(), a.code)
			continue
		}
		if len(st.Message()) > 1100 {
			t.Errorf("%s: a message of %d bytes", a.name, len(st.Message()))
		}
		if strings.Contains(st.Message(), strings.Repeat("A", 100)) || strings.Contains(st.Message(), "root:") {
			t.Errorf("%s: the message echoes the input or a file: %.200q", a.name, st.Message())
		}
	}
	wg.Wait()
	if during != want {
		t.Errorf("the victim's game changed while the attacker played")
	}
	if after := victimGame(t, victim); after != want {
		t.Errorf("the victim's game changed after the attacks")
	}
}

// One client cannot take every session: past its own limit it is refused,
// and another client still gets sessions. Sessions of one client are not
// found by another.
func TestSessionHoarding(t *testing.T) {
	checkLeaks(t)
	ts := startWith(t, "bufconn", registry(t), victimToken, server.WithTokens(tokens), server.WithMaxSessions(4))
	attacker := ts.dial(t, attackerToken)
	ctx := context.Background()
	var ids []string
	for i := 0; i < 3; i++ {
		cr, err := attacker.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1, Seats: seats("", "Demo", "Demo", "Demo"), IdleTimeoutSeconds: 3600})
		if i < 2 {
			if err != nil {
				t.Fatalf("session %d: %v", i, err)
			}
			ids = append(ids, cr.SessionId)
			continue
		}
		wantCode(t, "a third session", err, codes.ResourceExhausted)
	}
	want := victimGame(t, ts.client)
	_ = want
	// The victim cannot close or attach to the attacker's sessions, nor the
	// attacker to the victim's.
	_, err := ts.client.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: ids[0]})
	wantCode(t, "closing another client's session", err, codes.NotFound)
	st, err := ts.client.Stream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&stream{t: t, id: ids[0], st: st, l: 1}).do(resetReq(1))
	wantCode(t, "attaching to another client's session", err, codes.NotFound)
}

// Streams that send nothing are ended after the first-request timeout;
// a client's open streams are bounded; the goroutines come back.
func TestIdleStreams(t *testing.T) {
	checkLeaks(t)
	ts := startWith(t, "tcp", registry(t), victimToken, server.WithTokens(tokens),
		server.WithFirstRequestTimeout(300*time.Millisecond))
	attacker := ts.dial(t, attackerToken)
	if _, err := attacker.ListGames(context.Background(), &jgymv1.ListGamesRequest{}); err != nil {
		t.Fatal(err) // connected: its goroutines are in the base
	}
	base := runtime.NumGoroutine()
	var streams []jgymv1.JgymService_StreamClient
	for i := 0; i < 4; i++ {
		st, err := attacker.Stream(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, st)
	}
	eventually(t, "4 open streams", func() bool { return strings.Contains(scrape(t, ts), "jgym_streams_open 4") })
	// The fifth is over the attacker's limit of 4.
	st5, err := attacker.Stream(context.Background())
	if err == nil {
		_, err = st5.Recv()
	}
	wantCode(t, "a fifth stream", err, codes.ResourceExhausted)
	for i, st := range streams {
		_, err := st.Recv()
		if status.Code(err) != codes.DeadlineExceeded {
			t.Errorf("idle stream %d ended with %v, want DeadlineExceeded", i, err)
		}
	}
	eventually(t, "goroutines to come back", func() bool { return runtime.NumGoroutine() <= base+2 })
	// The victim plays meanwhile and afterwards.
	victimGame(t, ts.client)
	// A stream attached to a session ends when the session is reaped.
	cr, err := attacker.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1,
		Seats: seats("", "Demo", "Demo", "Demo"), IdleTimeoutSeconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	st, err := attacker.Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := &stream{t: t, id: cr.SessionId, st: st, l: 1}
	s.must(resetReq(1))
	start := time.Now()
	_, err = st.Recv()
	if status.Code(err) != codes.NotFound || time.Since(start) > 10*time.Second {
		t.Errorf("a stream of an idle session ended with %v after %v, want NotFound after about 1s", err, time.Since(start))
	}
}

// The memory budget refuses a session that would pass it.
func TestMemoryBudget(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn", server.WithMemoryBudget(64<<20))
	_, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1024, Seats: seats("", "", "", "")})
	wantCode(t, "a session over the memory budget", err, codes.ResourceExhausted)
	ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 4})
}

// A session that asks for some tensors books the memory of those: more
// such sessions fit in a budget than sessions of the full observation.
func TestMemoryBudgetTensors(t *testing.T) {
	checkLeaks(t)
	fit := func(tensors []string) int {
		limits := server.DefaultClientLimits()
		limits.Sessions = 256
		ts := start(t, "bufconn", server.WithMemoryBudget(48<<20), server.WithClientLimits(limits))
		for k := 0; k < 256; k++ {
			_, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 4,
				Seats: seats("", "Null", "Null", "Null"), Tensors: tensors})
			if err != nil {
				wantCode(t, "filling the budget", err, codes.ResourceExhausted)
				return k
			}
		}
		t.Fatal("256 sessions fit in 48 MiB")
		return 0
	}
	full, masks := fit(nil), fit([]string{"action_mask"})
	t.Logf("sessions of 4 envs in 48 MiB: %d with every tensor, %d with the mask alone", full, masks)
	if full < 1 || masks <= full {
		t.Fatalf("sessions of 4 envs in 48 MiB: %d with every tensor, %d with the mask alone", full, masks)
	}
}

// Uploads: checked, stored by content, counted against the client's
// quota (the oldest dropped to make room), seated only by their owner.
func TestUploads(t *testing.T) {
	checkLeaks(t)
	store := server.NewBotStore(64 << 20)
	var checked []string
	var mu sync.Mutex
	check := func(_ context.Context, kind, game, name string, data []byte) (int64, error) {
		mu.Lock()
		checked = append(checked, kind+" "+name)
		mu.Unlock()
		if string(data) == "bad" {
			return 0, errors.New("does not compile: " + strings.Repeat("E", 10000))
		}
		return 0, nil
	}
	ts := startWith(t, "bufconn", guardedRegistry(t, store, nil), victimToken,
		server.WithTokens(tokens), server.WithUploads(store, check, 1<<20))
	attacker := ts.dial(t, attackerToken)
	ctx := context.Background()
	up := func(c jgymv1.JgymServiceClient, kind jgymv1.BotKind, name, content string) (*jgymv1.UploadBotResponse, error) {
		return c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: kind, Name: name, Content: []byte(content)})
	}
	r1, err := up(ts.client, jgymv1.BotKind_BOT_KIND_POLICY, "snap1.onnx", "model one")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r1.Bot, "policy:@") || !strings.HasSuffix(r1.Bot, "/snap1.onnx") || r1.QuotaUsedBytes != 9 {
		t.Errorf("upload answer %v", r1)
	}
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2, Seats: seats("", r1.Bot, "Demo", "Demo")})
	_ = cr
	// Another client cannot seat it.
	_, err = attacker.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1, Seats: seats("", r1.Bot, "Demo", "Demo")})
	wantCode(t, "seating another client's upload", err, codes.NotFound)
	// A failed check: InvalidArgument, the message cut.
	_, err = up(attacker, jgymv1.BotKind_BOT_KIND_CPP, "AIBad.cc", "bad")
	wantCode(t, "an upload that fails its check", err, codes.InvalidArgument)
	if n := len(status.Convert(err).Message()); n > 1100 {
		t.Errorf("the message of a failed check is %d bytes", n)
	}
	// The attacker's quota is 2 uploads: a third drops the first.
	a1, err := up(attacker, jgymv1.BotKind_BOT_KIND_POLICY, "a1.onnx", "attacker one")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := up(attacker, jgymv1.BotKind_BOT_KIND_POLICY, "a2.onnx", "attacker two"); err != nil {
		t.Fatal(err)
	}
	if _, err := up(attacker, jgymv1.BotKind_BOT_KIND_POLICY, "a3.onnx", "attacker three"); err != nil {
		t.Fatal(err)
	}
	_, err = attacker.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1, Seats: seats("", a1.Bot, "Demo", "Demo")})
	wantCode(t, "an upload dropped for a newer one", err, codes.NotFound)
	// The victim's upload is still there.
	ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 1, Seats: seats("", r1.Bot, "Demo", "Demo")})
	// Bad kinds.
	_, err = up(attacker, jgymv1.BotKind_BOT_KIND_UNSPECIFIED, "x.onnx", "x")
	wantCode(t, "an upload of no kind", err, codes.InvalidArgument)
	_, err = up(attacker, jgymv1.BotKind_BOT_KIND_POLICY, "x.cc", "x")
	wantCode(t, "a policy named .cc", err, codes.InvalidArgument)
}

// A server without uploads refuses them.
func TestNoUploads(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	_, err := ts.client.UploadBot(context.Background(), &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_POLICY, Name: "x.onnx", Content: []byte("x")})
	wantCode(t, "an upload to a server without uploads", err, codes.PermissionDenied)
}

// Shutdown completes within its grace period while a request is stuck in
// bot preparation, and no session is created after it began.
func TestShutdownWithStuckBot(t *testing.T) {
	checkLeaks(t)
	slow := &stuckBot{entered: make(chan struct{}), release: make(chan struct{})}
	store := server.NewBotStore(1 << 20)
	ts := startWith(t, "bufconn", guardedRegistry(t, store, slow), "",
		server.WithShutdownGrace(500*time.Millisecond), server.WithBotProcesses([]string{"cpp"}, 8, 8))
	created := make(chan error, 1)
	go func() {
		_, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1, Seats: seats("", "policy:slow.onnx", "Demo", "Demo")})
		created <- err
	}()
	<-slow.entered
	begin := time.Now()
	ts.stop()
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("Serve took %v to return with a grace of 500ms", d)
	}
	close(slow.release) // the stuck preparation ends after the shutdown
	if err := <-created; err == nil {
		t.Error("a session was created after the shutdown began")
	}
	eventually(t, "the late session to be closed", func() bool {
		out := scrape(t, ts)
		return strings.Contains(out, "jgym_sessions 0") && strings.Contains(out, "jgym_envs 0")
	})
}

// A peer past its connection limit has its connections closed.
func TestConnectionLimit(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "tcp", server.WithMaxConnections(16, 2))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := ts.client.ListGames(ctx, &jgymv1.ListGamesRequest{}); err != nil {
		t.Fatal(err)
	}
	// The test's own connection is one; a second connects, a third is
	// closed at once.
	if _, err := ts.dial(t, "").ListGames(ctx, &jgymv1.ListGamesRequest{}); err != nil {
		t.Fatalf("a second connection: %v", err)
	}
	_, err := ts.dial(t, "").ListGames(ctx, &jgymv1.ListGamesRequest{})
	if status.Code(err) != codes.Unavailable && status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("a third connection: %v, want Unavailable", err)
	}
	if !strings.Contains(scrape(t, ts), "jgym_connections_refused_total") {
		t.Error("no refused-connections metric")
	}
}
