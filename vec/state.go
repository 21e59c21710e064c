package vec

import (
	"context"
	"fmt"

	"jgym/env"
)

// start is where an env restarts from: a saved state, or a round of a
// trace with its command file.
type start struct {
	state           []byte
	trace, commands []byte
	round           int
}

// SaveStates returns the saved states of the envs ids (nil: all envs), in
// order (env.Saver). The envs must not be in flight.
func (p *Pool) SaveStates(ids []int32) ([][]byte, error) {
	ids, err := p.checkIDs(ids, false)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(ids))
	for k, i := range ids {
		if !p.envs[i].started || p.envs[i].failed {
			return nil, fmt.Errorf("%w: env %d: %w: it has no game", ErrInstance, i, env.ErrUnsaved)
		}
		sv, ok := p.insts[i].(env.Saver)
		if !ok {
			return nil, fmt.Errorf("%w: env %d: %w", ErrInstance, i, env.ErrUnsaved)
		}
		if out[k], err = sv.SaveState(nil); err != nil {
			return nil, fmt.Errorf("%w: env %d: %w", ErrInstance, i, err)
		}
	}
	return out, nil
}

// RestoreStates restores a saved state into each env of ids (nil: all
// envs; states[k] for ids[k]) and waits for them, as Reset: the batch
// holds their observations, rewards zero. An env whose state is refused
// fails (errors wrap env.ErrBadState) and needs a reset.
func (p *Pool) RestoreStates(ctx context.Context, ids []int32, states [][]byte) (*Batch, error) {
	ids, err := p.checkIDs(ids, false)
	if err != nil {
		return nil, err
	}
	if len(states) != len(ids) {
		return nil, fmt.Errorf("%w: %d states for %d envs", ErrBadEnvID, len(states), len(ids))
	}
	for k, i := range ids {
		p.envs[i].start = &start{state: states[k]}
	}
	return p.runSync(ctx, ids, opRestore)
}

// ResetFromTrace starts each env of ids (nil: all envs) from a round of a
// trace with its command file (env.TraceStarter) and waits for them, as
// Reset. Errors wrap env.ErrBadState.
func (p *Pool) ResetFromTrace(ctx context.Context, ids []int32, trace, commands []byte, round int) (*Batch, error) {
	ids, err := p.checkIDs(ids, false)
	if err != nil {
		return nil, err
	}
	st := &start{trace: trace, commands: commands, round: round}
	for _, i := range ids {
		p.envs[i].start = st
	}
	return p.runSync(ctx, ids, opTraceStart)
}

// restart runs an opRestore or opTraceStart of env i: as reset, from the
// env's start.
func (p *Pool) restart(i int, op opKind) error {
	e := &p.envs[i]
	st := e.start
	e.start = nil
	var err error
	switch in := p.insts[i]; op {
	case opRestore:
		sv, ok := in.(env.Saver)
		if !ok {
			return fmt.Errorf("%w: env %d: %w: the game has no saved states", ErrInstance, i, env.ErrBadState)
		}
		err = sv.RestoreState(st.state)
	default:
		ts, ok := in.(env.TraceStarter)
		if !ok {
			return fmt.Errorf("%w: env %d: %w: the game has no trace starts", ErrInstance, i, env.ErrBadState)
		}
		err = ts.ResetFromTrace(st.trace, st.commands, st.round)
	}
	if err != nil {
		return fmt.Errorf("%w: env %d: %w", ErrInstance, i, err)
	}
	e.episode++
	e.started, e.over, e.failed, e.term = true, false, false, false
	clear(p.reward[i*p.l : (i+1)*p.l])
	if p.unit != nil {
		clear(p.unitRow(i))
	}
	o := &p.outs[i]
	p.insts[i].Observe(o)
	e.over = int(o.Round[0]) >= p.spec.NumRounds
	return nil
}
