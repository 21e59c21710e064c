// Package vec steps a vector of game instances with a fixed pool of worker
// goroutines, synchronously or asynchronously in the EnvPool sense.
//
// A [Pool] holds N instances of one env.Factory. Every tensor of every env
// lives in one preallocated buffer per tensor, env i at offset i, and the
// workers encode observations straight into it; a [Batch] of all envs in
// order is those buffers themselves, other batches are gathered copies.
// Results never depend on the number of workers: each instance owns its
// random generators and env i of a reset seeded with s uses seed s+i.
//
// # Synchronous use
//
//	p, _ := vec.New(factory, 64, vec.WithAutoreset(vec.NextStep))
//	defer p.Close()
//	b, _ := p.Reset(ctx, nil, 1) // all envs, seeds 1..64
//	for {
//		act := policy(b.Obs) // int8 [64, L, U]
//		b, _ = p.Step(ctx, nil, act, nil)
//	}
//
// # Asynchronous use
//
// With WithBatchSize(B), Send starts some envs and returns at once; Recv
// returns the first B that are ready, in the order they finished:
//
//	b, _ := p.Reset(ctx, nil, 1)
//	_ = p.Send(b.EnvIDs, policy(b.Obs), nil)
//	for {
//		b, _ = p.Recv(ctx)
//		_ = p.Send(b.EnvIDs, policy(b.Obs), nil)
//	}
//
// # Autoreset
//
// [NextStep] (default): the step after a game's last round resets it and
// returns the new game's first observation with reward 0 (its actions are
// ignored). [SameStep]: the last round's step already returns the new
// game's first observation, with the final one in Batch.FinalObs.
// [Disabled]: a finished env returns ErrNeedsReset until it is reset.
//
// The pool never logs; failures are returned as errors wrapping the
// sentinels of this package, and a panicking instance fails its env only.
package vec
