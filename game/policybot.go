package game

import (
	"fmt"
	"slices"

	"jgym/env"
	"jgym/policy"
)

// PolicyBot plays a seat with an ONNX policy (package policy). Every round
// it encodes its seat's observation of the real state with the game's
// encoder (the tensors the model takes: those of its observation version,
// or the subset its metadata tensors names, the others not computed),
// relabels the opponents if the model's opponent_order asks
// (Def.OpponentOrders), runs the network, takes for every unit slot the
// direction with the largest logit (the lowest direction on a tie) and
// gives the orders the env gives for that action: the legal directions
// other than None, in slot order, or in the order of the model's
// action_order (Def.ActionOrders). So the bot plays exactly the moves the
// policy chose in training.
type PolicyBot[C Config, G, S any, D Dir] struct {
	def *Def[C, G, S, D]
	m   *policy.Model
	me  int
	enc Encoder[S]
	err error

	prio func(s *S, me, id int, d D) int
	opp  func(obs [][]byte)

	cfg    *C       // the configuration the buffers are sized for
	obs    [][]byte // per observation tensor: a buffer if the model takes it, else nil
	feed   [][]byte // the model's inputs, in its order (views of obs)
	in     policy.Inputs
	logits []float32
	action []byte
	dirs   []D
	dec    decoder[D]
}

var _ SeatBot[int, int8] = (*PolicyBot[nopConfig, int, int, int8])(nil)

// NewPolicyBot returns the bot of model m for seat me. m must have been
// loaded with the game's signature (PolicySignature).
func (d *Def[C, G, S, D]) NewPolicyBot(m *policy.Model, me int) *PolicyBot[C, G, S, D] {
	b := &PolicyBot[C, G, S, D]{def: d, m: m, me: me, enc: d.NewEncoder(), in: m.NewInputs(),
		action: make([]byte, m.NumSlots), dirs: make([]D, m.NumSlots)}
	if o := m.ActionOrder; o != "" && o != policy.OrderSlot {
		b.prio = d.ActionOrders[o]
	}
	b.opp, _ = d.opponentOrder(m.OpponentOrder) // checked by the model's loading (Signature.OpponentOrders)
	return b
}

// PolicyFactory returns a BotFactory seating m.
func (d *Def[C, G, S, D]) PolicyFactory(m *policy.Model) BotFactory[S, D] {
	return func(me, seed int) Bot[S, D] { return d.NewPolicyBot(m, me) }
}

// Err returns the first error of a round in which the bot gave no orders
// (a game whose configuration does not fit the model: another number of
// unit slots or another board), or nil.
func (b *PolicyBot[C, G, S, D]) Err() error { return b.err }

// Logits returns the logits [U*Actions] of the last decision.
func (b *PolicyBot[C, G, S, D]) Logits() []float32 { return b.logits }

// Play plays on s as the bot's seat.
func (b *PolicyBot[C, G, S, D]) Play(s *S, o *Orders[D]) { b.PlaySeat(s, b.me, o) }

// PlaySeat encodes seat me's observation of the real state s, runs the
// network and gives the orders.
func (b *PolicyBot[C, G, S, D]) PlaySeat(s *S, me int, o *Orders[D]) {
	if _, err := b.Decide(s, me); err != nil {
		if b.err == nil {
			b.err = err
		}
		return
	}
	b.def.decode(&b.dec, s, me, b.action, nil, b.prio, o)
}

// Decide returns the chosen direction of every unit slot of seat me in s
// (whatever the seat owns: the orders go to its own slots only).
func (b *PolicyBot[C, G, S, D]) Decide(s *S, me int) ([]D, error) {
	if err := b.prepare(s); err != nil {
		return nil, err
	}
	b.enc.Encode(s, me, b.obs)
	if b.opp != nil {
		b.opp(b.obs)
	}
	logits, err := b.m.Logits(b.in, b.feed)
	if err != nil {
		return nil, err
	}
	b.logits = logits
	a := b.m.Signature.Actions
	for id := range b.dirs {
		row := logits[id*a : (id+1)*a]
		best := 0
		for k := 1; k < a; k++ {
			if row[k] > row[best] {
				best = k
			}
		}
		b.dirs[id], b.action[id] = D(best), byte(int8(best))
	}
	return b.dirs, nil
}

// prepare sizes the buffers for the configuration of s, checking that the
// game's tensors are the model's.
func (b *PolicyBot[C, G, S, D]) prepare(s *S) error {
	cfg := b.def.Config(s)
	if cfg == b.cfg && b.cfg != nil {
		return nil
	}
	spec, err := b.def.EnvSpec(cfg)
	if err != nil {
		return err
	}
	all := spec.AllTensors() // the encoder's numbering: the opt-in tensors last
	obs := make([][]byte, len(all))
	feed := make([][]byte, 0, len(b.m.Signature.Inputs))
	for _, in := range b.m.Signature.Inputs {
		k := slices.IndexFunc(all, func(t env.TensorSpec) bool { return t.Name == in.Name })
		if k < 0 {
			return fmt.Errorf("%w: the game has no observation %q", policy.ErrSignature, in.Name)
		}
		t := all[k]
		shape := slices.Clone(in.Shape)
		for i, x := range shape {
			if x < 0 {
				shape[i] = b.m.NumSlots
			}
		}
		if !slices.Equal(shape, t.Shape) || in.Dtype != t.Dtype {
			return fmt.Errorf("%w: the game's %s is %s %v, the model's %s %v (%d unit slots)",
				policy.ErrSignature, t.Name, t.Dtype, t.Shape, in.Dtype, shape, b.m.NumSlots)
		}
		obs[k] = make([]byte, t.Bytes())
		feed = append(feed, obs[k])
	}
	if b.opp != nil {
		// The opponent order reads the scores of a tensor a model trained
		// on a subset may not take: encoded, not fed.
		for k, t := range spec.Observation {
			if obs[k] == nil && t.Name == scoresTensor {
				obs[k] = make([]byte, t.Bytes())
			}
		}
	}
	b.cfg, b.obs, b.feed = cfg, obs, feed
	return nil
}
