package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/dataset"
	"jgym/env/toy"
)

// TestMain registers the toy game (env/toy) for the command's tests, with
// the one line a new game needs: it plays through jgym match, eval,
// verify, dataset and serve as the course's games do, and the jgym users
// run never holds it. With JGYM_TOY_JGYM=1 the test binary is the jgym
// command with the toy registered, for the Python tests of the toy
// (python-client/tests/test_toy.py serves it).
func TestMain(m *testing.M) {
	games.Add(toy.Def)
	if os.Getenv("JGYM_TOY_JGYM") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// toyTraces are the toy's reference traces, which its own engine wrote.
const toyTraces = "../../testdata/toy/traces"

// The toy plays through jgym match (bots, a policy seat, its trace and
// command file), jgym verify (with and without the commands; a changed
// byte fails), jgym eval and jgym dataset, each command's own run
// function, as the course's games do.
func TestToyCommands(t *testing.T) {
	dir := t.TempDir()
	res, cmds := filepath.Join(dir, "toy.res"), filepath.Join(dir, "toy.cmd")
	ref := filepath.Join(toyTraces, "toy_s2_Greedy-Demo-Null-Demo.res.gz")
	bad := filepath.Join(dir, "bad.res")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
	}{
		{"match", []string{"match", "--game", "toy", "Greedy", "Demo", "Null", "Demo", "-s", "2", "-o", res, "--commands", cmds, "-q"}, 0, ""},
		{"verify against the rules", []string{"verify", res}, 0, "OK " + res},
		{"verify with the commands", []string{"verify", "--commands", cmds, res}, 0, "OK " + res},
		{"verify the fixtures", []string{"verify", "--commands", filepath.Join(toyTraces, "commands"), ref}, 0, "OK " + ref},
		{"verify a changed trace", []string{"verify", "--commands", cmds, bad}, 1, "FAIL " + bad + ": round 3"},
		{"a policy seat", []string{"match", "-g", "toy", "policy:../../env/toy/testdata/tiny.onnx", "Demo", "Demo", "Demo", "-s", "1", "-o", filepath.Join(dir, "p.res")}, 0, ""},
		{"eval", []string{"eval", "-g", "toy", "Greedy", "--opponents", "Demo", "-n", "8"}, 0, "Greedy vs Demo, Demo, Demo: 8 games"},
		{"tournament", []string{"tournament", "-g", "toy", "Greedy", "Demo", "Null", "-n", "6"}, 0, "tournament: 3 bots, 6 games"},
		{"a cpp seat", []string{"match", "-g", "toy", "cpp:AIx.cc", "Demo", "Demo", "Demo", "-s", "1"}, 1, ""},
		{"export-cpp", []string{"export-cpp", "-g", "toy", "../../env/toy/testdata/tiny.onnx", "-o", filepath.Join(dir, "AIx.cc")}, 2, ""},
	} {
		if tc.name == "verify a changed trace" {
			b, err := os.ReadFile(res)
			if err != nil {
				t.Fatal(err)
			}
			// The third round's first score, one more.
			i := bytes.Index(b, []byte("\nround 3\nscores ")) + len("\nround 3\nscores ")
			b[i]++
			os.WriteFile(bad, b, 0o644)
		}
		code, stdout, stderr := runJgym(tc.args...)
		if code != tc.code || !strings.Contains(stdout, tc.stdout) {
			t.Errorf("%s: jgym %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q",
				tc.name, strings.Join(tc.args, " "), code, stdout, stderr, tc.code, tc.stdout)
		}
	}
	got, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	if want := gunzipFile(t, ref); !bytes.Equal(got, want) {
		t.Error("jgym match --game toy wrote another trace than the reference's")
	}
	out := filepath.Join(dir, "data")
	code, stdout, stderr := runJgym("dataset", "--seats", "0,2", "--expert", "Greedy", "-o", out, ref, filepath.Join(toyTraces, "toy_s1_Demo-Demo-Demo-Demo.res.gz"))
	if code != 0 {
		t.Fatalf("jgym dataset = %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, dataset.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m dataset.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Game != "Toy" || len(m.Traces) != 2 || m.Samples != 2*2*toy.DefaultConfig().NbRounds {
		t.Errorf("manifest: game %s, %d traces, %d samples; want Toy, 2, %d", m.Game, len(m.Traces), m.Samples, 4*toy.DefaultConfig().NbRounds)
	}
}

// The jgym users run does not hold the toy: its registration is in this
// test file only.
func TestToyNotShipped(t *testing.T) {
	pkgs := listPackages(t)
	p := pkgs["jgym/cmd/jgym"]
	if p == nil || !slices.Contains(p.Deps, "jgym/env/crematoria") {
		t.Fatalf("go list found no jgym/cmd/jgym depending on the games")
	}
	if slices.Contains(p.Deps, "jgym/env/toy") {
		t.Error("the jgym command depends on jgym/env/toy")
	}
}

// jgym serve hosts the toy beside the course's games: ListGames describes
// it, and a session of it plays whole games.
func TestToyServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = zerolog.New(io.Discard).WithContext(ctx)
	cfg := defaultServeConfig()
	cfg.addr, cfg.workers, cfg.maxEnvsPerSession, cfg.shutdownGrace = "127.0.0.1:0", 2, 8, 2*time.Second
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, func(g, _ net.Addr) { addrs <- g }) }()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve returned %v after cancel", err)
		}
	}()
	conn, err := grpc.NewClient(addr.String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := jgymv1.NewJgymServiceClient(conn)
	lg, err := c.ListGames(ctx, &jgymv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	var spec *jgymv1.GameSpec
	for _, g := range lg.Games {
		ids = append(ids, g.Id)
		if g.Id == "Toy-v0" {
			spec = g
		}
	}
	if spec == nil || len(ids) != len(games.Games()) {
		t.Fatalf("ListGames = %v, want the %d registered games, the toy among them", ids, len(games.Games()))
	}
	if spec.Name != "Toy" || spec.StrongBot != "Greedy" || len(spec.Observation[0].Planes) != toy.BoardPlanes || spec.NumActions != int32(toy.NumDirs) {
		t.Errorf("the toy's spec: %q, %q, %d planes, %d actions", spec.Name, spec.StrongBot, len(spec.Observation[0].Planes), spec.NumActions)
	}
	cr, err := c.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: "Toy-v0", NumEnvs: 2,
		Seats: []*jgymv1.SeatSpec{{}, {Bot: "Demo"}, {Bot: "Greedy"}, {Bot: "Null"}}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Stream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.CloseSend()
	send := func(r *jgymv1.StreamRequest) *jgymv1.StreamResponse {
		t.Helper()
		r.SessionId = cr.SessionId
		if err := st.Send(r); err != nil {
			t.Fatal(err)
		}
		resp, err := st.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	send(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{Seed: 1, SeedGiven: true}}})
	u := toy.DefaultConfig().NumUnits()
	none := bytes.Repeat([]byte{byte(toy.None)}, 2*u)
	for step := 1; step <= toy.DefaultConfig().NbRounds; step++ {
		r := send(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{
			Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{2, 1, int64(u)}, Data: none}}}})
		want := []byte{0, 0}
		if step == toy.DefaultConfig().NbRounds {
			want = []byte{1, 1}
		}
		if got := r.GetResult().GetTerminated().GetData(); !bytes.Equal(got, want) {
			t.Fatalf("step %d: terminated %v, want %v", step, got, want)
		}
	}
}
