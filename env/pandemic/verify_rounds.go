package pandemic

import (
	"bytes"
	"fmt"
	"math/bits"

	"jgym/game"
)

// traceRounds steps the rules check of checkRules one round at a time,
// for datasets (game.Rounds): the checker advances chk.g in place from the
// state at the start of round r, copied into before first. A trace cut
// short by an abort gives its complete rounds. What the trace does not
// print is estimated (Estimated), so it is also a dataset.Estimator.
type traceRounds struct {
	chk    *ruleChecker
	before *Game
	prev   []Unit // before's units in the previous round
	r      int
	err    error
}

// newTraceRounds parses a trace and builds its initial state as Verify
// does (want, if not nil, is the configuration it was played with).
func newTraceRounds(trace []byte, want *Config) (game.Rounds[Config, State, Dir], error) {
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return nil, err
	}
	if len(tr.States) == 0 {
		return nil, fmt.Errorf("pandemic: %w: no state", ErrIncompleteTrace)
	}
	g, err := verifier.Initial(tr, want)
	if err != nil {
		return nil, err
	}
	before := &Game{cfg: g.cfg}
	before.State.CopyFrom(&g.State)
	before.State.Cfg = &before.cfg
	return &traceRounds{chk: newRuleChecker(tr, g), before: before, r: -1}, nil
}

func (t *traceRounds) Config() *Config           { return &t.before.cfg }
func (t *traceRounds) Seed() int                 { return t.chk.tr.Seed }
func (t *traceRounds) Names() [NumPlayers]string { return t.chk.tr.Names }
func (t *traceRounds) State() *State             { return &t.before.State }
func (t *traceRounds) Moves() []Move             { return t.chk.tr.Commands[t.r] }
func (t *traceRounds) Err() error                { return t.err }

func (t *traceRounds) Scores() (before, after [NumPlayers]int) {
	return t.before.Scores, t.chk.g.Scores
}

// Next replays the next round that has a commands block and the state
// after it.
func (t *traceRounds) Next() bool {
	c, tr := t.chk, t.chk.tr
	if t.err != nil || t.r+1 >= min(len(tr.Commands), len(tr.States)-1) {
		return false
	}
	if t.r >= 0 {
		t.prev = append(t.prev[:0], t.before.Units...)
		t.before.State.CopyFrom(&c.g.State)
		t.before.State.Cfg = &t.before.cfg
		t.estimate()
	}
	t.r++
	c.r = t.r
	if d := c.round(); d != nil {
		t.err = d
		return false
	}
	return true
}

// Estimated lists what a Pandemic trace does not print, which the
// observation holds: a unit's virus damage, rounds infected, immunity and
// worn mask (units columns 5 to 8, board plane 5 bits 1, 3 and 4)
// (dataset.Estimator).
func (t *traceRounds) Estimated() []string {
	return []string{"units[:, 5:9] (damage, turns, immune, masked)", "board[5] bits 1, 3, 4 (masked, infected, immune)"}
}

// estimate sets the unit fields a trace does not print from what the rules
// check knows after the round: the status set a unit's health changes
// allow (uninfected, damage 1..5, immune), a damage only when the set is
// one infected status, immunity only when it is certain, rounds infected
// counted from there, and a mask only when its pickup is certain. The
// initial state is exact (the engine's).
func (t *traceRounds) estimate() {
	c := t.chk
	for id := range t.before.Units {
		u := &t.before.Units[id]
		st := c.st[id]
		u.Immune = st == stImmune
		u.Damage = 0
		if inf := st & stInfected; inf != 0 && st&(stClean|stImmune) == 0 {
			u.Damage = bits.TrailingZeros8(inf)
		}
		switch {
		case u.Damage == 0:
			u.Turns = 0
		case t.prev[id].Damage > 0:
			u.Turns = t.prev[id].Turns + 1
		default:
			u.Turns = 1
		}
		u.Mask = c.mask[id] == maskYes
	}
}
