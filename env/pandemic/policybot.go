package pandemic

import (
	"fmt"

	"jgym/policy"
)

// PolicySignature is what a Pandemic policy takes and gives: the
// observation of docs/rules/pandemic.md (pandemic-obs-1) on the default
// 70 x 70 board, with any multiple of 4 unit slots, and logits [1, U, 5].
// The board's size is part of the board tensor's shape, so a policy
// trained on another board size does not load.
func PolicySignature() policy.Signature {
	cfg := DefaultConfig()
	spec := specFor(&cfg)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	return sig
}

// PolicyBot plays a seat with an ONNX policy (package policy): every round
// it encodes the observation of its seat (pandemic-obs-1, with Observer),
// runs the network and, for each unit slot it owns, takes the direction
// with the largest logit (the lowest direction number on a tie). It
// issues the commands in slot order (increasing unit id), leaving out
// None, which is what the environment does with an action and no
// action_order (DecodeActions), so the bot plays exactly the moves the
// policy chose in training.
type PolicyBot struct {
	m   *policy.Model
	me  int
	ob  Observer
	err error

	obs    [][]byte // board, units, globals, action_mask
	in     policy.Inputs
	logits []float32
	action []byte
	keys   []int64
}

var (
	_ Bot    = (*PolicyBot)(nil)
	_ BotErr = (*PolicyBot)(nil)
)

// NewPolicyBot returns the bot of model m for seat me. m must have been
// loaded with PolicySignature.
func NewPolicyBot(m *policy.Model, me int) *PolicyBot {
	u := m.NumSlots
	board := 1
	for _, d := range m.Signature.Inputs[0].Shape {
		board *= d
	}
	return &PolicyBot{
		m: m, me: me,
		obs:    [][]byte{make([]byte, board), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals), make([]byte, u*NumDirs)},
		in:     m.NewInputs(),
		action: make([]byte, u),
	}
}

// PolicyFactory returns a BotFactory seating m.
func PolicyFactory(m *policy.Model) BotFactory {
	return func(me, seed int) Bot { return NewPolicyBot(m, me) }
}

// Err returns the first error of a round in which the bot gave no orders
// (a game whose board or number of unit slots is not the model's), or
// nil. Match ends the game with it.
func (b *PolicyBot) Err() error { return b.err }

// Logits returns the logits [U*5] of the last round played.
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
	for id, d := range dirs {
		b.action[id] = byte(d)
	}
	b.keys = DecodeActions(s, b.me, b.action, nil, o, b.keys)
}

// Decide returns the chosen direction of every unit slot: the argmax of
// its logits, whoever owns the unit (Play orders only the seat's own).
func (b *PolicyBot) Decide(s *State) ([]Dir, error) {
	u := b.m.NumSlots
	if n := NumSlots(s.Cfg); n != u {
		return nil, fmt.Errorf("%w: the game has %d unit slots, the model %d", policy.ErrSignature, n, u)
	}
	if shape := b.m.Signature.Inputs[0].Shape; s.Rows != shape[1] || s.Cols != shape[2] {
		return nil, fmt.Errorf("%w: the game's board is %d x %d, the model's %d x %d", policy.ErrSignature, s.Rows, s.Cols, shape[1], shape[2])
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
