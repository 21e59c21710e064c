package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	jgymv1 "jgym/api/jgym/v1"
)

func TestServeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--log-level", "loud"}, "log-level"},
		{[]string{"--log-format", "xml"}, "log-format"},
		{[]string{"extra"}, "unexpected arguments"},
		{[]string{"--max-envs", "0"}, "limits"},
		{[]string{"--idle-timeout", "2h"}, "idle timeout"},
	} {
		var stderr bytes.Buffer
		err := runServe(context.Background(), c.args, io.Discard, &stderr)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("serve %v = %v, want a usage error about %q", c.args, err, c.want)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:50051": true, "localhost:1": true, "[::1]:9": true, "127.3.4.5:1": true,
		"0.0.0.0:50051": false, ":50051": false, "10.0.0.1:1": false, "bad": false,
	} {
		if got := isLoopback(addr); got != want {
			t.Errorf("isLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestServe runs jgym serve on 127.0.0.1 with metrics, plays a few steps,
// scrapes the metrics, then stops it as SIGTERM would (context
// cancellation) and checks the logs are JSON.
func TestServe(t *testing.T) {
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx = zerolog.New(&logs).WithContext(ctx)
	cfg := defaultServeConfig()
	cfg.addr, cfg.metricsAddr, cfg.workers, cfg.maxEnvsPerSession = "127.0.0.1:0", "127.0.0.1:0", 2, 64
	cfg.maxEnvs, cfg.maxSessions, cfg.idleTimeout, cfg.shutdownGrace = 128, 4, time.Minute, 2*time.Second
	addrs := make(chan [2]net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, cfg, func(g, m net.Addr) { addrs <- [2]net.Addr{g, m} })
	}()
	var a [2]net.Addr
	select {
	case a = <-addrs:
	case err := <-done:
		t.Fatalf("serve: %v", err)
	}
	conn, err := grpc.NewClient(a[0].String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	hc, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || hc.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health: %v %v", hc, err)
	}
	c := jgymv1.NewJgymServiceClient(conn)
	cr, err := c.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: "Crematoria-v0", NumEnvs: 2,
		Seats: []*jgymv1.SeatSpec{{}, {Bot: "Demo"}, {Bot: "Null"}, {Bot: "Demo"}}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	send := func(r *jgymv1.StreamRequest) {
		t.Helper()
		r.SessionId = cr.SessionId
		if err := st.Send(r); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Recv(); err != nil {
			t.Fatal(err)
		}
	}
	send(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{Seed: 1, SeedGiven: true}}})
	for i := 0; i < 3; i++ {
		send(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{
			Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{2, 1, 80}, Data: make([]byte, 160)}}}})
	}
	resp, err := http.Get("http://" + a[1].String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "jgym_env_steps_total 6") {
		t.Errorf("metrics lack jgym_env_steps_total 6:\n%s", body)
	}
	for _, want := range []string{"go_goroutines ", "process_open_fds ", "process_resident_memory_bytes ", "jgym_bot_processes 0"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if resp, err := http.Get("http://" + a[1].String() + "/healthz"); err != nil || resp.StatusCode != 200 {
		t.Errorf("/healthz: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	st.CloseSend()
	st.Recv()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v after cancel", err)
	}
	out := logs.String()
	for _, want := range []string{`"message":"serving"`, `"message":"session created"`, `"message":"stopped"`} {
		if !strings.Contains(out, want) {
			t.Errorf("logs lack %s:\n%s", want, out)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
