// Command hostile measures what one hostile client takes from the others
// on a jgym serve (issue 31): 16 clients, each with its own token, step 16
// Crematoria envs each (one learner, three Demos) alone; then while a
// hostile client keeps 4 C++ uploads compiling (each a fresh source that
// takes the compiler seconds) and holds two sessions whose streams asked
// for answers and never read them; then after the hostile client left. It
// prints the 16 clients' env-steps/s in each phase and the server's
// resident memory before the hostile client came and settle after it
// left.
//
//	go build -o bin/jgym ./cmd/jgym
//	go run ./benchmarks/hostile -jgym bin/jgym -phase 30s -rounds 2 -settle 60s
//
// The phases alternate (alone, beside, alone, beside), so that the rest of
// the machine's load weighs on both alike; the load average is printed.
//
// With -spin the hostile client's two sessions (of 2 envs) seat an
// uploaded C++ bot that starts three processes spinning in the background
// (what the sandbox must hold to the bot's CPU budget, with a lower CPU
// weight than the server's stepping).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	jgymv1 "jgym/api/jgym/v1"
)

const (
	game         = "Crematoria-v0"
	slots, dirs  = 80, 11
	clients      = 16
	envsPerCl    = 16
	hostileToken = "hostile-secret-0123456789"
)

func main() {
	bin := flag.String("jgym", "bin/jgym", "the jgym binary to serve with")
	phase := flag.Duration("phase", 30*time.Second, "length of the phases alone and beside the hostile client")
	settle := flag.Duration("settle", 60*time.Second, "how long after the hostile client leaves the server's memory is measured")
	spin := flag.Bool("spin", false, "the hostile sessions seat a C++ bot whose background processes spin")
	flag.IntVar(&rounds, "rounds", rounds, "pairs of phases, alone then beside the hostile client")
	flag.Parse()
	if err := run(*bin, *phase, *settle, *spin); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

func run(bin string, phase, settle time.Duration, spin bool) error {
	dir, err := os.MkdirTemp("", "jgym-hostile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var toks strings.Builder
	for i := range clients {
		fmt.Fprintf(&toks, "c%02d %s\n", i, clientToken(i))
	}
	fmt.Fprintf(&toks, "hostile %s compiles=4\n", hostileToken)
	tokens := filepath.Join(dir, "tokens")
	if err := os.WriteFile(tokens, []byte(toks.String()), 0o600); err != nil {
		return err
	}
	addr, maddr := freeAddr(), freeAddr()
	cmd := exec.Command(bin, "serve", "--addr", addr, "--metrics-addr", maddr, "--tokens", tokens, "--log-format", "json", "--log-level", "warn")
	cmd.Env = append(os.Environ(), "JGYM_CPP_CACHE="+filepath.Join(dir, "cpp"))
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	if err := waitHealthy(maddr); err != nil {
		return err
	}
	fmt.Printf("jgym serve pid %d on %s, %d CPUs; %d clients x %d envs (a learner, 3 Demos)\n", cmd.Process.Pid, addr, numCPU(), clients, envsPerCl)
	rssStart := rss(cmd.Process.Pid)

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	counts := make([]atomic.Int64, clients)
	var wg sync.WaitGroup
	errc := make(chan error, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := stepper(ctx, addr, clientToken(i), &counts[i]); err != nil && ctx.Err() == nil {
				errc <- fmt.Errorf("client %d: %w", i, err)
			}
		}()
	}
	measure := func(name string, d time.Duration) ([]float64, error) {
		before := snapshot(counts)
		select {
		case <-time.After(d):
		case err := <-errc:
			return nil, err
		}
		after := snapshot(counts)
		rates := make([]float64, clients)
		for i := range rates {
			rates[i] = float64(after[i]-before[i]) / d.Seconds()
		}
		report(name, rates)
		return rates, nil
	}
	time.Sleep(3 * time.Second) // warm up: sessions made, first games reset
	fmt.Printf("load average at start: %s\n", loadavg())
	// The phases alternate, so that the other load of the machine weighs
	// on both alike.
	var alone, beside [][]float64
	var rssBase, rssHostile int64
	for r := range rounds {
		a, err := measure(fmt.Sprintf("round %d: alone", r+1), phase)
		if err != nil {
			return err
		}
		alone = append(alone, a)
		rssBase = max(rssBase, rss(cmd.Process.Pid))
		hctx, leave := context.WithCancel(ctx)
		hs := &hostileStats{}
		var hwg sync.WaitGroup
		if err := hostile(hctx, addr, spin, hs, &hwg); err != nil {
			leave()
			return fmt.Errorf("hostile: %w", err)
		}
		b, err := measure(fmt.Sprintf("round %d: beside the hostile one", r+1), phase)
		if err != nil {
			leave()
			return err
		}
		beside = append(beside, b)
		rssHostile = max(rssHostile, rss(cmd.Process.Pid))
		during := scrape(maddr, "jgym_compilers", "jgym_compiles", "jgym_streams_open", "jgym_sessions ")
		leave()
		hwg.Wait()
		fmt.Printf("  hostile client: %d uploads compiled, %d refused (%s); %d streams not reading; during: %s\n",
			hs.compiled.Load(), hs.refused.Load(), hs.lastRefusal(), hs.streams.Load(), during)
	}
	after, err := measure(fmt.Sprintf("the %v after it left", settle), settle)
	if err != nil {
		return err
	}
	rssAfter := rss(cmd.Process.Pid)
	stop()
	wg.Wait()
	fmt.Printf("load average at end: %s\n", loadavg())

	al, be := mean(alone), mean(beside)
	a, b, c := sum(al), sum(be), sum(after)
	fmt.Printf("\nenv-steps/s of the 16 clients (mean of %d rounds): alone %.0f, beside the hostile client %.0f (%+.1f%%), in the %v after it left %.0f (%+.1f%%)\n",
		rounds, a, b, 100*(b-a)/a, settle, c, 100*(c-a)/a)
	fmt.Printf("slowest client beside the hostile one: %+.1f%% of its rate alone\n", worst(al, be))
	fmt.Printf("server RSS: start %d MiB, baseline (16 clients stepping, before a hostile client) %d MiB, with the hostile client %d MiB, %v after it left %d MiB (%+d MiB)\n",
		rssStart>>20, rssBase>>20, rssHostile>>20, settle, rssAfter>>20, (rssAfter-rssBase)>>20)
	return nil
}

// rounds is the number of (alone, beside the hostile client) pairs.
var rounds = 2

// mean averages the rates of several rounds, client by client.
func mean(rounds [][]float64) []float64 {
	out := make([]float64, len(rounds[0]))
	for _, r := range rounds {
		for i, v := range r {
			out[i] += v / float64(len(rounds))
		}
	}
	return out
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func clientToken(i int) string { return fmt.Sprintf("client-%02d-secret-0123456789", i) }

// stepper is one client: a session of envsPerCl envs stepped with a legal
// random policy until ctx ends; count gets the env-steps.
func stepper(ctx context.Context, addr, token string, count *atomic.Int64) error {
	conn, err := dial(addr, token, 0)
	if err != nil {
		return err
	}
	defer conn.Close()
	c := jgymv1.NewJgymServiceClient(conn)
	cr, err := c.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: game, NumEnvs: envsPerCl, Seats: seats("", "Demo", "Demo", "Demo")})
	if err != nil {
		return err
	}
	defer c.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
	st, err := c.Stream(ctx)
	if err != nil {
		return err
	}
	do := func(r *jgymv1.StreamRequest) (*jgymv1.StepResult, error) {
		r.SessionId = cr.SessionId
		if err := st.Send(r); err != nil {
			return nil, err
		}
		resp, err := st.Recv()
		return resp.GetResult(), err
	}
	r, err := do(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{Seed: 1, SeedGiven: true}}})
	for step := 0; err == nil; step++ {
		act := policy(r, step)
		r, err = do(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{
			Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{int64(len(r.GetEnvIds())), 1, slots}, Data: act}}}})
		if err == nil {
			count.Add(int64(len(r.GetEnvIds())))
		}
	}
	return err
}

// policy picks a legal direction per unit slot from the action mask.
func policy(r *jgymv1.StepResult, step int) []byte {
	mask := r.GetObservation()["action_mask"].GetData()
	n := len(r.GetEnvIds())
	act := make([]byte, n*slots)
	for s := range act {
		row := mask[s*dirs : (s+1)*dirs]
		d := int(uint32(s*2654435761) ^ uint32(step*40503))
		d %= dirs
		if d < 0 {
			d += dirs
		}
		for k := 0; k < dirs && row[d] == 0; k++ {
			d = (d + 1) % dirs
		}
		act[s] = byte(d)
	}
	return act
}

func seats(bots ...string) []*jgymv1.SeatSpec {
	out := make([]*jgymv1.SeatSpec, len(bots))
	for i, b := range bots {
		out[i] = &jgymv1.SeatSpec{Bot: b}
	}
	return out
}

type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}
func (bearer) RequireTransportSecurity() bool { return false }

// dial connects with a token; window > 0 sets the client's receive window
// (the hostile streams use the smallest gRPC allows and never read).
func dial(addr, token string, window int32) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithPerRPCCredentials(bearer(token)),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64 << 20))}
	if window > 0 {
		opts = append(opts, grpc.WithInitialWindowSize(window), grpc.WithInitialConnWindowSize(window))
	}
	return grpc.NewClient(addr, opts...)
}

// hostileStats counts what the hostile client did.
type hostileStats struct {
	compiled, refused, streams atomic.Int64
	mu                         sync.Mutex
	refusal                    string
}

func (h *hostileStats) lastRefusal() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.refusal == "" {
		return "none"
	}
	return "last: " + h.refusal
}

// hostile starts the hostile client: 4 goroutines uploading fresh C++
// sources to compile, and two sessions whose streams ask for answers and
// never read them. It returns once they are in place; they stop with ctx.
func hostile(ctx context.Context, addr string, spin bool, hs *hostileStats, wg *sync.WaitGroup) error {
	conn, err := dial(addr, hostileToken, 64<<10)
	if err != nil {
		return err
	}
	c := jgymv1.NewJgymServiceClient(conn)
	seatsOf := seats("", "Demo", "Demo", "Demo")
	if spin {
		up, err := c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Game: game, Name: "AISpin.cc", Content: []byte(spinBot)})
		if err != nil {
			conn.Close()
			return fmt.Errorf("upload the spinning bot: %w", err)
		}
		seatsOf = seats("", up.Bot, "Demo", "Demo")
	}
	for k := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				src := slowSource(fmt.Sprintf("%d-%d-%d", k, i, time.Now().UnixNano()))
				_, err := c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Game: game, Name: fmt.Sprintf("AISlow%d.cc", k), Content: src})
				switch {
				case err == nil:
					hs.compiled.Add(1)
				case ctx.Err() == nil:
					hs.refused.Add(1)
					hs.mu.Lock()
					hs.refusal = err.Error()
					hs.mu.Unlock()
					select { // refused at once: try again soon, as a hostile client would
					case <-ctx.Done():
					case <-time.After(100 * time.Millisecond):
					}
				}
			}
		}()
	}
	for range 2 {
		n := int32(envsPerCl)
		if spin {
			n = 2 // two bots, six spinning processes a session
		}
		cr, err := c.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: game, NumEnvs: n, Seats: seatsOf})
		if err != nil {
			conn.Close()
			return fmt.Errorf("hostile session: %w", err)
		}
		st, err := c.Stream(ctx)
		if err != nil {
			conn.Close()
			return err
		}
		for range 3 { // three answers asked for, none read
			if err := st.Send(&jgymv1.StreamRequest{SessionId: cr.SessionId, Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{}}}); err != nil {
				conn.Close()
				return err
			}
		}
		hs.streams.Add(1)
	}
	wg.Add(1)
	go func() { // leaves: every call cancelled, the connection closed
		defer wg.Done()
		<-ctx.Done()
		conn.Close()
	}()
	return nil
}

// slowSource is a bot whose compilation takes the compiler seconds: many
// functions with loops at -O2. salt makes each upload a new build.
func slowSource(salt string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "#include \"Player.hh\"\n// %s\n", salt)
	for k := range 3000 {
		fmt.Fprintf(&b, "int f%d(int x) { int s = %d; for (int i = 0; i < x; ++i) s += (i * %d) ^ (s >> 3); return s; }\n", k, k, k+1)
	}
	b.WriteString("#define PLAYER_NAME Slow\nstruct PLAYER_NAME : public Player {\n static Player* factory() { return new PLAYER_NAME; }\n" +
		" virtual void play() { if (f1(round()) == 7) cerr << 7; }\n};\nRegisterPlayer(PLAYER_NAME);\n")
	return []byte(b.String())
}

// spinBot starts three processes that leave its process group and spin,
// then plays as the Null bot.
const spinBot = `#include "Player.hh"
#include <unistd.h>
__attribute__((constructor)) static void spin() {
  for (int i = 0; i < 3; ++i) if (fork() == 0) { setsid(); if (fork() == 0) { for (;;) {} } _exit(0); }
}
#define PLAYER_NAME Spin
struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }
  virtual void play() {}
};
RegisterPlayer(PLAYER_NAME);
`

func snapshot(c []atomic.Int64) []int64 {
	out := make([]int64, len(c))
	for i := range c {
		out[i] = c[i].Load()
	}
	return out
}

func report(name string, rates []float64) {
	s := append([]float64(nil), rates...)
	sort.Float64s(s)
	fmt.Printf("%-32s env-steps/s: all %7.0f, per client min %5.0f median %5.0f max %5.0f\n", name, sum(rates), s[0], s[len(s)/2], s[len(s)-1])
}

func sum(x []float64) float64 {
	t := 0.0
	for _, v := range x {
		t += v
	}
	return t
}

// worst returns the largest relative drop of a client's rate, in percent.
func worst(alone, beside []float64) float64 {
	w := 0.0
	for i := range alone {
		if alone[i] > 0 {
			w = min(w, 100*(beside[i]-alone[i])/alone[i])
		}
	}
	return w
}

// rss returns the resident memory of a process (VmRSS), in bytes.
func rss(pid int) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(b), "processor\t:")
}

// freeAddr returns a loopback address with a port free now.
func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func waitHealthy(maddr string) error {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get("http://" + maddr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
	}
	return errors.New("the server did not become healthy")
}

// scrape returns the lines of the server's metrics that start with one
// of names.
func scrape(maddr string, names ...string) string {
	resp, err := http.Get("http://" + maddr + "/metrics")
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		for _, n := range names {
			if strings.HasPrefix(sc.Text(), n) {
				out = append(out, sc.Text())
			}
		}
	}
	return strings.Join(out, ", ")
}
