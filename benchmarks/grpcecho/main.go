// Command grpcecho measures the gRPC transport alone: a Stream server that
// answers every request with the same prebuilt StepResult of a given
// size, and a Go client over TCP loopback doing request-answer round
// trips, with the jgym server's transport settings (windows, buffers,
// buffer pool). It bounds what any server on this machine can do: the
// time of a round trip of an answer as large as a batch.
//
//	go run ./benchmarks/grpcecho -sizes 11407,179762,718482,2873450
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/experimental"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"
)

type echo struct {
	jgymv1.UnimplementedJgymServiceServer
	resp *jgymv1.StreamResponse
}

func (e *echo) Stream(st jgymv1.JgymService_StreamServer) error {
	for {
		if _, err := st.Recv(); err != nil {
			return nil
		}
		if err := st.Send(e.resp); err != nil {
			return err
		}
	}
}

func main() {
	sizes := flag.String("sizes", "11407,179762,718482,2873450", "answer sizes in bytes (default: raw Crematoria batches of 1, 16, 64, 256 envs)")
	dur := flag.Duration("duration", 2*time.Second, "measuring time per size")
	flag.Parse()
	fmt.Println("| answer bytes | µs per round trip | MB/s |\n|---:|---:|---:|")
	for _, f := range strings.Split(*sizes, ",") {
		size, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || size < 0 {
			fmt.Fprintf(os.Stderr, "grpcecho: bad size %q\n", f)
			os.Exit(2)
		}
		if err := measure(size, *dur); err != nil {
			fmt.Fprintln(os.Stderr, "grpcecho:", err)
			os.Exit(1)
		}
	}
}

func measure(size int, dur time.Duration) error {
	resp := &jgymv1.StreamResponse{Result: &jgymv1.StepResult{
		Observation: map[string]*jgymv1.Tensor{"board": {Dtype: jgymv1.Dtype_DTYPE_UINT8, Shape: []int64{int64(size)}, Data: make([]byte, size)}}}}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	gs := grpc.NewServer(grpc.MaxSendMsgSize(64<<20), grpc.InitialWindowSize(8<<20), grpc.InitialConnWindowSize(16<<20),
		grpc.ReadBufferSize(256<<10), grpc.WriteBufferSize(256<<10), experimental.BufferPool(server.BufferPool()))
	defer gs.Stop()
	jgymv1.RegisterJgymServiceServer(gs, &echo{resp: resp})
	go gs.Serve(lis)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20)),
		grpc.WithInitialWindowSize(8<<20), grpc.WithInitialConnWindowSize(16<<20),
		grpc.WithReadBufferSize(256<<10), grpc.WithWriteBufferSize(256<<10), experimental.WithBufferPool(server.BufferPool()))
	if err != nil {
		return err
	}
	defer conn.Close()
	st, err := jgymv1.NewJgymServiceClient(conn).Stream(context.Background())
	if err != nil {
		return err
	}
	defer st.CloseSend()
	req := &jgymv1.StreamRequest{SessionId: "echo"}
	n := 0
	start := time.Now()
	for time.Since(start) < dur {
		if err := st.Send(req); err != nil {
			return err
		}
		if _, err := st.Recv(); err != nil {
			return err
		}
		n++
	}
	el := time.Since(start)
	fmt.Printf("| %d | %.1f | %.0f |\n", size, float64(el.Microseconds())/float64(n), float64(size)*float64(n)/el.Seconds()/1e6)
	return nil
}
