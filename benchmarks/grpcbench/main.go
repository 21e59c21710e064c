// Command grpcbench measures a game's env-steps per second in process
// (vec.Pool) and through the jgym server from a Go client over TCP
// loopback, for several numbers of envs, and writes the figures to a JSON
// results file that later runs can be compared with. -game picks the game
// (Crematoria by default).
//
// Every env has one learner seat and three Demo bots; the learner gets the
// full observation and plays a legal direction per unit picked from the
// action mask, the same cheap policy on both paths.
//
// In process, the envs are stepped synchronously through one vec.Pool, and
// through two pools of half the envs each stepped by its own goroutine; the
// better of the two is the reference of the ratios. Through the server:
// one session answering one request per batch (raw observations, then
// deltas); one session with the batch split in two halves, a request for
// each in flight; and two sessions of half the envs, a request in flight on
// each (the server steps sessions in parallel).
//
//	go run ./benchmarks/grpcbench -envs 1,16,64,256 -duration 3s -repeat 3 -out benchmarks/results/grpcbench.json
//
// With -addr it benchmarks a running server instead of starting one.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/experimental"
	"google.golang.org/protobuf/proto"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/env/crematoria"
	_ "jgym/env/crematoria/riddick" // registers Riddick, Crematoria's strong bot
	"jgym/env/dominator"
	_ "jgym/env/dominator/khan" // registers Khan, Dominator's strong bot
	"jgym/env/moria"
	"jgym/env/pandemic"
	"jgym/game"
	"jgym/server"
	"jgym/vec"
)

// games are the games -game picks from.
var games = []game.Entry{crematoria.Def, dominator.Def, pandemic.Def, moria.Def}

// theGame is the game measured (-game); slots and dirs are the shape of
// its action mask, the observation tensor at maskAt.
var (
	theGame             env.Game
	slots, dirs, maskAt int
)

// pickGame sets theGame and the mask's shape from the game named name
// (its name or env id, any case).
func pickGame(name string) error {
	for _, e := range games {
		if strings.EqualFold(e.ID(), name) || strings.EqualFold(strings.TrimSuffix(e.ID(), "-v0"), name) {
			theGame = e.Env(nil)
			for i, t := range theGame.Spec().Observation {
				if t.Name == "action_mask" && len(t.Shape) == 2 {
					maskAt, slots, dirs = i, t.Shape[0], t.Shape[1]
					return nil
				}
			}
			return fmt.Errorf("%s has no action_mask tensor", e.ID())
		}
	}
	return fmt.Errorf("unknown game %q (Crematoria, Dominator, Pandemic, Moria)", name)
}

// onlyPaths selects loopback paths by name (-paths).
var onlyPaths string

// pipeDepth is the number of parts of a batch in flight in the pipelined
// measure (-pipeline).
var pipeDepth = 2

// dialOpts say how to reach the server of -addr (its token and TLS).
var dialOpts server.DialOptions

// path is one loopback measurement of a point.
type path struct {
	Name      string  `json:"name"`
	Rate      float64 `json:"env_steps_per_s"`
	Ratio     float64 `json:"over_in_process"`
	CPU       float64 `json:"cpu_us_per_env_step"`
	RespBytes int     `json:"response_bytes_per_batch"`
}

// point is one number of envs.
type point struct {
	Envs int `json:"envs"`
	// InProcess is the best in-process rate (one pool, or two pools of
	// half the envs), the reference of the ratios.
	InProcess    float64 `json:"in_process_env_steps_per_s"`
	InProcessCPU float64 `json:"in_process_cpu_us_per_env_step"`
	Pools        []pools `json:"in_process"`
	Loopback     []path  `json:"loopback"`
}

// pools is one in-process measurement: the envs in that many pools.
type pools struct {
	Pools int     `json:"pools"`
	Rate  float64 `json:"env_steps_per_s"`
	CPU   float64 `json:"cpu_us_per_env_step"`
}

// rate is a measurement: env steps per wall-clock second, and the
// process's CPU time (user + system, server and client together) per env
// step, which other processes on the machine do not inflate.
type rate struct {
	perSecond float64
	cpuUs     float64
}

// best keeps the faster rate and the smaller CPU time of two runs.
func best(a, b rate) rate {
	if a.perSecond == 0 {
		return b
	}
	return rate{max(a.perSecond, b.perSecond), min(a.cpuUs, b.cpuUs)}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

type results struct {
	Date     string  `json:"date"`
	GoVer    string  `json:"go"`
	CPUs     int     `json:"cpus"`
	Load     string  `json:"load_average_before"`
	Duration string  `json:"duration_per_point"`
	Workers  int     `json:"workers"`
	Repeat   int     `json:"best_of"`
	Game     string  `json:"game"`
	Seats    string  `json:"seats"`
	Points   []point `json:"points"`
}

func main() {
	gameName := flag.String("game", "Crematoria", "the game: Crematoria, Dominator, Pandemic, Moria")
	envList := flag.String("envs", "1,16,64,256", "comma-separated numbers of envs")
	dur := flag.Duration("duration", 5*time.Second, "measuring time per point and path")
	warm := flag.Duration("warmup", time.Second, "warm-up time per point and path")
	addr := flag.String("addr", "", "benchmark this server instead of starting one on 127.0.0.1")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "worker goroutines per pool")
	out := flag.String("out", "benchmarks/results/grpcbench.json", "results file (run from the repository root)")
	repeat := flag.Int("repeat", 1, "measure each point this many times and keep the best (filters out other processes' load)")
	skipInProcess := flag.Bool("loopback-only", false, "measure only the server path (for profiling it)")
	flag.StringVar(&onlyPaths, "paths", "", "measure only the loopback paths whose names contain this text (e.g. sessions)")
	flag.StringVar(&dialOpts.Token, "token", os.Getenv("JGYM_TOKEN"), "with -addr: the server's token (default $JGYM_TOKEN)")
	flag.StringVar(&dialOpts.CAFile, "tls-ca", os.Getenv("JGYM_TLS_CA"), "with -addr: reach the server over TLS, trusting this CA's PEM (default $JGYM_TLS_CA)")
	flag.StringVar(&dialOpts.CertFile, "tls-cert", "", "with -addr: this client's certificate (mutual TLS)")
	flag.StringVar(&dialOpts.KeyFile, "tls-key", "", "with -addr: the key of -tls-cert")
	flag.IntVar(&pipeDepth, "pipeline", 2, "parts of the batch in flight in the pipelined measure")
	cpuprof := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	traceOut := flag.String("trace", "", "write an execution trace of the whole run to this file (go tool trace)")
	flag.Parse()
	if err := pickGame(*gameName); err != nil {
		fmt.Fprintln(os.Stderr, "grpcbench:", err)
		os.Exit(2)
	}
	stopTrace := record(*traceOut, trace.Start, trace.Stop)
	defer stopTrace()
	stopProfile := record(*cpuprof, pprof.StartCPUProfile, pprof.StopCPUProfile)
	defer stopProfile()
	if err := run(*envList, *dur, *warm, *addr, *workers, *repeat, *out, *skipInProcess); err != nil {
		fmt.Fprintln(os.Stderr, "grpcbench:", err)
		stopProfile()
		stopTrace()
		os.Exit(1)
	}
}

// record starts a recording (CPU profile, execution trace) into the file
// path, when path is not empty, and returns the function that stops it.
func record(path string, start func(io.Writer) error, stop func()) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = start(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpcbench:", err)
		os.Exit(1)
	}
	return func() { stop(); f.Close() }
}

func run(envList string, dur, warm time.Duration, addr string, workers, repeat int, out string, loopbackOnly bool) error {
	var ns []int
	for _, f := range strings.Split(envList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("bad -envs entry %q", f)
		}
		ns = append(ns, n)
	}
	load, _ := os.ReadFile("/proc/loadavg")
	res := results{Date: time.Now().UTC().Format(time.RFC3339), GoVer: runtime.Version(), CPUs: runtime.NumCPU(),
		Load: strings.TrimSpace(string(load)), Duration: dur.String(), Workers: workers, Repeat: repeat, Game: theGame.Spec().ID, Seats: "learner, Demo, Demo, Demo"}
	seats := []string{"", "Demo", "Demo", "Demo"}
	remote := addr != ""
	if addr == "" {
		reg, err := env.NewRegistry(theGame)
		if err != nil {
			return err
		}
		srv, err := server.New(reg, server.WithWorkers(workers))
		if err != nil {
			return err
		}
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		ctx, cancel := context.WithCancel(zerolog.Nop().WithContext(context.Background()))
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, lis) }()
		defer func() { cancel(); <-done }()
		addr = lis.Addr().String()
	}
	if !remote {
		dialOpts = server.DialOptions{}
	}
	// server.Dial says why a server refuses (TLS, a token) instead of
	// failing on the first step.
	conn, err := server.Dial(context.Background(), addr, dialOpts,
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20), grpc.ForceCodecV2(server.Codec())),
		grpc.WithInitialWindowSize(8<<20), grpc.WithInitialConnWindowSize(16<<20),
		grpc.WithReadBufferSize(256<<10), grpc.WithWriteBufferSize(256<<10),
		experimental.WithBufferPool(server.BufferPool()))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := jgymv1.NewJgymServiceClient(conn)
	wires := []struct {
		name string
		w    wire
	}{
		{"raw", wire{}},
		{"delta", wire{delta: true}},
		{fmt.Sprintf("delta, %d in flight", pipeDepth), wire{delta: true, depth: pipeDepth}},
		{fmt.Sprintf("delta, %d sessions", pipeDepth), wire{delta: true, depth: pipeDepth, sessions: true}},
	}
	if onlyPaths != "" {
		kept := wires[:0]
		for _, w := range wires {
			if strings.Contains(w.name, onlyPaths) {
				kept = append(kept, w)
			}
		}
		if len(kept) == 0 {
			return fmt.Errorf("-paths %q matches no path", onlyPaths)
		}
		wires = kept
	}
	poolCounts := []int{1, pipeDepth}
	fmt.Printf("| envs | in process: 1 pool, %d pools | ", pipeDepth)
	for _, w := range wires {
		fmt.Printf("loopback %s (/ best in process) | ", w.name)
	}
	fmt.Printf("CPU µs/env-step: in process")
	for _, w := range wires {
		fmt.Printf(", %s", w.name)
	}
	fmt.Printf(" | bytes/batch |\n|---:|---:|%s---:|---:|\n", strings.Repeat("---:|", len(wires)))
	for _, n := range ns {
		ips := make([]rate, len(poolCounts))
		lbs := make([]rate, len(wires))
		sizes := make([]int, len(wires))
		for k := 0; k < max(repeat, 1); k++ {
			for i, pc := range poolCounts {
				if loopbackOnly || pc > n || (i > 0 && pc == poolCounts[0]) {
					continue
				}
				r, err := inProcess(n, pc, seats, workers, dur, warm)
				if err != nil {
					return err
				}
				ips[i] = best(ips[i], r)
			}
			for i, w := range wires {
				if w.w.depth > n {
					continue // fewer envs than parts: the same as one part
				}
				r, size, err := loopback(client, n, seats, dur, warm, w.w)
				if err != nil {
					return fmt.Errorf("loopback %s, %d envs: %w", w.name, n, err)
				}
				lbs[i], sizes[i] = best(lbs[i], r), size
			}
		}
		var ip rate
		p := point{Envs: n}
		for i, r := range ips {
			if r.perSecond == 0 {
				continue
			}
			p.Pools = append(p.Pools, pools{Pools: poolCounts[i], Rate: r.perSecond, CPU: r.cpuUs})
			if r.perSecond > ip.perSecond {
				ip = r
			}
		}
		p.InProcess, p.InProcessCPU = ip.perSecond, ip.cpuUs
		fmt.Printf("| %d | %s, %s | ", n, orDash("%.0f", ips[0].perSecond), orDash("%.0f", ips[1].perSecond))
		for i, w := range wires {
			if lbs[i].perSecond == 0 {
				fmt.Printf("- | ")
				continue
			}
			lp := path{Name: w.name, Rate: lbs[i].perSecond, CPU: lbs[i].cpuUs, RespBytes: sizes[i]}
			if ip.perSecond > 0 {
				lp.Ratio = lbs[i].perSecond / ip.perSecond
			}
			p.Loopback = append(p.Loopback, lp)
			fmt.Printf("%.0f (%.2f) | ", lp.Rate, lp.Ratio)
		}
		fmt.Printf("%.1f", ip.cpuUs)
		for i := range wires {
			fmt.Printf(", %s", orDash("%.1f", lbs[i].cpuUs))
		}
		fmt.Printf(" | %v |\n", sizes)
		res.Points = append(res.Points, p)
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// orDash formats x, or "-" for a point that was not measured (0).
func orDash(format string, x float64) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf(format, x)
}

// policy writes a legal direction per slot, picked from the mask with a
// hash of (env, round, slot).
func policy(act, mask []byte, ids []int32, round int) {
	for k, id := range ids {
		for s := 0; s < slots; s++ {
			row := mask[(k*slots+s)*dirs : (k*slots+s+1)*dirs]
			h := uint32(id)*2654435761 ^ uint32(round)*40503 ^ uint32(s)*97
			d := int(h % uint32(dirs))
			for row[d] == 0 {
				d = (d + 1) % dirs
			}
			act[k*slots+s] = byte(d)
		}
	}
}

// measure calls step until warm+dur has passed and returns the rate over
// dur.
func measure(n int, dur, warm time.Duration, step func(round int) error) (rate, error) {
	round := 0
	end := time.Now().Add(warm)
	for ; time.Now().Before(end); round++ {
		if err := step(round); err != nil {
			return rate{}, err
		}
	}
	start, cpu0 := time.Now(), cpuTime()
	steps := 0
	for ; time.Since(start) < dur; round++ {
		if err := step(round); err != nil {
			return rate{}, err
		}
		steps += n
	}
	wall, cpu := time.Since(start), cpuTime()-cpu0
	return rate{float64(steps) / wall.Seconds(), float64(cpu.Microseconds()) / float64(steps)}, nil
}

// inProcess measures n envs stepped through vec.Pool in this process: one
// pool of n envs, or (pools > 1) that many pools of n/pools envs, each
// stepped by its own goroutine, the in-process counterpart of a client
// with several sessions.
func inProcess(n, pools int, seats []string, workers int, dur, warm time.Duration) (rate, error) {
	if pools == 1 {
		return stepPool(n, seats, workers, dur, warm)
	}
	type out struct {
		r   rate
		err error
	}
	outs := make(chan out, pools)
	cpu0 := cpuTime()
	for k := range pools {
		size := (k+1)*n/pools - k*n/pools
		go func() {
			r, err := stepPool(size, seats, workers, dur, warm)
			outs <- out{r, err}
		}()
	}
	var (
		total rate
		err   error
	)
	for range pools {
		o := <-outs
		if o.err != nil {
			err = o.err
		}
		total.perSecond += o.r.perSecond
	}
	if err != nil {
		return rate{}, err
	}
	// The pools ran together: CPU per env step over the whole run.
	total.cpuUs = float64((cpuTime() - cpu0).Microseconds()) / (total.perSecond * (dur + warm).Seconds())
	return total, nil
}

// stepPool measures one pool of n envs stepped synchronously.
func stepPool(n int, seats []string, workers int, dur, warm time.Duration) (rate, error) {
	f, err := theGame.NewFactory(env.Setup{Seats: seats})
	if err != nil {
		return rate{}, err
	}
	defer f.Close()
	p, err := vec.New(f, n, vec.WithWorkers(workers))
	if err != nil {
		return rate{}, err
	}
	defer p.Close()
	ctx := context.Background()
	b, err := p.Reset(ctx, nil, 1)
	if err != nil {
		return rate{}, err
	}
	act := make([]byte, n*slots)
	return measure(n, dur, warm, func(round int) error {
		policy(act, b.Obs[maskAt], b.EnvIDs, round)
		b, err = p.Step(ctx, nil, act, nil)
		return err
	})
}

// wire is how the loopback client talks to the server.
type wire struct {
	delta    bool // observation_delta, decoded by the client
	depth    int  // parts of the batch in flight (1: one request, one answer)
	sessions bool // each part in a session (and stream) of its own
}

// conn is one session of the loopback client: its stream and the full
// observations of its envs (also the delta references), per tensor.
type conn struct {
	id   string
	st   jgymv1.JgymService_StreamClient
	full map[string][]byte
}

// loopback steps n envs through the server: the batch is split into
// w.depth parts, all sent at once; then each answer is decoded
// (observations rebuilt from deltas with w.delta) and the part's next
// actions sent, so that with depth 2 the server steps one half while the
// client picks actions for the other. The parts are ranges of env ids of
// one synchronous session, or with w.sessions sessions of their own, which
// the server steps independently. Each request gets its answer, in order. It returns the rate
// and the size of a whole batch's answers.
func loopback(c jgymv1.JgymServiceClient, n int, seats []string, dur, warm time.Duration, w wire) (rate, int, error) {
	depth := min(max(w.depth, 1), n)
	ctx := context.Background()
	nsess := 1
	if w.sessions {
		nsess = depth
	}
	var per map[string]int
	conns := make([]*conn, nsess)
	for k := range conns {
		size := (k+1)*n/nsess - k*n/nsess
		req := &jgymv1.CreateSessionRequest{Game: theGame.Spec().ID, NumEnvs: int32(size), ObservationDelta: w.delta,
			SeedStride: int32(n)}
		for _, s := range seats {
			req.Seats = append(req.Seats, &jgymv1.SeatSpec{Bot: s})
		}
		cr, err := c.CreateSession(ctx, req)
		if err != nil {
			return rate{}, 0, err
		}
		defer c.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
		st, err := c.Stream(ctx)
		if err != nil {
			return rate{}, 0, err
		}
		defer func() { st.CloseSend(); st.Recv() }()
		if per == nil { // bytes per env of each tensor, the same in every session
			per = map[string]int{}
			for _, ts := range cr.GetGame().GetObservation() {
				b := 1
				for _, d := range ts.GetShape() {
					b *= int(d)
				}
				if ts.GetDtype() == jgymv1.Dtype_DTYPE_FLOAT32 || ts.GetDtype() == jgymv1.Dtype_DTYPE_INT32 {
					b *= 4
				}
				per[ts.GetName()] = b
			}
		}
		cn := &conn{id: cr.SessionId, st: st, full: map[string][]byte{}}
		for name, b := range per {
			cn.full[name] = make([]byte, size*b)
		}
		conns[k] = cn
		if err := st.Send(&jgymv1.StreamRequest{SessionId: cn.id, Kind: &jgymv1.StreamRequest_Reset_{
			Reset_: &jgymv1.ResetRequest{Seed: int64(k * n / nsess), SeedGiven: true}}}); err != nil {
			return rate{}, 0, err
		}
		first, err := st.Recv()
		if err != nil {
			return rate{}, 0, err
		}
		if err := decode(cn, per, first.GetResult()); err != nil {
			return rate{}, 0, err
		}
	}
	type part struct {
		cn  *conn
		lo  int // first env id in the session
		ids []int32
		act []byte
		req *jgymv1.StreamRequest
	}
	parts := make([]part, depth)
	for h := range parts {
		p := &parts[h]
		lo, hi := h*n/depth, (h+1)*n/depth
		if w.sessions {
			p.cn = conns[h]
			lo, hi = 0, hi-lo
		} else {
			p.cn = conns[0]
		}
		p.lo = lo
		for id := lo; id < hi; id++ {
			p.ids = append(p.ids, int32(id))
		}
		p.act = make([]byte, (hi-lo)*slots)
		p.req = &jgymv1.StreamRequest{SessionId: p.cn.id, Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{EnvIds: p.ids,
			Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{int64(hi - lo), 1, int64(slots)}, Data: p.act}}}}
		mask := p.cn.full["action_mask"]
		policy(p.act, mask[lo*slots*dirs:hi*slots*dirs], p.ids, 0)
		if err := p.cn.st.Send(p.req); err != nil {
			return rate{}, 0, err
		}
	}
	// Each call of step receives one part's answer and sends its next
	// actions; measure counts n/depth env steps per call.
	h, bytes, calls := 0, 0, 0
	rt, err := measure(n/depth, dur, warm, func(round int) error {
		p := &parts[h]
		resp, err := p.cn.st.Recv()
		if err != nil {
			return err
		}
		if err := decode(p.cn, per, resp.GetResult()); err != nil {
			return err
		}
		mask := p.cn.full["action_mask"]
		policy(p.act, mask[p.lo*slots*dirs:(p.lo+len(p.ids))*slots*dirs], p.ids, round)
		bytes += proto.Size(resp)
		calls++
		h = (h + 1) % depth
		return p.cn.st.Send(p.req)
	})
	// Answers still in flight are drained by the deferred CloseSend.
	if calls > 0 {
		bytes = bytes * depth / calls // mean answer size for the whole batch
	}
	return rt, bytes, err
}

// decode writes an answer's observations into the session's full
// observations, by env id.
func decode(cn *conn, per map[string]int, r *jgymv1.StepResult) error {
	ids := r.GetEnvIds()
	for name, t := range r.GetObservation() {
		p := per[name]
		full := cn.full[name]
		if t.GetEncoding() == jgymv1.TensorEncoding_TENSOR_ENCODING_WORD_DELTA {
			// Consecutive ids (the parts are ranges): decode in place;
			// the references are the full observations.
			lo := int(ids[0])
			if err := server.ApplyDelta(full[lo*p:(lo+len(ids))*p], t.GetData(), ids, full, p); err != nil {
				return err
			}
			continue
		}
		for k, id := range ids {
			copy(full[int(id)*p:], t.GetData()[k*p:(k+1)*p])
		}
	}
	return nil
}
