package game

import (
	"fmt"
	"slices"

	"jgym/arena"
	"jgym/dataset"
	"jgym/env"
)

// Dataset returns the game's side of jgym dataset: a trace's rounds
// rebuilt by the game's verifier (Def.Replay: the engine's state at the
// start of each round, checked against the trace), encoded by the env's
// encoder and labelled with the movements blocks
// (docs/learning-from-traces.md).
func (d *Def[C, G, S, D]) Dataset() dataset.Source { return datasetSource[C, G, S, D]{d} }

type datasetSource[C Config, G, S any, D Dir] struct{ def *Def[C, G, S, D] }

// Open reads a trace played with cfg (nil: its header's settings) and
// returns its replay, before the first round.
func (src datasetSource[C, G, S, D]) Open(trace []byte, cfg arena.Config) (dataset.Replay, error) {
	def := src.def
	var want *C
	if cfg != nil {
		c, ok := arena.ConfigOf[C](cfg)
		if !ok {
			return nil, fmt.Errorf("%s: %T is not a %s configuration", def.Name, cfg, def.Name)
		}
		want = &c
	}
	rs, err := def.Replay(trace, want)
	if err != nil {
		return nil, err
	}
	spec, err := def.EnvSpec(rs.Config())
	if err != nil {
		return nil, err
	}
	rp := &replay[C, G, S, D]{def: def, rs: rs, full: spec, spec: spec, enc: def.NewEncoder(), r: -1}
	for p := range rp.orders {
		rp.orders[p].rules = &def.Orders
	}
	if e, ok := rs.(dataset.Estimator); ok {
		return estimatingReplay[C, G, S, D]{rp, e}, nil
	}
	return rp, nil
}

// replay is a trace's rounds as a dataset.Replay.
type replay[C Config, G, S any, D Dir] struct {
	def    *Def[C, G, S, D]
	rs     Rounds[C, S, D]
	full   env.Spec // the game's spec of the trace's configuration
	spec   env.Spec // full, or the subset of SelectTensors
	sel    []int    // SelectTensors: the index in Observe's obs of each encoder tensor (full.AllTensors), -1: not written
	encObs [][]byte // SelectTensors: the encoder's views, by encoder index
	enc    Encoder[S]
	r      int
	expert dataset.ExpertLabels[Bot[S, D]] // UseExpert: labels from a bot's commands
	opp    func(obs [][]byte)              // OrderOpponents: the env's relabelling, nil: by seat
	orders [NumSeats]Orders[D]
	views  [NumSeats]S
}

var (
	_ dataset.Replay          = (*replay[nopConfig, int, int, int8])(nil)
	_ dataset.Expert          = (*replay[nopConfig, int, int, int8])(nil)
	_ dataset.OpponentOrderer = (*replay[nopConfig, int, int, int8])(nil)
	_ dataset.TensorSelector  = (*replay[nopConfig, int, int, int8])(nil)
)

// estimatingReplay is a replay whose rounds estimate what the trace does
// not print (dataset.Estimator).
type estimatingReplay[C Config, G, S any, D Dir] struct {
	*replay[C, G, S, D]
	dataset.Estimator
}

// UseExpert makes Label write the commands of the registered bot name.
func (rp *replay[C, G, S, D]) UseExpert(name string) error { return rp.expert.Use(rp.def.Bots, name) }

func (rp *replay[C, G, S, D]) Spec() env.Spec { return rp.spec }
func (rp *replay[C, G, S, D]) Seed() int      { return rp.rs.Seed() }
func (rp *replay[C, G, S, D]) Round() int     { return rp.r }
func (rp *replay[C, G, S, D]) Err() error     { return rp.rs.Err() }

func (rp *replay[C, G, S, D]) Names() []string {
	n := rp.rs.Names()
	return n[:]
}

func (rp *replay[C, G, S, D]) Next() bool {
	if !rp.rs.Next() {
		return false
	}
	rp.r++
	return true
}

// OrderOpponents makes Observe relabel the opponents in order o, with
// the function the env's tables apply for the option opponent_order
// (Def.OpponentOrders). Label is unchanged: a label is a direction per
// unit slot of the seat's own units (dataset.OpponentOrderer).
func (rp *replay[C, G, S, D]) OrderOpponents(o string) error {
	opp, err := rp.def.opponentOrder(o)
	if err != nil {
		return err
	}
	rp.opp = opp
	return nil
}

// SelectTensors makes the replay write the tensors named, as an env
// table of a setup with those Tensors (dataset.TensorSelector).
func (rp *replay[C, G, S, D]) SelectTensors(names []string) error {
	sub, err := rp.full.Subset(names)
	if err != nil {
		return err
	}
	rp.spec, rp.sel, rp.encObs = sub, nil, nil
	if len(names) == 0 {
		return nil
	}
	all := rp.full.AllTensors()
	rp.encObs = make([][]byte, len(all))
	for _, ts := range all {
		rp.sel = append(rp.sel, slices.IndexFunc(sub.Observation, func(t env.TensorSpec) bool { return t.Name == ts.Name }))
	}
	return nil
}

// Observe writes seat's observation of the state at the start of the
// round, as the env encodes it, the opponents in the replay's order.
func (rp *replay[C, G, S, D]) Observe(seat int, obs [][]byte) {
	if rp.sel != nil {
		// The selected tensors, by the encoder's numbering; the scores an
		// opponent order reads encoded into scratch when left out.
		all := rp.full.AllTensors()
		for i, k := range rp.sel {
			switch {
			case k >= 0:
				rp.encObs[i] = obs[k]
			case rp.opp != nil && all[i].Name == scoresTensor:
				if len(rp.encObs[i]) != all[i].Bytes() {
					rp.encObs[i] = make([]byte, all[i].Bytes())
				}
			default:
				rp.encObs[i] = nil
			}
		}
		obs = rp.encObs
	}
	rp.enc.Encode(rp.rs.State(), seat, obs)
	if rp.opp != nil {
		rp.opp(obs)
	}
}

// Label writes, for each unit slot seat owned at the start of the round,
// the direction (in the seat's frame) of the move its unit made, or of
// the expert's command for it; the other slots get None.
func (rp *replay[C, G, S, D]) Label(seat int, action []byte) {
	def, s := rp.def, rp.rs.State()
	for k := range action {
		action[k] = byte(int8(def.None))
	}
	set := func(id int, d D) {
		if id >= 0 && id < len(action) && def.Owner(s, id) == seat {
			action[id] = byte(int8(d))
		}
	}
	if rp.expert.On() {
		rp.expert.Label(seat, rp.r, rp.rs.Seed(), action, func(b Bot[S, D], action []byte) {
			o := &rp.orders[seat]
			o.Reset(def.NumUnits(s))
			playBot(def, b, s, seat, &rp.views[seat], o)
			for _, c := range o.List() {
				set(c.ID, c.Dir)
			}
		})
		return
	}
	for _, m := range rp.rs.Moves() {
		d := m.Dir
		if def.ViewDir != nil {
			d = def.ViewDir(seat, d)
		}
		set(m.ID, d)
	}
}

func (rp *replay[C, G, S, D]) Scores() (before, after []int) {
	b, a := rp.rs.Scores()
	return b[:], a[:]
}
