package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/cppbot"
	"jgym/env"
	"jgym/env/crematoria"
	"jgym/game"
	"jgym/internal/strict"
	"jgym/sandbox"
	"jgym/server"
)

// botsDir makes a bots directory with a policy, a C++ bot, and hostile
// entries: a FIFO, symbolic links out of it, a directory named like a bot.
func botsDir(t *testing.T) (dir, outside string) {
	t.Helper()
	dir, outside = t.TempDir(), t.TempDir()
	model, err := os.ReadFile("../../python-client/examples/models/crematoria_ppo.onnx")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "ppo.onnx"), model, 0o644)
	null, err := os.ReadFile("../../kit/crematoria/AINull.cc")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "AINull.cc"), null, 0o644)
	os.WriteFile(filepath.Join(outside, "secret.onnx"), []byte("TOP SECRET"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.onnx"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(outside, "secret.onnx"), filepath.Join(dir, "out.onnx"))
	os.Symlink("/etc/passwd", filepath.Join(dir, "AIPasswd.cc"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.onnx"))
	os.Mkdir(filepath.Join(dir, "dir.onnx"), 0o755)
	return dir, outside
}

func TestServeBotsDir(t *testing.T) {
	dir, _ := botsDir(t)
	b, err := newServeBots([]string{dir}, nil, cppbot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(b.offered(""), " "), "cpp:AINull.cc policy:ppo.onnx"; got != want {
		t.Errorf("offered = %q, want %q", got, want)
	}
	// The server's env seats bots as crematoria.ResolveBot does with b.
	resolve := func(name string) error {
		_, c, err := crematoria.Def.ResolveBot(name, b)
		if c != nil {
			c.Close()
		}
		return err
	}
	if err := resolve("policy:ppo.onnx"); err != nil {
		t.Errorf("policy:ppo.onnx: %v", err)
	}
	err = resolve("Nobody")
	if want := "(or prefix:NAME with prefix cpp or policy: a file of the server's bots directories, or an upload)"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Nobody: %v, want it to end with %s", err, want)
	}
	if err := resolve("policy:missing.onnx"); !errors.Is(err, env.ErrUnknownBot) {
		t.Errorf("policy:missing.onnx: %v, want env.ErrUnknownBot", err)
	}
	for _, name := range []string{
		"policy:fifo.onnx", "policy:out.onnx", "policy:zero.onnx", "policy:dir.onnx", "cpp:AIPasswd.cc",
		"policy:/etc/passwd", "cpp:../AINull.cc", "policy:" + dir + "/ppo.onnx", "policy:missing.onnx",
		"policy:@0123456789abcdef0123456789abcdef/x.onnx", "exec:x",
	} {
		done := make(chan error, 1)
		go func() { done <- resolve(name) }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%s was seated", name)
			} else if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "root:") {
				t.Errorf("%s: the error shows a file's content: %v", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s hangs", name)
		}
	}
}

// startServe runs jgym serve with cfg and returns its gRPC address.
func startServe(t *testing.T, cfg serveConfig) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ctx = zerolog.Nop().WithContext(ctx)
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, func(g, _ net.Addr) { addrs <- g }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	select {
	case a := <-addrs:
		return a.String()
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	return ""
}

type tokenCreds string

func (c tokenCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(c)}, nil
}
func (tokenCreds) RequireTransportSecurity() bool { return true }

// A server beyond loopback needs tokens and TLS; with them, a client with
// the CA and a token plays, one without a token or without TLS does not.
func TestServeTokensAndTLS(t *testing.T) {
	cfg := defaultServeConfig()
	cfg.addr = "0.0.0.0:0"
	if _, _, err := serveOptions(cfg, os.Stderr); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--tokens") {
		t.Fatalf("serving on 0.0.0.0 without tokens and TLS: %v, want a usage error", err)
	}
	certs := t.TempDir()
	if err := writeCerts(certs, []string{"localhost", "127.0.0.1"}, time.Hour); err != nil {
		t.Fatal(err)
	}
	tokens := filepath.Join(t.TempDir(), "tokens")
	const secret = "s3cret-token-for-the-test"
	os.WriteFile(tokens, []byte("# name secret limits\nalice "+secret+" sessions=1\n"), 0o644)
	cfg.tokensFile, cfg.tlsCert, cfg.tlsKey = tokens, filepath.Join(certs, "server.pem"), filepath.Join(certs, "server-key.pem")
	if _, _, err := serveOptions(cfg, os.Stderr); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a tokens file readable by others: %v, want refused", err)
	}
	os.Chmod(tokens, 0o600)
	cfg.addr = "127.0.0.1:0"
	addr := startServe(t, cfg)

	pem, _ := os.ReadFile(filepath.Join(certs, "ca.pem"))
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	tlsCreds := credentials.NewTLS(&tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	call := func(opts ...grpc.DialOption) error {
		conn, err := grpc.NewClient(addr, opts...)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c := jgymv1.NewJgymServiceClient(conn)
		cr, err := c.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: "Crematoria-v0", NumEnvs: 1,
			Seats: []*jgymv1.SeatSpec{{}, {Bot: "Demo"}, {Bot: "Demo"}, {Bot: "Demo"}}})
		if err == nil {
			_, err = c.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
		}
		return err
	}
	if err := call(grpc.WithTransportCredentials(tlsCreds), grpc.WithPerRPCCredentials(tokenCreds(secret))); err != nil {
		t.Errorf("TLS and the token: %v", err)
	}
	if err := call(grpc.WithTransportCredentials(tlsCreds)); status.Code(err) != codes.Unauthenticated {
		t.Errorf("TLS without a token: %v, want Unauthenticated", err)
	}
	if err := call(grpc.WithTransportCredentials(tlsCreds), grpc.WithPerRPCCredentials(tokenCreds("wrong-token-0123456789"))); status.Code(err) != codes.Unauthenticated {
		t.Errorf("a wrong token: %v, want Unauthenticated", err)
	}
	if err := call(grpc.WithTransportCredentials(insecure.NewCredentials())); err == nil {
		t.Error("a plain-text client was served")
	}
}

// Uploads through jgym serve: a C++ source is compiled in the sandbox and
// seated by the name UploadBot returns; a broken one is refused with the
// compiler's message about it; a policy is checked.
func TestServeUploads(t *testing.T) {
	sb, err := sandbox.Default()
	if errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
	cfg := defaultServeConfig()
	cfg.addr = "127.0.0.1:0"
	// Where the sandbox has no control groups the operator opts in
	// (TestServeUncountedUploads checks the refusal).
	cfg.cppUncounted = sb.Counted() != nil
	addr := startServe(t, cfg)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := jgymv1.NewJgymServiceClient(conn)
	ctx := context.Background()
	demo, _ := os.ReadFile("../../kit/crematoria/AIDemo.cc")
	up, err := c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: "AIDemo.cc", Content: demo})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := c.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: "Crematoria-v0", NumEnvs: 2,
		Seats: []*jgymv1.SeatSpec{{}, {Bot: up.Bot}, {Bot: "Demo"}, {Bot: "Null"}}})
	if err != nil {
		t.Fatalf("seating %s: %v", up.Bot, err)
	}
	c.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
	_, err = c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: "AIBroken.cc",
		Content: []byte("#include \"Player.hh\"\nint f() { return undeclared_thing; }\n")})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "undeclared_thing") {
		t.Errorf("a broken C++ upload: %v, want InvalidArgument with the compiler's message", err)
	}
	model, _ := os.ReadFile("../../python-client/examples/models/crematoria_ppo.onnx")
	if _, err := c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_POLICY, Name: "ppo.onnx", Content: model}); err != nil {
		t.Errorf("a policy upload: %v", err)
	}
	_, err = c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_POLICY, Name: "junk.onnx", Content: []byte("junk")})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("a junk policy: %v, want InvalidArgument", err)
	}
}

// Hostile C++ bots uploaded to jgym serve end their own games with an
// error; afterwards no bot process is left and the server's heap is back
// near where it started.
func TestServeHostileUploads(t *testing.T) {
	sb, err := sandbox.Default()
	if errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
	cfg := defaultServeConfig()
	cfg.addr = "127.0.0.1:0"
	cfg.cppUncounted = sb.Counted() != nil
	addr := startServe(t, cfg)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := jgymv1.NewJgymServiceClient(conn)
	ctx := context.Background()
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	base := heap()
	for _, bot := range []struct{ name, play string }{
		{"AIHog.cc", `if (round() == 1) { size_t n = size_t(4) << 30; char* p = (char*)malloc(n); if (!p) abort(); memset(p, 1, n); }`},
		{"AIForker.cc", `if (round() == 1) { for (int i = 0; i < 100; ++i) if (fork() == 0) { sleep(60); _exit(0); } abort(); }`},
		{"AIEscaper.cc", `if (round() == 1 && fork() == 0) { setsid(); sleep(600); _exit(0); }`},
	} {
		src := "#include \"Player.hh\"\n#include <cstdlib>\n#include <cstring>\n#include <unistd.h>\n#define PLAYER_NAME P\n" +
			"struct PLAYER_NAME : public Player {\n static Player* factory() { return new PLAYER_NAME; }\n virtual void play() {\n" + bot.play + "\n }\n};\nRegisterPlayer(PLAYER_NAME);\n"
		up, err := c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: bot.name, Content: []byte(src)})
		if err != nil {
			t.Fatalf("%s: %v", bot.name, err)
		}
		cr, err := c.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: "Crematoria-v0", NumEnvs: 2,
			Seats: []*jgymv1.SeatSpec{{}, {Bot: up.Bot}, {Bot: "Demo"}, {Bot: "Null"}}})
		if err != nil {
			t.Fatalf("%s: %v", bot.name, err)
		}
		st, err := c.Stream(ctx)
		if err != nil {
			t.Fatal(err)
		}
		do := func(r *jgymv1.StreamRequest) error {
			r.SessionId = cr.SessionId
			if err := st.Send(r); err != nil {
				return err
			}
			_, err := st.Recv()
			return err
		}
		err = do(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{Seed: 1, SeedGiven: true}}})
		for k := 0; err == nil && k < 5; k++ {
			err = do(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{
				Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{2, 1, 80}, Data: make([]byte, 160)}}}})
		}
		if bot.name != "AIEscaper.cc" && (status.Code(err) != codes.Aborted || !strings.Contains(err.Error(), "cpp bot")) {
			t.Errorf("%s: the game ended with %v, want Aborted naming the bot", bot.name, err)
		}
		st.CloseSend()
		c.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
	}
	deadline := time.Now().Add(10 * time.Second)
	for cppbot.Running() > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := cppbot.Running(); n > 0 {
		t.Errorf("%d bot sandboxes left", n)
	}
	// No process of this test's sandboxes (sandbox.Processes: never
	// another program's, such as another job's bots), the setsid child
	// included.
	for time.Now().Before(deadline) && len(sandbox.Processes()) > 0 {
		time.Sleep(20 * time.Millisecond)
	}
	if pids := sandbox.Processes(); len(pids) > 0 {
		t.Errorf("bot processes %v left", pids)
	}
	if after := heap(); after > base+64<<20 {
		t.Errorf("heap in use %d MiB after the games, %d MiB before", after>>20, base>>20)
	}
}

// Where the sandboxes get no control groups, jgym serve refuses uploaded
// C++ bots, saying why, unless its operator opts in with
// --allow-uncounted-cpp-uploads; policies are still taken.
func TestServeUncountedUploads(t *testing.T) {
	if _, err := sandbox.Default(); errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
	sb, err := sandbox.New(sandbox.Options{NoCgroups: true})
	if err != nil {
		t.Fatal(err)
	}
	null, _ := os.ReadFile("../../kit/crematoria/AINull.cc")
	model, _ := os.ReadFile("../../python-client/examples/models/crematoria_ppo.onnx")
	for _, allow := range []bool{false, true} {
		cfg := defaultServeConfig()
		cfg.addr = "127.0.0.1:0"
		cfg.cppSandbox, cfg.cppUncounted = sb, allow
		conn, err := grpc.NewClient(startServe(t, cfg), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		c := jgymv1.NewJgymServiceClient(conn)
		ctx := context.Background()
		_, err = c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: "AINull.cc", Content: null})
		switch {
		case allow && err != nil:
			t.Errorf("with --allow-uncounted-cpp-uploads: %v", err)
		case !allow && (status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "does not host uploaded C++ bots") ||
			!strings.Contains(err.Error(), "--allow-uncounted-cpp-uploads") || strings.Contains(err.Error(), "/sys/")):
			t.Errorf("an uploaded C++ bot without control groups: %v, want a refusal that says why (and names no path)", err)
		}
		if _, err := c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_POLICY, Name: "ppo.onnx", Content: model}); err != nil {
			t.Errorf("a policy upload: %v", err)
		}
	}
}

// TestRefusedBotsNameSearch: the server refuses by default the bot the
// games register as their search bot (server cannot import game).
func TestRefusedBotsNameSearch(t *testing.T) {
	if !slices.Contains(server.DefaultRefusedBots, game.SearchBotName) {
		t.Errorf("server.DefaultRefusedBots = %v, want %s among them", server.DefaultRefusedBots, game.SearchBotName)
	}
}
