// Package server serves the games of an env.Registry over gRPC
// (jgym.v1.JgymService, see api/jgym/v1 and docs/protocol.md).
//
// A client creates a session (N instances, the seats, the reward and
// autoreset modes, optionally an async batch size), attaches one Stream to
// it and sends reset, step and recv requests; each answer is one batch,
// tensors as raw little-endian bytes. Every session owns a vec.Pool.
//
// The server enforces limits (envs per session and in total, sessions,
// message sizes computed from the games' spaces), closes sessions that stay
// idle or whose client vanished, exposes the gRPC health service and
// Prometheus metrics (MetricsHandler), and shuts down gracefully when the
// context given to Serve is cancelled. Domain errors become gRPC status
// codes in one function, toStatus. It is the only layer that logs: one
// zerolog logger, taken from Serve's context.
//
//	reg, _ := env.NewRegistry(crematoria.Def.Host())
//	srv, _ := server.New(reg, server.WithMaxEnvs(4096))
//	lis, _ := net.Listen("tcp", "127.0.0.1:50051")
//	err := srv.Serve(logger.WithContext(ctx), lis) // until ctx is cancelled
package server
