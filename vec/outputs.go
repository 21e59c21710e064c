package vec

import (
	"errors"
	"fmt"
)

// ObservationBytes returns the bytes of observation tensor t for all envs
// (n envs of L seats): the length MoveOutputs wants of each buffer.
func (p *Pool) ObservationBytes(t int) int { return p.n * p.tensorLen[t] }

// MoveOutputs moves the buffers the instances write their observations
// into (env i's part at offset i*ObservationBytes(t)/NumEnvs) to obs, and
// with autoreset SameStep the final observations to final; their current
// contents are copied. nil buffers move them back to buffers of the pool's
// own. The server hands a local client buffers in shared memory this way,
// so that a step of every env needs no copy of its observations: Batch.Obs
// of a batch of every env in order is then obs itself (and of any batch,
// with ObsInPlace).
//
// The caller keeps the buffers mapped until the pool is closed or they are
// moved again. Envs of cancelled synchronous calls are waited for; envs
// started by Send and not yet received make it fail with ErrBusy.
func (p *Pool) MoveOutputs(obs, final [][]byte) error {
	if p.closed {
		return ErrClosed
	}
	if p.asyncPending > 0 {
		return fmt.Errorf("%w: %d envs sent and not received", ErrBusy, p.asyncPending)
	}
	if err := check(obs, p); err != nil {
		return fmt.Errorf("vec: observation buffers: %w", err)
	}
	if p.final == nil && final != nil {
		return errors.New("vec: final observation buffers given without autoreset SameStep")
	}
	if p.final != nil {
		if err := check(final, p); err != nil {
			return fmt.Errorf("vec: final observation buffers: %w", err)
		}
	}
	for p.syncPending > 0 { // cancelled calls still writing the old buffers
		i := <-p.done
		p.envs[i].inflight = false
		p.syncPending--
	}
	p.obs = moved(p.obs, obs, p)
	for i := range p.outs {
		for t := range p.obs {
			p.outs[i].Obs[t] = p.obs[t][i*p.tensorLen[t] : (i+1)*p.tensorLen[t]]
		}
	}
	if p.final != nil {
		p.final = moved(p.final, final, p)
		for i := range p.finalOut {
			for t := range p.final {
				p.finalOut[i].Obs[t] = p.final[t][i*p.tensorLen[t] : (i+1)*p.tensorLen[t]]
			}
		}
	}
	return nil
}

// check checks that bufs is nil or one buffer of the right length per
// observation tensor.
func check(bufs [][]byte, p *Pool) error {
	if bufs == nil {
		return nil
	}
	if len(bufs) != len(p.tensorLen) {
		return fmt.Errorf("%d buffers for %d tensors", len(bufs), len(p.tensorLen))
	}
	for t, b := range bufs {
		if len(b) != p.ObservationBytes(t) {
			return fmt.Errorf("tensor %d: %d bytes, want %d", t, len(b), p.ObservationBytes(t))
		}
	}
	return nil
}

// moved copies old into to (fresh buffers when to is nil) and returns it.
func moved(old, to [][]byte, p *Pool) [][]byte {
	if to == nil {
		to = make([][]byte, len(old))
		for t := range to {
			to[t] = make([]byte, p.ObservationBytes(t))
		}
	}
	for t := range to {
		copy(to[t], old[t])
	}
	return to
}

// ObsInPlace sets whether the batches of the next calls leave their
// observations in place: Batch.Obs is then the pool's buffers themselves,
// env i's rows at offset i, for a batch of some envs too, instead of a
// gathered copy [B, ...]. The server's local channel, whose client reads
// each env's rows where the pool wrote them (MoveOutputs), sets it around
// its own calls.
func (p *Pool) ObsInPlace(on bool) { p.obsInPlace = on }
