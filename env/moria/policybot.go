package moria

import (
	"fmt"

	"jgym/policy"
)

// PolicySignature is what a Moria policy takes and gives (docs/export.md):
// the observation moria-obs-1 of docs/rules/moria.md with any multiple of
// 4 unit slots, and logits [1, U, 9].
func PolicySignature() policy.Signature {
	spec := specFor(&defaultConfig)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	return sig
}

// defaultConfig is the kit's default configuration, for the signature.
var defaultConfig = DefaultConfig()

// PolicyBot plays a seat with an ONNX policy (package policy): every round
// it encodes the observation of its seat (moria-obs-1, with Observer),
// runs the network and, for each unit slot, takes the direction with the
// largest logit (the lowest direction number on a tie). It gives the
// orders with a Decoder and no action order, exactly as the environment
// turns that action into orders: the slots it owns, in slot order
// (increasing unit id), None left out. So the bot plays the moves the
// policy chose in training.
type PolicyBot struct {
	m   *policy.Model
	me  int
	ob  Observer
	dec Decoder
	err error

	obs    [][]byte // board, units, globals, action_mask
	in     policy.Inputs
	logits []float32
	action []byte // int8 direction per slot
}

var _ Bot = (*PolicyBot)(nil)

// NewPolicyBot returns the bot of model m for seat me. m must have been
// loaded with PolicySignature.
func NewPolicyBot(m *policy.Model, me int) *PolicyBot {
	u := m.NumSlots
	return &PolicyBot{
		m: m, me: me,
		obs:    [][]byte{make([]byte, BoardBytes), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals), make([]byte, u*NumDirs)},
		in:     m.NewInputs(),
		action: make([]byte, u),
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

// Logits returns the logits [U*9] of the last round played.
func (b *PolicyBot) Logits() []float32 { return b.logits }

// Play encodes the observation, runs the network and gives the orders.
func (b *PolicyBot) Play(s *State, o *Orders) {
	dirs, err := b.Decide(s)
	if err != nil {
		if b.err == nil {
			b.err = fmt.Errorf("round %d: %w", s.Round+1, err)
		}
		return
	}
	for id, d := range dirs {
		b.action[id] = byte(d)
	}
	b.dec.Decode(s, b.me, b.action, nil, o)
}

// Decide returns the chosen direction of every unit slot, the argmax of
// its logits (masked directions have the network's low logits; slots the
// seat does not own get no order whatever their direction).
func (b *PolicyBot) Decide(s *State) ([]Dir, error) {
	u := b.m.NumSlots
	if n := NumSlots(s.Cfg); n != u {
		return nil, fmt.Errorf("%w: the game has %d unit slots, the model %d", policy.ErrSignature, n, u)
	}
	b.ob.Board(s, b.me, b.obs[0])
	b.ob.Units(s, b.me, b.obs[1])
	b.ob.Globals(s, b.me, b.obs[2])
	b.ob.Mask(s, b.me, b.obs[3])
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
