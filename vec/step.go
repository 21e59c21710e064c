package vec

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"jgym/env"
)

// NoSeed asks Reset to continue each env's own seed sequence.
const NoSeed int64 = -1

// Reset starts new games in the envs ids (nil: all envs) and waits for
// them. With seed >= 0, env i is seeded with seed+i; with NoSeed, each env
// continues its sequence: env i's k-th game after a reset seeded with s
// uses s+i+k*stride (mod 2^31; the stride is NumEnvs unless
// WithSeedStride says otherwise); before any seeded reset, s is 0. The
// batch is valid until the next call on the pool.
func (p *Pool) Reset(ctx context.Context, ids []int32, seed int64) (*Batch, error) {
	if seed < NoSeed || seed >= seedMod {
		return nil, fmt.Errorf("%w: %d, want 0..%d", ErrBadSeed, seed, seedMod-1)
	}
	ids, err := p.checkIDs(ids, false)
	if err != nil {
		return nil, err
	}
	for _, i := range ids {
		if seed >= 0 {
			p.envs[i].nextSeed = (seed + int64(i)) % seedMod
		}
	}
	return p.runSync(ctx, ids, opReset)
}

// Step plays one round in the envs ids (nil: all envs, in order) and waits
// for them. action holds [len(ids), L, ...] of Spec().Action's type,
// little-endian; order holds the optional [len(ids), L, ...] action order
// (nil: slot order). The batch is valid until the next call on the pool.
func (p *Pool) Step(ctx context.Context, ids []int32, action, order []byte) (*Batch, error) {
	ids, err := p.prepareStep(ids, action, order)
	if err != nil {
		return nil, err
	}
	return p.runSync(ctx, ids, opStep)
}

// Send starts one round in the envs ids (nil: all envs) and returns at
// once; Recv collects them. The arguments are as for Step and are copied.
func (p *Pool) Send(ids []int32, action, order []byte) error {
	ids, err := p.prepareStep(ids, action, order)
	if err != nil {
		return err
	}
	for _, i := range ids {
		p.envs[i].inflight, p.envs[i].async = true, true
		p.asyncPending++
		p.tasks <- task{env: i, op: opStep, async: true}
	}
	return nil
}

// Recv waits for BatchSize envs started by Send to be ready (or for all of
// them, when fewer are running) and returns them in the order they
// finished. The batch is valid until the next call on the pool.
func (p *Pool) Recv(ctx context.Context) (*Batch, error) {
	if p.closed {
		return nil, ErrClosed
	}
	p.drain()
	if p.asyncPending == 0 {
		return nil, fmt.Errorf("%w: Recv without a Send", ErrNothingPending)
	}
	want := min(p.opts.batchSize, p.asyncPending)
	got := p.recvIDs[:0]
	for len(got) < want {
		select {
		case i := <-p.ready:
			got = append(got, i)
		case <-ctx.Done():
			for _, i := range got {
				p.ready <- i // room: at most n envs are in flight
			}
			return nil, ctx.Err()
		}
	}
	p.recvIDs = got
	for _, i := range got {
		p.envs[i].inflight, p.envs[i].async = false, false
	}
	p.asyncPending -= len(got)
	return p.finish(got)
}

// Pending returns the number of envs started by Send and not yet received.
func (p *Pool) Pending() int { return p.asyncPending }

// runSync dispatches one operation per env and waits for all of them. An
// operation of one env runs in the caller's goroutine: handing it to a
// worker and back would cost two goroutine switches and often a thread
// wake-up, for no parallelism.
func (p *Pool) runSync(ctx context.Context, ids []int32, op opKind) (*Batch, error) {
	if len(ids) == 1 {
		p.run(task{env: ids[0], op: op})
		return p.finish(ids)
	}
	for _, i := range ids {
		p.envs[i].inflight = true
		p.syncPending++
		p.tasks <- task{env: i, op: op}
	}
	for k := 0; k < len(ids); k++ {
		select {
		case i := <-p.done:
			p.envs[i].inflight = false
			p.syncPending--
		case <-ctx.Done():
			// The envs still running finish in the background; drain
			// collects them before the next call uses them.
			return nil, ctx.Err()
		}
	}
	return p.finish(ids)
}

// drain collects completions of synchronous calls that were cancelled.
func (p *Pool) drain() {
	for p.syncPending > 0 {
		select {
		case i := <-p.done:
			p.envs[i].inflight = false
			p.syncPending--
		default:
			return
		}
	}
}

// finish reports the first failure among ids, or gathers their batch.
func (p *Pool) finish(ids []int32) (*Batch, error) {
	for _, i := range ids {
		if err := p.envs[i].err; err != nil {
			for _, j := range ids {
				p.envs[j].final = false
			}
			return nil, err
		}
	}
	return p.batch.gather(p, ids), nil
}

// checkIDs validates env ids: in range, no duplicates, not in flight, and
// for a step, reset and not waiting for a reset. nil means all envs.
func (p *Pool) checkIDs(ids []int32, step bool) ([]int32, error) {
	if p.closed {
		return nil, ErrClosed
	}
	p.drain()
	if ids == nil {
		ids = p.allIDs
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: empty env id list", ErrBadEnvID)
	}
	p.stampNo++
	if p.stampNo == 0 {
		clear(p.stamp)
		p.stampNo = 1
	}
	for k, i := range ids {
		if i < 0 || int(i) >= p.n {
			return nil, fmt.Errorf("%w: env_ids[%d] = %d, want 0..%d", ErrBadEnvID, k, i, p.n-1)
		}
		if p.stamp[i] == p.stampNo {
			return nil, fmt.Errorf("%w: env %d listed twice", ErrBadEnvID, i)
		}
		p.stamp[i] = p.stampNo
		e := &p.envs[i]
		switch {
		case e.inflight:
			return nil, fmt.Errorf("%w: env %d was sent and not yet received", ErrBusy, i)
		case !step:
		case !e.started:
			return nil, fmt.Errorf("%w: env %d: reset it before stepping", ErrNotReset, i)
		case e.failed:
			return nil, fmt.Errorf("%w: env %d failed earlier", ErrNeedsReset, i)
		case e.over && p.opts.autoreset == Disabled:
			return nil, fmt.Errorf("%w: env %d: its game is over and autoreset is disabled", ErrNeedsReset, i)
		}
	}
	return ids, nil
}

// prepareStep validates a step and copies its actions into the envs'
// buffers.
func (p *Pool) prepareStep(ids []int32, action, order []byte) ([]int32, error) {
	ids, err := p.checkIDs(ids, true)
	if err != nil {
		return nil, err
	}
	b := len(ids)
	if len(action) != b*p.actLen {
		return nil, fmt.Errorf("%w: action has %d bytes, want %d (%d envs x %d learners x %d slots x %d bytes)",
			ErrBadAction, len(action), b*p.actLen, b, p.l, p.spec.Action.NumElems(), p.spec.Action.Dtype.Size())
	}
	if order != nil && len(order) != b*p.ordLen {
		return nil, fmt.Errorf("%w: action order has %d bytes, want %d (%d envs x %d learners x %d slots x %d bytes)",
			ErrBadAction, len(order), b*p.ordLen, b, p.l, p.spec.ActionOrder.NumElems(), p.spec.ActionOrder.Dtype.Size())
	}
	if k, v, ok := firstOutOfRange(&p.spec.Action, action); !ok {
		per := p.spec.Action.NumElems()
		return nil, fmt.Errorf("%w: env %d learner %d slot %d: value %v out of range %v..%v",
			ErrBadAction, ids[k/(per*p.l)], k/per%p.l, k%per, v, p.spec.Action.Low, p.spec.Action.High)
	}
	for k, i := range ids {
		copy(p.actions[int(i)*p.actLen:(int(i)+1)*p.actLen], action[k*p.actLen:(k+1)*p.actLen])
		p.envs[i].hasOrder = order != nil
		if order != nil {
			copy(p.orders[int(i)*p.ordLen:(int(i)+1)*p.ordLen], order[k*p.ordLen:(k+1)*p.ordLen])
		}
	}
	return ids, nil
}

// firstOutOfRange returns the index and value of the first element of
// data outside [Low, High] of the spec's integer dtype, and false; or
// true when every element is in range.
func firstOutOfRange(ts *env.TensorSpec, data []byte) (int, float64, bool) {
	lo, hi := ts.Low, ts.High
	switch ts.Dtype {
	case env.Int8:
		for k, b := range data {
			if v := float64(int8(b)); v < lo || v > hi {
				return k, v, false
			}
		}
	case env.Uint8, env.Bool:
		for k, b := range data {
			if v := float64(b); v < lo || v > hi {
				return k, v, false
			}
		}
	case env.Int16:
		for k := 0; k+2 <= len(data); k += 2 {
			if v := float64(int16(binary.LittleEndian.Uint16(data[k:]))); v < lo || v > hi {
				return k / 2, v, false
			}
		}
	case env.Int32:
		for k := 0; k+4 <= len(data); k += 4 {
			if v := float64(int32(binary.LittleEndian.Uint32(data[k:]))); v < lo || v > hi {
				return k / 4, v, false
			}
		}
	case env.Float32:
		for k := 0; k+4 <= len(data); k += 4 {
			if v := float64(math.Float32frombits(binary.LittleEndian.Uint32(data[k:]))); !(v >= lo && v <= hi) {
				return k / 4, v, false
			}
		}
	}
	return 0, 0, true
}
