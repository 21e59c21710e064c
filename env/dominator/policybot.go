package dominator

import (
	"fmt"

	"jgym/policy"
)

// PolicySignature is what a Dominator policy takes and gives
// (docs/export.md): every observation tensor of dominator-obs-1
// (docs/rules/dominator.md: board, units, globals, action_mask and
// move_mask) for the default 37 x 37 board, with any multiple of 4 unit
// slots, and logits [1, U, 9].
func PolicySignature() policy.Signature {
	cfg := DefaultConfig()
	spec := specFor(&cfg)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	return sig
}

// PolicyBot plays a seat with an ONNX policy (package policy): every round
// it encodes the observation of its seat (dominator-obs-1, with Observer),
// runs the network, takes for every unit slot the direction with the
// largest logit (the lowest direction number on a tie) and gives the
// orders the environment gives for that action without action_order
// (Decoder): the legal directions other than None, in slot order. So the
// bot plays exactly the moves the policy chose in training.
//
// It reads the real state and its seat (SeatBot), as the environment
// does; Play on a view encodes the view as seat 0, which differs from the
// environment's observation only for lost units (SPEC §8.9: the view
// keeps their real player number).
type PolicyBot struct {
	m   *policy.Model
	me  int
	ob  Observer
	dec Decoder
	err error

	obs    [][]byte // board, units, globals, action_mask, move_mask
	in     policy.Inputs
	logits []float32
	dirs   []byte
}

var (
	_ SeatBot = (*PolicyBot)(nil)
	_ BotErr  = (*PolicyBot)(nil)
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
		obs: [][]byte{make([]byte, board), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals),
			make([]byte, u*NumDirs), make([]byte, u*NumDirs)},
		in:   m.NewInputs(),
		dirs: make([]byte, u),
	}
}

// PolicyFactory returns a BotFactory seating m.
func PolicyFactory(m *policy.Model) BotFactory {
	return func(me, seed int) Bot { return NewPolicyBot(m, me) }
}

// Err returns the first error of a round in which the bot gave no orders
// (a game whose configuration does not fit the model: another number of
// unit slots or another board size), or nil.
func (b *PolicyBot) Err() error { return b.err }

// Logits returns the logits [U*9] of the last round played.
func (b *PolicyBot) Logits() []float32 { return b.logits }

// Play plays on the seat's view v, as seat 0 of it.
func (b *PolicyBot) Play(v *State, o *Orders) { b.PlaySeat(v, 0, o) }

// PlaySeat encodes the observation of seat me of the real state s, runs
// the network and gives the orders.
func (b *PolicyBot) PlaySeat(s *State, me int, o *Orders) {
	dirs, err := b.Decide(s, me)
	if err != nil {
		if b.err == nil {
			b.err = fmt.Errorf("round %d: %w", s.Round, err)
		}
		return
	}
	for id, d := range dirs {
		b.dirs[id] = byte(int8(d))
	}
	b.dec.Decode(s, me, b.dirs, nil, o)
}

// Decide returns the chosen direction of every unit slot, in me's frame
// (slots the seat does not own included).
func (b *PolicyBot) Decide(s *State, me int) ([]Dir, error) {
	u := b.m.NumSlots
	if n := NumSlots(s.Cfg); n != u {
		return nil, fmt.Errorf("%w: the game has %d unit slots, the model %d", policy.ErrSignature, n, u)
	}
	if shape := b.m.Signature.Inputs[0].Shape; shape[1] != s.Cfg.Rows || shape[2] != s.Cfg.Cols {
		return nil, fmt.Errorf("%w: the game's board is %d x %d, the model's %d x %d", policy.ErrSignature,
			s.Cfg.Rows, s.Cfg.Cols, shape[1], shape[2])
	}
	b.ob.Board(s, me, b.obs[0])
	b.ob.Units(s, me, b.obs[1])
	b.ob.Globals(s, me, b.obs[2])
	b.ob.Mask(s, me, b.obs[3])
	b.ob.MoveMask(s, me, b.obs[4])
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
