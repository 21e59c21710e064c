package game

import (
	"encoding/binary"
	"io"
	"slices"

	"jgym/env"
)

// envRules is a game as env.Rules, which an env.Host hosts.
type envRules[C Config, G, S any, D Dir] struct{ def *Def[C, G, S, D] }

var _ env.Rules[nopConfig, Bot[int, int8]] = envRules[nopConfig, int, int, int8]{}

type nopConfig struct{}

func (nopConfig) Rounds() int { return 0 }

func (r envRules[C, G, S, D]) Name() string                        { return r.def.Name }
func (r envRules[C, G, S, D]) DefaultConfig() C                    { return r.def.DefaultConfig() }
func (r envRules[C, G, S, D]) ParseConfig(rd io.Reader) (C, error) { return r.def.ParseConfig(rd) }
func (r envRules[C, G, S, D]) Spec(cfg *C) (env.Spec, error)       { return r.def.EnvSpec(cfg) }
func (r envRules[C, G, S, D]) Bots() *env.BotRegistry[Bot[S, D]]   { return r.def.Bots }
func (r envRules[C, G, S, D]) NewTable(cfg *C, s *env.Setup) env.Table[Bot[S, D]] {
	return r.def.newTable(cfg, s)
}
func (r envRules[C, G, S, D]) CheckSetup(s *env.Setup, _ *env.Spec) error { return r.def.checkSetup(s) }

// table is one game at an env table (env.Table): a Match of the seated
// bots, the learners' decoder and the observation encoder, with the
// setup's options: the opponents' order in the observation, the
// learners' command order, the per-unit credit.
type table[C Config, G, S any, D Dir] struct {
	def   *Def[C, G, S, D]
	cfg   *C
	m     *Match[C, G, S, D]
	enc   Encoder[S]
	dec   decoder[D]
	sizes []int    // bytes of each observation tensor of one seat
	out   []int    // index in Out.Obs of each observation tensor, -1: not asked for
	obs   [][]byte // one learner's views into an Out (nil: not computed)
	// scratch holds the tensors an opponent order reads that the setup's
	// subset leaves out (scoresTensor), by observation index; nil for
	// the others.
	scratch [][]byte

	opp     func(obs [][]byte)              // the opponents' order, nil: by seat
	prio    func(s *S, me, id int, d D) int // the commands' order, nil: by slot
	weights []float64                       // the credit's weights, nil: no credit
	before  S                               // the state before the last round (credit)
	credit  [][]float32                     // each learner's credit of the last round

	traceNames [NumSeats]string // the names of the trace's header
}

func (d *Def[C, G, S, D]) newTable(cfg *C, s *env.Setup) *table[C, G, S, D] {
	t := &table[C, G, S, D]{def: d, cfg: cfg, enc: d.NewEncoder()}
	t.opp, _ = d.opponentOrder(s.OpponentOrder) // checked by checkSetup
	t.prio = d.ActionOrders[s.ActionOrder]
	if s.UnitRewards {
		t.weights = d.weights(s)
	}
	spec, _ := d.EnvSpec(cfg) // checked by the host
	all := spec.AllTensors()  // the encoder's numbering: the opt-in tensors last
	t.obs = make([][]byte, len(all))
	t.scratch = make([][]byte, len(all))
	for i, ts := range all {
		t.sizes = append(t.sizes, ts.Bytes())
		k := i
		switch {
		case len(s.Tensors) > 0:
			// The host checked the names (env.Spec.Subset).
			k = slices.Index(s.Tensors, ts.Name)
		case i >= len(spec.Observation):
			k = -1 // an opt-in tensor the setup does not name
		}
		t.out = append(t.out, k)
		if k < 0 && t.opp != nil && ts.Name == scoresTensor {
			t.scratch[i] = make([]byte, ts.Bytes())
		}
	}
	return t
}

// Reset starts the match of the seed with the bots.
func (t *table[C, G, S, D]) Reset(seed int64, names [NumSeats]string, bots [NumSeats]Bot[S, D]) error {
	m, err := t.def.NewMatch(*t.cfg, int(seed), names, bots)
	if err != nil {
		t.m = nil
		return err
	}
	m.Record()
	t.started(m, names)
	return nil
}

func (t *table[C, G, S, D]) Done() bool            { return t.m.Done() }
func (t *table[C, G, S, D]) Round() int            { return t.m.Round() }
func (t *table[C, G, S, D]) Scores() [NumSeats]int { return t.m.Scores() }

// Play plays one round: the bots' orders, each learner's after those of
// the bots before its seat, then the engine. A round that fails ends the
// game, and its trace with it.
func (t *table[C, G, S, D]) Play(learners []env.Learner) (bool, error) {
	def, s := t.def, t.m.State()
	if t.weights != nil {
		def.CopyState(&t.before, s)
	}
	err := t.m.Play(func(p int, o *Orders[D]) {
		for _, l := range learners {
			if l.Player == p {
				prio := t.prio
				if l.Order != nil {
					prio = nil
				}
				def.decode(&t.dec, s, p, l.Action, l.Order, prio, o)
			}
		}
	})
	if t.weights != nil {
		t.credits(learners)
	}
	return err != nil, err
}

// credits computes each learner's per-unit credit of the round just
// played (zero after a round that failed).
func (t *table[C, G, S, D]) credits(learners []env.Learner) {
	for len(t.credit) < len(learners) {
		t.credit = append(t.credit, make([]float32, len(learners[0].Action)))
	}
	for l, ln := range learners {
		clear(t.credit[l])
		if t.m.Err() == nil {
			t.def.Credit(&t.before, t.m.Game, ln.Player, t.weights, t.credit[l])
		}
	}
}

// UnitRewards writes learner l's per-unit credit of the last round.
func (t *table[C, G, S, D]) UnitRewards(l int, dst []float32) {
	if l < len(t.credit) {
		copy(dst, t.credit[l])
		return
	}
	clear(dst)
}

// Observe writes learner l's observation as player p: the tensors of the
// setup's subset, the encoder skipping the others.
func (t *table[C, G, S, D]) Observe(o *env.Out, l, p int) {
	for i, n := range t.sizes {
		t.obs[i] = t.scratch[i]
		if k := t.out[i]; k >= 0 {
			t.obs[i] = o.Obs[k][l*n : (l+1)*n]
		}
	}
	t.enc.Encode(t.m.State(), p, t.obs)
	if t.opp != nil {
		t.opp(t.obs)
	}
}

// StartTrace makes the match write its trace to w.
func (t *table[C, G, S, D]) StartTrace(w io.Writer) error { return t.startTrace(w) }

// EndTrace stops the match's trace.
func (t *table[C, G, S, D]) EndTrace() error {
	if t.m == nil {
		return nil
	}
	return t.m.EndTrace()
}

// decoder turns one seat's action tensors into orders. It keeps scratch
// space between calls.
type decoder[D Dir] struct{ keys []int64 }

// decode gives, through o, the orders of player me encoded in dirs (int8
// [U], a direction per unit slot): the slots whose direction is not None
// and is legal (Def.Legal). They are issued in increasing order value
// (order: int16 [U] little-endian), or increasing priority (prio), ties by
// slot; without either, in slot order.
func (def *Def[C, G, S, D]) decode(dc *decoder[D], s *S, me int, dirs, order []byte, prio func(s *S, me, id int, d D) int, o *Orders[D]) {
	keys := dc.keys[:0]
	n := min(len(dirs), def.NumUnits(s))
	for id := 0; id < n; id++ {
		d := D(int8(dirs[id]))
		if d == def.None || !def.Legal(s, me, id, d) {
			continue
		}
		var key int64
		switch {
		case order != nil:
			key = int64(int16(binary.LittleEndian.Uint16(order[2*id:])))
		case prio != nil:
			key = int64(prio(s, me, id, d))
		}
		keys = append(keys, key<<32|int64(id))
	}
	if order != nil || prio != nil {
		slices.Sort(keys)
	}
	for _, k := range keys {
		id := int(k & 0xffffffff)
		o.Command(id, D(int8(dirs[id])))
	}
	dc.keys = keys
}

// MatchOf returns the match an instance of the game's env plays (nil
// before its first Reset, or for another game's instance), for tests and
// tools that look inside a game.
func (d *Def[C, G, S, D]) MatchOf(in env.Instance) *Match[C, G, S, D] {
	t, ok := env.TableOf[*table[C, G, S, D]](in)
	if !ok {
		return nil
	}
	return t.m
}

// Decode gives, through o, the orders of player me encoded in one seat's
// action (int8 [U]) and optional order (int16 [U], little-endian), as the
// env gives them: the slots me owns whose direction is legal, None left
// out, in increasing order value, ties by slot.
func (d *Def[C, G, S, D]) Decode(s *S, me int, dirs, order []byte, o *Orders[D]) {
	var dc decoder[D]
	d.decode(&dc, s, me, dirs, order, nil, o)
}

// NewOrders returns empty orders with the game's player-side filter.
func (d *Def[C, G, S, D]) NewOrders() *Orders[D] { return NewOrders(&d.Orders) }

// PlayBot asks bot b of player p for its orders on s, the real state, as
// a Match does: a Blind bot reads nothing, a SeatBot the real state and
// its seat, another bot p's view (built in scratch).
func (d *Def[C, G, S, D]) PlayBot(b Bot[S, D], s *S, p int, scratch *S, o *Orders[D]) {
	playBot(d, b, s, p, scratch, o)
}
