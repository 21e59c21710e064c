// Command grpcbench measures Crematoria env-steps per second in process
// (vec.Pool) and through the jgym server from a Go client over TCP
// loopback, for several numbers of envs, and writes the figures to a JSON
// results file that later runs can be compared with.
//
// Every env has one learner seat and three Demo bots; the learner gets the
// full observation and plays a legal direction per unit picked from the
// action mask, the same cheap policy on both paths.
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
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/experimental"
	"google.golang.org/protobuf/proto"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/env/crematoria"
	"jgym/server"
	"jgym/vec"
)

const slots, dirs = 80, 11

// pipeDepth is the number of parts of a batch in flight in the pipelined
// measure (-pipeline).
var pipeDepth = 2

// point is one measurement.
type point struct {
	Envs          int     `json:"envs"`
	InProcess     float64 `json:"in_process_env_steps_per_s"`
	Loopback      float64 `json:"loopback_env_steps_per_s"`
	Ratio         float64 `json:"loopback_over_in_process"`
	InProcessCPU  float64 `json:"in_process_cpu_us_per_env_step"`
	LoopbackCPU   float64 `json:"loopback_cpu_us_per_env_step"`
	Pipelined     float64 `json:"pipelined_env_steps_per_s"`
	PipeRatio     float64 `json:"pipelined_over_in_process"`
	PipelinedCPU  float64 `json:"pipelined_cpu_us_per_env_step"`
	BytesPerBatch int     `json:"response_bytes_per_batch"`
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
	Seats    string  `json:"seats"`
	Points   []point `json:"points"`
}

func main() {
	envList := flag.String("envs", "1,16,64,256", "comma-separated numbers of envs")
	dur := flag.Duration("duration", 5*time.Second, "measuring time per point and path")
	warm := flag.Duration("warmup", time.Second, "warm-up time per point and path")
	addr := flag.String("addr", "", "benchmark this server instead of starting one on 127.0.0.1")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "worker goroutines per pool")
	out := flag.String("out", "benchmarks/results/grpcbench.json", "results file (run from the repository root)")
	repeat := flag.Int("repeat", 1, "measure each point this many times and keep the best (filters out other processes' load)")
	skipInProcess := flag.Bool("loopback-only", false, "measure only the server path (for profiling it)")
	flag.IntVar(&pipeDepth, "pipeline", 2, "parts of the batch in flight in the pipelined measure")
	cpuprof := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "grpcbench:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if err := run(*envList, *dur, *warm, *addr, *workers, *repeat, *out, *skipInProcess); err != nil {
		fmt.Fprintln(os.Stderr, "grpcbench:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
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
		Load: strings.TrimSpace(string(load)), Duration: dur.String(), Workers: workers, Repeat: repeat, Seats: "learner, Demo, Demo, Demo"}
	seats := []string{"", "Demo", "Demo", "Demo"}
	if addr == "" {
		reg, err := env.NewRegistry(crematoria.NewEnv())
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
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20)),
		grpc.WithInitialWindowSize(8<<20), grpc.WithInitialConnWindowSize(16<<20),
		grpc.WithReadBufferSize(256<<10), grpc.WithWriteBufferSize(256<<10),
		experimental.WithBufferPool(server.BufferPool()))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := jgymv1.NewJgymServiceClient(conn)
	fmt.Printf("| envs | in-process env-steps/s | loopback env-steps/s | loopback / in-process | pipelined env-steps/s | pipelined / in-process | in-process CPU µs/env-step | loopback CPU µs/env-step | pipelined CPU µs/env-step | response bytes/batch |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, n := range ns {
		var ip, lb, pl rate
		var bytes int
		for k := 0; k < max(repeat, 1); k++ {
			if !loopbackOnly {
				r, err := inProcess(n, seats, workers, dur, warm)
				if err != nil {
					return err
				}
				ip = best(ip, r)
			}
			r, b, err := loopback(client, n, seats, dur, warm)
			bytes = b
			if err != nil {
				return err
			}
			lb = best(lb, r)
			if r, err = loopbackPipelined(client, n, seats, dur, warm); err != nil {
				return err
			}
			pl = best(pl, r)
		}
		p := point{Envs: n, InProcess: ip.perSecond, Loopback: lb.perSecond, InProcessCPU: ip.cpuUs,
			LoopbackCPU: lb.cpuUs, Pipelined: pl.perSecond, PipelinedCPU: pl.cpuUs, BytesPerBatch: bytes}
		if ip.perSecond > 0 {
			p.Ratio, p.PipeRatio = lb.perSecond/ip.perSecond, pl.perSecond/ip.perSecond
		}
		res.Points = append(res.Points, p)
		fmt.Printf("| %d | %.0f | %.0f | %.2f | %.0f | %.2f | %.1f | %.1f | %.1f | %d |\n", n, p.InProcess, p.Loopback, p.Ratio,
			p.Pipelined, p.PipeRatio, p.InProcessCPU, p.LoopbackCPU, p.PipelinedCPU, bytes)
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

// policy writes a legal direction per slot, picked from the mask with a
// hash of (env, round, slot).
func policy(act, mask []byte, ids []int32, round int) {
	for k, id := range ids {
		for s := 0; s < slots; s++ {
			row := mask[(k*slots+s)*dirs : (k*slots+s+1)*dirs]
			h := uint32(id)*2654435761 ^ uint32(round)*40503 ^ uint32(s)*97
			d := int(h % dirs)
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

func inProcess(n int, seats []string, workers int, dur, warm time.Duration) (rate, error) {
	f, err := crematoria.NewEnv().NewFactory(env.Setup{Seats: seats})
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
		policy(act, b.Obs[3], b.EnvIDs, round)
		b, err = p.Step(ctx, nil, act, nil)
		return err
	})
}

func loopback(c jgymv1.JgymServiceClient, n int, seats []string, dur, warm time.Duration) (rate, int, error) {
	ctx := context.Background()
	req := &jgymv1.CreateSessionRequest{Game: crematoria.EnvID, NumEnvs: int32(n)}
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
	do := func(r *jgymv1.StreamRequest) (*jgymv1.StepResult, error) {
		r.SessionId = cr.SessionId
		if err := st.Send(r); err != nil {
			return nil, err
		}
		resp, err := st.Recv()
		return resp.GetResult(), err
	}
	r, err := do(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{Seed: 1, SeedGiven: true}}})
	if err != nil {
		return rate{}, 0, err
	}
	act := make([]byte, n*slots)
	stepReq := &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{
		Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{int64(n), 1, slots}, Data: act}}}}
	bytes := 0
	rt, err := measure(n, dur, warm, func(round int) error {
		policy(act, r.GetObservation()["action_mask"].GetData(), r.GetEnvIds(), round)
		var err error
		r, err = do(stepReq)
		if err == nil && bytes == 0 {
			bytes = protoSize(r)
		}
		return err
	})
	return rt, bytes, err
}

// protoSize is the encoded size of a batch's answer.
func protoSize(r *jgymv1.StepResult) int {
	return proto.Size(&jgymv1.StreamResponse{Result: r})
}

// loopbackPipelined is loopback with two half batches in flight on the
// stream: while the client picks actions for one half, the server steps
// the other. Each request still gets its answer, in order; the session is
// synchronous. With one env it is the same as loopback.
func loopbackPipelined(c jgymv1.JgymServiceClient, n int, seats []string, dur, warm time.Duration) (rate, error) {
	if n < pipeDepth {
		r, _, err := loopback(c, n, seats, dur, warm)
		return r, err
	}
	ctx := context.Background()
	req := &jgymv1.CreateSessionRequest{Game: crematoria.EnvID, NumEnvs: int32(n)}
	for _, s := range seats {
		req.Seats = append(req.Seats, &jgymv1.SeatSpec{Bot: s})
	}
	cr, err := c.CreateSession(ctx, req)
	if err != nil {
		return rate{}, err
	}
	defer c.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: cr.SessionId})
	st, err := c.Stream(ctx)
	if err != nil {
		return rate{}, err
	}
	defer func() { st.CloseSend(); st.Recv() }()
	if err := st.Send(&jgymv1.StreamRequest{SessionId: cr.SessionId,
		Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{Seed: 1, SeedGiven: true}}}); err != nil {
		return rate{}, err
	}
	first, err := st.Recv()
	if err != nil {
		return rate{}, err
	}
	// The two halves: env ids, action buffers and requests.
	halves := make([]struct {
		ids []int32
		act []byte
		req *jgymv1.StreamRequest
	}, pipeDepth)
	mask := first.GetResult().GetObservation()["action_mask"].GetData()
	for h := range halves {
		lo, hi := h*n/pipeDepth, (h+1)*n/pipeDepth
		hv := &halves[h]
		for id := lo; id < hi; id++ {
			hv.ids = append(hv.ids, int32(id))
		}
		hv.act = make([]byte, (hi-lo)*slots)
		policy(hv.act, mask[lo*slots*dirs:hi*slots*dirs], hv.ids, 0)
		hv.req = &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{EnvIds: hv.ids,
			Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{int64(hi - lo), 1, slots}, Data: hv.act}}}}
	}
	for h := range halves {
		if err := st.Send(halves[h].req); err != nil {
			return rate{}, err
		}
	}
	// Each call of step receives one half's answer and sends its next
	// actions: n/2 env steps. measure counts n per call, so it is given n/2.
	h := 0
	return measure(n/pipeDepth, dur, warm, func(round int) error {
		resp, err := st.Recv()
		if err != nil {
			return err
		}
		hv := &halves[h]
		r := resp.GetResult()
		policy(hv.act, r.GetObservation()["action_mask"].GetData(), r.GetEnvIds(), round)
		h = (h + 1) % pipeDepth
		return st.Send(hv.req)
	})
}
