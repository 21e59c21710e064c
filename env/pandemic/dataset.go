package pandemic

import (
	"bytes"
	"fmt"
	"math/bits"

	"jgym/arena"
	"jgym/dataset"
	"jgym/env"
)

// Dataset returns Pandemic's side of jgym dataset: a trace's rounds
// rebuilt with the rules check of Verify (the engine's state at the start
// of each round, checked against the trace), encoded by the env's table,
// and labelled with the commands blocks, which hold the successful moves
// (docs/learning-from-traces.md). A trace cut short by an abort gives its
// complete rounds.
func Dataset() dataset.Source { return datasetSource{} }

type datasetSource struct{}

var _ dataset.Replay = (*replay)(nil)

// Open parses a trace and builds its initial state as Verify does.
func (datasetSource) Open(trace []byte, cfg arena.Config) (dataset.Replay, error) {
	var want *Config
	if cfg != nil {
		c, ok := arena.ConfigOf[Config](cfg)
		if !ok {
			return nil, fmt.Errorf("pandemic: %T is not a Pandemic configuration", cfg)
		}
		want = &c
	}
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return nil, err
	}
	if len(tr.States) == 0 {
		return nil, fmt.Errorf("pandemic: %w: no state", ErrIncompleteTrace)
	}
	g, err := initialGame(tr, want)
	if err != nil {
		return nil, err
	}
	before := &Game{cfg: g.cfg}
	before.State.CopyFrom(&g.State)
	before.State.Cfg = &before.cfg
	return &replay{chk: newRuleChecker(tr, g), before: before, tab: table{cfg: &before.cfg, slots: NumSlots(&before.cfg), g: before},
		r: -1}, nil
}

// replay steps the rules check of checkRules one round at a time: the
// checker advances chk.g in place from the state at the start of round r,
// copied into before first.
type replay struct {
	chk    *ruleChecker
	before *Game
	tab    table  // the env's table over before, for its Observe
	prev   []Unit // before's units in the previous round
	r      int
	err    error
	expert dataset.ExpertLabels[Bot] // UseExpert: labels from a bot's commands
	orders Orders
}

var _ dataset.Expert = (*replay)(nil)

// UseExpert makes Label write the commands of the registered bot name
// (dataset.Expert). The bot plays the state the replay rebuilt, whose
// unit statuses a trace does not print are estimated (Estimated).
func (rp *replay) UseExpert(name string) error { return rp.expert.Use(bots, name) }

func (rp *replay) Spec() env.Spec { return specFor(rp.tab.cfg) }
func (rp *replay) Seed() int      { return rp.chk.tr.Seed }
func (rp *replay) Round() int     { return rp.r }
func (rp *replay) Err() error     { return rp.err }

func (rp *replay) Names() []string { return append([]string(nil), rp.chk.tr.Names[:]...) }

// Next replays the next round that has a commands block and the state
// after it.
func (rp *replay) Next() bool {
	c, tr := rp.chk, rp.chk.tr
	if rp.err != nil || rp.r+1 >= min(len(tr.Commands), len(tr.States)-1) {
		return false
	}
	if rp.r >= 0 {
		rp.prev = append(rp.prev[:0], rp.before.Units...)
		rp.before.State.CopyFrom(&c.g.State)
		rp.before.State.Cfg = &rp.before.cfg
		rp.estimate()
	}
	rp.r++
	c.r = rp.r
	if d := c.round(); d != nil {
		rp.err = d
		return false
	}
	return true
}

func (rp *replay) Observe(seat int, obs [][]byte) { rp.tab.Observe(&env.Out{Obs: obs}, 0, seat) }

// Label writes the direction of each printed move of a unit the seat
// owned at the start of the round; the other slots get None.
func (rp *replay) Label(seat int, action []byte) {
	for k := range action {
		action[k] = byte(None)
	}
	units := rp.before.Units
	if rp.expert.On() {
		rp.expert.Label(seat, rp.r, rp.chk.tr.Seed, action, func(b Bot, action []byte) {
			o := &rp.orders
			o.Reset(len(units))
			b.Play(&rp.before.State, o)
			for _, c := range o.List() {
				if c.ID >= 0 && c.ID < len(action) && units[c.ID].Player == seat {
					action[c.ID] = byte(c.Dir)
				}
			}
		})
		return
	}
	for _, m := range rp.chk.tr.Commands[rp.r] {
		if m.ID < len(action) && units[m.ID].Player == seat {
			action[m.ID] = byte(m.Dir)
		}
	}
}

func (rp *replay) Scores() (before, after []int) {
	return append([]int(nil), rp.before.Scores[:]...), append([]int(nil), rp.chk.g.Scores[:]...)
}

// Estimated lists what a Pandemic trace does not print, which the
// observation holds: a unit's virus damage, rounds infected, immunity and
// worn mask (units columns 5 to 8, board plane 5 bits 1, 3 and 4).
func (rp *replay) Estimated() []string {
	return []string{"units[:, 5:9] (damage, turns, immune, masked)", "board[5] bits 1, 3, 4 (masked, infected, immune)"}
}

// estimate sets the unit fields a trace does not print from what the rules
// check knows after the round: the status set a unit's health changes
// allow (uninfected, damage 1..5, immune), a damage only when the set is
// one infected status, immunity only when it is certain, rounds infected
// counted from there, and a mask only when its pickup is certain. The
// initial state is exact (the engine's).
func (rp *replay) estimate() {
	c := rp.chk
	for id := range rp.before.Units {
		u := &rp.before.Units[id]
		st := c.st[id]
		u.Immune = st == stImmune
		u.Damage = 0
		if inf := st & stInfected; inf != 0 && st&(stClean|stImmune) == 0 {
			u.Damage = bits.TrailingZeros8(inf)
		}
		switch {
		case u.Damage == 0:
			u.Turns = 0
		case rp.prev[id].Damage > 0:
			u.Turns = rp.prev[id].Turns + 1
		default:
			u.Turns = 1
		}
		u.Mask = c.mask[id] == maskYes
	}
}
