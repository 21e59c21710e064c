package server_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math"
	"net"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/env/crematoria"
	"jgym/server"
)

const (
	slots = 80
	dirs  = 11
	game  = "Crematoria-v0"
)

// testServer is a running server and a client connection to it.
type testServer struct {
	srv    *server.Server
	client jgymv1.JgymServiceClient
	conn   *grpc.ClientConn
	stop   func() // cancels Serve and waits for it
	target string
	dialOp []grpc.DialOption
}

// dial connects another client, sending token (if not empty) with every
// call.
func (ts *testServer) dial(t testing.TB, token string) jgymv1.JgymServiceClient {
	t.Helper()
	opts := append([]grpc.DialOption(nil), ts.dialOp...)
	if token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearer(token)))
	}
	conn, err := grpc.NewClient(ts.target, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return jgymv1.NewJgymServiceClient(conn)
}

// bearer sends a token as "authorization: Bearer TOKEN" (also without
// TLS: the tests run on loopback and in memory).
type bearer string

func (b bearer) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}

func (bearer) RequireTransportSecurity() bool { return false }

// transports are the two ways tests reach a server: in memory and over
// real TCP on 127.0.0.1.
var transports = []string{"bufconn", "tcp"}

func registry(t testing.TB) *env.Registry {
	t.Helper()
	reg, err := env.NewRegistry(crematoria.Def.Host())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// start runs a server on the transport and connects a client; the server
// stops at the end of the test.
func start(t testing.TB, transport string, opts ...server.Option) *testServer {
	t.Helper()
	return startWith(t, transport, registry(t), "", opts...)
}

// startWith runs a server of reg; the first client sends token.
func startWith(t testing.TB, transport string, reg *env.Registry, token string, opts ...server.Option) *testServer {
	t.Helper()
	srv, err := server.New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	var lis net.Listener
	var dial []grpc.DialOption
	target := ""
	switch transport {
	case "bufconn":
		bl := bufconn.Listen(1 << 20)
		lis = bl
		target = "passthrough:///bufconn"
		dial = append(dial, grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return bl.DialContext(ctx) }))
	default:
		tl, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lis = tl
		target = tl.Addr().String()
	}
	_, maxResp := srv.MaxMessageBytes()
	dial = append(dial, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(int(maxResp)), grpc.MaxCallSendMsgSize(64<<20)),
		grpc.WithInitialWindowSize(8<<20), grpc.WithInitialConnWindowSize(16<<20))
	first := dial
	if token != "" {
		first = append(append([]grpc.DialOption(nil), dial...), grpc.WithPerRPCCredentials(bearer(token)))
	}
	conn, err := grpc.NewClient(target, first...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var logw io.Writer = io.Discard
	if testing.Verbose() {
		logw = zerolog.ConsoleWriter{Out: testWriter{t}, NoColor: true}
	}
	ctx = zerolog.New(logw).With().Timestamp().Logger().WithContext(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, lis) }()
	ts := &testServer{srv: srv, client: jgymv1.NewJgymServiceClient(conn), conn: conn, target: target, dialOp: dial}
	stopped := false
	ts.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve = %v", err)
		}
	}
	t.Cleanup(func() {
		conn.Close()
		ts.stop()
	})
	return ts
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(string(b))
	return len(b), nil
}

func seats(bots ...string) []*jgymv1.SeatSpec {
	out := make([]*jgymv1.SeatSpec, len(bots))
	for i, b := range bots {
		out[i] = &jgymv1.SeatSpec{Bot: b}
	}
	return out
}

// create makes a session; the request defaults to one learner and three
// Demo bots.
func (ts *testServer) create(t testing.TB, req *jgymv1.CreateSessionRequest) *jgymv1.CreateSessionResponse {
	t.Helper()
	if req.Game == "" {
		req.Game = game
	}
	if req.Seats == nil {
		req.Seats = seats("", "Demo", "Demo", "Demo")
	}
	resp, err := ts.client.CreateSession(context.Background(), req)
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	return resp
}

// stream is a Stream attached to one session.
type stream struct {
	t  testing.TB
	id string
	st jgymv1.JgymService_StreamClient
	l  int
}

func (ts *testServer) open(t testing.TB, id string, l int) *stream {
	t.Helper()
	st, err := ts.client.Stream(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		st.CloseSend()
		st.Recv() // wait for the server to end the stream
	})
	return &stream{t: t, id: id, st: st, l: l}
}

// do sends one request and returns its answer or the stream's status.
func (s *stream) do(req *jgymv1.StreamRequest) (*jgymv1.StepResult, error) {
	req.SessionId = s.id
	if err := s.st.Send(req); err != nil {
		_, err = s.st.Recv() // the status that ended the stream
		return nil, err
	}
	resp, err := s.st.Recv()
	if err != nil {
		return nil, err
	}
	return resp.GetResult(), nil
}

func (s *stream) must(req *jgymv1.StreamRequest) *jgymv1.StepResult {
	s.t.Helper()
	r, err := s.do(req)
	if err != nil {
		s.t.Fatalf("stream request %T: %v", req.GetKind(), err)
	}
	return r
}

func resetReq(seed int64) *jgymv1.StreamRequest {
	return &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{Seed: seed, SeedGiven: true}}}
}

func stepReq(ids []int32, act []byte, b, l int) *jgymv1.StreamRequest {
	return &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{
		EnvIds:  ids,
		Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{int64(b), int64(l), slots}, Data: act},
	}}}
}

func recvReq() *jgymv1.StreamRequest {
	return &jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Recv{Recv: &jgymv1.RecvRequest{}}}
}

// policy picks a legal direction per slot from the result's mask with a
// hash of (env, round, slot).
func policy(r *jgymv1.StepResult, l int) []byte {
	mask := r.GetObservation()["action_mask"].GetData()
	rounds := int32s(r.GetInfo().GetRound().GetData())
	act := make([]byte, len(r.GetEnvIds())*l*slots)
	for k, id := range r.GetEnvIds() {
		for s := 0; s < l*slots; s++ {
			row := mask[(k*l*slots+s)*dirs : (k*l*slots+s+1)*dirs]
			h := uint32(id)*2654435761 ^ uint32(rounds[k])*40503 ^ uint32(s)*97
			d := int(h % dirs)
			for row[d] == 0 {
				d = (d + 1) % dirs
			}
			act[k*l*slots+s] = byte(d)
		}
	}
	return act
}

func int32s(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
	}
	return out
}

// digest hashes a result's tensors in a fixed order.
func digest(h io.Writer, r *jgymv1.StepResult) {
	fmt.Fprint(h, r.GetEnvIds())
	for _, name := range []string{"board", "units", "globals", "action_mask"} {
		h.Write(r.GetObservation()[name].GetData())
		h.Write(r.GetFinalObservation()[name].GetData())
	}
	for _, x := range []*jgymv1.Tensor{r.GetReward(), r.GetTerminated(), r.GetInfo().GetScores(), r.GetInfo().GetRank(),
		r.GetInfo().GetRound(), r.GetInfo().GetLearnerSeats(), r.GetInfo().GetEpisode(), r.GetFinalScores()} {
		h.Write(x.GetData())
	}
	fmt.Fprint(h, r.GetFinalEnvIndex())
}

// play resets with seed and plays steps synchronous steps with policy,
// returning a digest of every answer.
func play(t testing.TB, s *stream, seed int64, steps int) string {
	t.Helper()
	h := sha256.New()
	r := s.must(resetReq(seed))
	digest(h, r)
	for i := 0; i < steps; i++ {
		r = s.must(stepReq(nil, policy(r, s.l), len(r.GetEnvIds()), s.l))
		digest(h, r)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// wantCode checks err's status code and that its message mentions want.
func wantCode(t testing.TB, what string, err error, code codes.Code) {
	t.Helper()
	st := status.Convert(err)
	if err == nil || st.Code() != code {
		t.Fatalf("%s: status %v %q, want %v", what, st.Code(), st.Message(), code)
	}
	t.Logf("%s: %v: %s", what, st.Code(), st.Message())
}

// eventually polls cond for up to 5 seconds.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func mathFloat32(bits uint32) float32 { return math.Float32frombits(bits) }

func statusCode(err error) codes.Code { return status.Code(err) }
