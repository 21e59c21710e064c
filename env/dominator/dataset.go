package dominator

import (
	"bytes"
	"errors"
	"fmt"

	"jgym/arena"
	"jgym/dataset"
	"jgym/env"
)

// Dataset returns Dominator's side of jgym dataset: a trace's rounds
// rebuilt with the rules check of Verify (the engine's state at the start
// of each round, checked against the trace), encoded by the env's table in
// each seat's rotated view, and labelled with the movements blocks turned
// into the seat's frame (docs/learning-from-traces.md).
func Dataset() dataset.Source { return datasetSource{} }

type datasetSource struct{}

var _ dataset.Replay = (*replay)(nil)

// Open parses a trace and builds its initial state as Verify does.
func (datasetSource) Open(trace []byte, cfg arena.Config) (dataset.Replay, error) {
	var want *Config
	if cfg != nil {
		c, ok := arena.ConfigOf[Config](cfg)
		if !ok {
			return nil, fmt.Errorf("dominator: %T is not a Dominator configuration", cfg)
		}
		want = &c
	}
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return nil, err
	}
	if len(tr.States) != tr.Config.NbRounds+1 || len(tr.Moves) != tr.Config.NbRounds {
		return nil, errors.New("dominator: incomplete trace")
	}
	g, err := initialGame(tr, want)
	if err != nil {
		return nil, err
	}
	// As checkRules.
	n := len(g.Units)
	w := &Game{cfg: g.cfg, seed: g.seed, moved: make([]int32, n), killed: make([]int32, n)}
	w.State.CopyFrom(&g.State)
	w.State.Cfg = &w.cfg
	w.countLand()
	s := &ruleSim{tr: tr, base: g, g: w, dies: make([]bool, n), printedAt: make([]int, n),
		opp: make([]uint8, n), hits: make([]hitRecord, n), hidden: make([]bool, n), origin: make([]Pos, n)}
	return &replay{sim: s, tab: table{cfg: &g.cfg, m: &Match{Game: g}}, r: -1}, nil
}

// replay steps the rules check of checkRules one round at a time: sim.base
// holds the state at the start of round r, sim.g the state after it.
type replay struct {
	sim    *ruleSim
	tab    table // the env's table over sim.base, for its Observe
	r      int
	err    error
	expert dataset.ExpertLabels[Bot] // UseExpert: labels from a bot's commands
	orders Orders
	view   State
}

var _ dataset.Expert = (*replay)(nil)

// UseExpert makes Label write the commands of the registered bot name
// (dataset.Expert).
func (rp *replay) UseExpert(name string) error { return rp.expert.Use(bots, name) }

// expertPlay plays bot b in seat from the state at the start of the round
// as a Match does (its view, or the state for a SeatBot) and writes its
// commands: a bot's directions are in its view's frame, which is the
// frame of the env's actions.
func (rp *replay) expertPlay(seat int, b Bot, action []byte) {
	s := &rp.sim.base.State
	o := &rp.orders
	o.Reset(len(s.Units))
	switch sb, isSeat := b.(SeatBot); {
	case isSeat:
		sb.PlaySeat(s, seat, o)
	case seat == 0:
		b.Play(s, o)
	default:
		s.View(seat, &rp.view)
		b.Play(&rp.view, o)
	}
	for _, c := range o.List() {
		if c.ID >= 0 && c.ID < len(action) && s.Units[c.ID].Player == seat {
			action[c.ID] = byte(c.Dir)
		}
	}
}

func (rp *replay) Spec() env.Spec { return specFor(rp.tab.cfg) }
func (rp *replay) Seed() int      { return rp.sim.tr.Seed }
func (rp *replay) Round() int     { return rp.r }
func (rp *replay) Err() error     { return rp.err }

func (rp *replay) Names() []string { return append([]string(nil), rp.sim.tr.Names[:]...) }

func (rp *replay) Next() bool {
	s := rp.sim
	if rp.err != nil || rp.r+1 >= s.tr.Config.NbRounds {
		return false
	}
	if rp.r >= 0 {
		s.base.State.CopyFrom(&s.g.State)
		s.base.State.Cfg = &s.base.cfg
	}
	rp.r++
	s.r, s.next, s.moves = rp.r, &s.tr.States[rp.r+1], s.tr.Moves[rp.r]
	if d := s.round(); d != nil {
		rp.err = d
		return false
	}
	return true
}

func (rp *replay) Observe(seat int, obs [][]byte) { rp.tab.Observe(&env.Out{Obs: obs}, 0, seat) }

// Label writes, for each printed move of a unit the seat owned at the
// start of the round, its direction in the seat's rotated view (the
// inverse of Dir.Rotate); the other slots get None.
func (rp *replay) Label(seat int, action []byte) {
	for k := range action {
		action[k] = byte(None)
	}
	if rp.expert.On() {
		rp.expert.Label(seat, rp.r, rp.sim.tr.Seed, action, func(b Bot, action []byte) { rp.expertPlay(seat, b, action) })
		return
	}
	units := rp.sim.base.Units
	for _, m := range rp.sim.moves {
		if m.ID < len(action) && units[m.ID].Player == seat {
			d := m.Dir
			if d >= 0 && d < None {
				d = (d + Dir(8-2*seat)) % 8
			}
			action[m.ID] = byte(d)
		}
	}
}

func (rp *replay) Scores() (before, after []int) {
	b, a := rp.sim.base.Scores(), rp.sim.g.Scores()
	return b[:], a[:]
}
