package crematoria

import (
	"fmt"

	"jgym/policy"
)

// PolicySignature is what a Crematoria policy takes and gives
// (docs/export.md): the observation of docs/observation.md
// (crematoria-obs-3, or the first five or four tensors for a policy
// trained on crematoria-obs-2 or crematoria-obs-1) with any multiple of 4
// unit slots, and logits [1, U, 11]. Every version takes the opponents by
// seat or by score (OrderOpponentsByScore only rewrites board, units and
// globals, which they all have).
func PolicySignature() policy.Signature {
	spec := specFor(&defaultConfig)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	sig.ActionOrders = []string{policy.OrderAttacksFirst}
	sig.OpponentOrders = []string{policy.OpponentsByScore}
	v2 := sig
	v2.ObservationVersion = ObservationVersion2
	v2.Inputs = sig.Inputs[:5] // board, units, globals, action_mask, paths
	v1 := sig
	v1.ObservationVersion = ObservationVersion1
	v1.Inputs = sig.Inputs[:4] // board, units, globals, action_mask
	sig.Older = []policy.Signature{v2, v1}
	return sig
}

// defaultConfig is the kit's default configuration, for the signature.
var defaultConfig = DefaultConfig()

// PolicyBot plays a seat with an ONNX policy (package policy): every round
// it encodes the observation of its seat (the tensors of the model's
// version, crematoria-obs-3, -2 or -1, with Observer), runs the network and, for each unit slot it owns, takes the
// direction with the largest logit (the lowest direction number on a
// tie). It issues the commands in slot order (increasing unit id), leaving
// out None, which is what the environment does with an action and no
// action_order, so the bot plays exactly the moves the policy chose in
// training. A model whose action_order is policy.OrderAttacksFirst has its
// attacks (Attacks) issued first, then the other commands, each group in
// slot order: what the trainer's action_order tensor asked for. A model
// whose opponent_order is policy.OpponentsByScore sees the opponents
// relabelled by decreasing score (OrderOpponentsByScore) in the tensors it
// reads.
type PolicyBot struct {
	m   *policy.Model
	me  int
	ob  Observer
	err error

	obs    [][]byte // board, units, globals, action_mask[, paths[, sun_paths]]
	in     policy.Inputs
	logits []float32
}

var _ Bot = (*PolicyBot)(nil)

// NewPolicyBot returns the bot of model m for seat me. m must have been
// loaded with PolicySignature.
func NewPolicyBot(m *policy.Model, me int) *PolicyBot {
	u := m.NumSlots
	return &PolicyBot{
		m: m, me: me,
		obs: [][]byte{make([]byte, BoardBytes), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals), make([]byte, u*NumDirs),
			make([]byte, u*PathColumns), make([]byte, u*SunColumns)}[:len(m.Signature.Inputs)],
		in: m.NewInputs(),
	}
}

// PolicyFactory returns a BotFactory seating m.
func PolicyFactory(m *policy.Model) BotFactory {
	return func(me, seed int) Bot { return NewPolicyBot(m, me) }
}

// Err returns the first error of a round in which the bot gave no orders
// (a game whose configuration does not match the model's number of unit
// slots), or nil.
func (b *PolicyBot) Err() error { return b.err }

// Logits returns the logits [U*11] of the last round played.
func (b *PolicyBot) Logits() []float32 { return b.logits }

// Play encodes the observation, runs the network and gives the orders.
func (b *PolicyBot) Play(s *State, o *Orders) {
	dirs, err := b.Decide(s)
	if err != nil {
		if b.err == nil {
			b.err = fmt.Errorf("round %d: %w", s.Round, err)
		}
		return
	}
	// One pass in slot order, or two: the attacks, then the rest.
	first := b.m.ActionOrder == policy.OrderAttacksFirst
	passes := 1
	if first {
		passes = 2
	}
	for pass := 0; pass < passes; pass++ {
		for id, d := range dirs {
			u := &s.Units[id]
			if d == None || u.Player != b.me || first && Attacks(s, u, d) != (pass == 0) {
				continue
			}
			o.Command(id, d)
		}
	}
}

// Attacks reports whether moving u in direction d attacks another player's
// unit: u is a Furyan and the cell one step away in d (columns wrapping,
// Up and Down changing the level) holds, at the start of the round, a
// Pioneer or a Furyan (a unit slot) of another player. The commands of
// policy.OrderAttacksFirst, in the policy bot, the exported C++ player and
// the trainer (python-client/examples/train_ppo.py), put these first.
func Attacks(s *State, u *Unit, d Dir) bool {
	if u.Type != Furyan || d == None || !d.Valid() {
		return false
	}
	t := u.Pos.Add(d)
	if !t.OnBoard() {
		return false
	}
	id := s.Cells[t.Index()].ID
	return id >= 0 && int(id) < NumSlots(s.Cfg) && s.Units[id].Player != u.Player
}

// Decide returns the chosen direction of every unit slot (None for slots
// the seat does not own).
func (b *PolicyBot) Decide(s *State) ([]Dir, error) {
	u := b.m.NumSlots
	if n := NumSlots(s.Cfg); n != u {
		return nil, fmt.Errorf("%w: the game has %d unit slots, the model %d", policy.ErrSignature, n, u)
	}
	b.ob.Board(s, b.me, b.obs[0])
	b.ob.Units(s, b.me, b.obs[1])
	b.ob.Globals(s, b.me, b.obs[2])
	if b.m.OpponentOrder == policy.OpponentsByScore {
		OrderOpponentsByScore(b.obs[0], b.obs[1], b.obs[2])
	}
	b.ob.Mask(s, b.me, b.obs[3])
	if len(b.obs) > 4 {
		b.ob.Paths(s, b.me, b.obs[4])
	}
	if len(b.obs) > 5 {
		b.ob.SunPaths(s, b.me, b.obs[5])
	}
	logits, err := b.m.Logits(b.in, b.obs)
	if err != nil {
		return nil, err
	}
	b.logits = logits
	best := policy.Argmax(logits, u, NumDirs)
	dirs := make([]Dir, u)
	for i, d := range best {
		dirs[i] = Dir(d)
	}
	return dirs, nil
}
