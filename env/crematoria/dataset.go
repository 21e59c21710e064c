package crematoria

import (
	"bytes"
	"errors"
	"fmt"

	"jgym/arena"
	"jgym/dataset"
	"jgym/env"
)

// Dataset returns Crematoria's side of jgym dataset: a trace's rounds
// rebuilt with the rules check of Verify (the engine's state at the start
// of each round, checked against the trace), encoded by the env's table,
// and labelled with the movements blocks (docs/learning-from-traces.md).
func Dataset() dataset.Source { return datasetSource{} }

type datasetSource struct{}

var (
	_ dataset.Replay = (*replay)(nil)
	_ dataset.Expert = (*replay)(nil)
)

// Open parses a trace and builds its initial state as Verify does.
func (datasetSource) Open(trace []byte, cfg arena.Config) (dataset.Replay, error) {
	var want *Config
	if cfg != nil {
		c, ok := arena.ConfigOf[Config](cfg)
		if !ok {
			return nil, fmt.Errorf("crematoria: %T is not a Crematoria configuration", cfg)
		}
		want = &c
	}
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		return nil, err
	}
	if len(tr.States) != tr.Config.NbRounds+1 || len(tr.Moves) != tr.Config.NbRounds {
		return nil, errors.New("crematoria: incomplete trace")
	}
	g, err := initialGame(tr, want)
	if err != nil {
		return nil, err
	}
	w := &Game{cfg: g.cfg, seed: g.seed, excl: make([]bool, LevelCells)}
	w.State.CopyFrom(&g.State)
	n := len(g.Units)
	return &replay{
		sim: &ruleSim{tr: tr, base: g, g: w, hits: make([]hitRecord, n), killedBy: make([]int, n), moved: make([]bool, n)},
		tab: table{cfg: &g.cfg, slots: NumSlots(&g.cfg), g: g},
		r:   -1,
	}, nil
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
}

// UseExpert makes Label write the commands of the registered bot name
// (dataset.Expert).
func (rp *replay) UseExpert(name string) error { return rp.expert.Use(bots, name) }

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

// Label writes the direction of each printed move of a Pioneer or Furyan
// seat owned at the start of the round; the other slots get None.
func (rp *replay) Label(seat int, action []byte) {
	for k := range action {
		action[k] = byte(None)
	}
	units := rp.sim.base.Units
	if rp.expert.On() {
		rp.expert.Label(seat, rp.r, rp.sim.tr.Seed, action, func(b Bot, action []byte) {
			o := &rp.orders
			o.Reset(len(units))
			b.Play(&rp.sim.base.State, o)
			for _, c := range o.List() {
				if c.ID >= 0 && c.ID < len(action) && units[c.ID].Player == seat {
					action[c.ID] = byte(c.Dir)
				}
			}
		})
		return
	}
	for _, m := range rp.sim.moves {
		if m.ID < len(action) && units[m.ID].Player == seat {
			action[m.ID] = byte(m.Dir)
		}
	}
}

func (rp *replay) Scores() (before, after []int) {
	b, a := rp.sim.base.Scores(), rp.sim.g.Scores()
	return b[:], a[:]
}
