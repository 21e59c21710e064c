package policy

import (
	"encoding/binary"
	"fmt"
	"math"

	"jgym/env/crematoria"
)

// Bot plays a seat with a Model: every round it encodes the observation of
// its seat (crematoria-obs-1, with crematoria.Observer), runs the network
// and, for each unit slot it owns, takes the direction with the largest
// masked logit (the lowest direction number on a tie). It issues the
// commands in slot order (increasing unit id), leaving out None, which is
// what the environment does with an action and no action_order, so the
// bot plays exactly the moves the policy chose in training.
type Bot struct {
	m   *Model
	me  int
	ob  crematoria.Observer
	err error

	board, units, glob, mask []byte
	in                       map[string]*Tensor
	logits                   []float32
}

var _ crematoria.Bot = (*Bot)(nil)

// NewBot returns the bot for seat me.
func NewBot(m *Model, me int) *Bot {
	u := m.NumSlots
	b := &Bot{
		m: m, me: me,
		board: make([]byte, crematoria.BoardBytes),
		units: make([]byte, u*crematoria.UnitFeatures),
		glob:  make([]byte, 4*crematoria.NumGlobals),
		mask:  make([]byte, u*crematoria.NumDirs),
	}
	b.in = map[string]*Tensor{
		InputBoard:   NewInt64([]int{1, crematoria.BoardPlanes, crematoria.Rows, crematoria.Cols}, make([]int64, crematoria.BoardBytes)),
		InputUnits:   NewInt64([]int{1, u, crematoria.UnitFeatures}, make([]int64, u*crematoria.UnitFeatures)),
		InputGlobals: NewFloat32([]int{1, crematoria.NumGlobals}, make([]float32, crematoria.NumGlobals)),
		InputMask:    NewBool([]int{1, u, crematoria.NumDirs}, make([]bool, u*crematoria.NumDirs)),
	}
	return b
}

// Factory returns a crematoria.BotFactory seating m.
func Factory(m *Model) crematoria.BotFactory {
	return func(me, seed int) crematoria.Bot { return NewBot(m, me) }
}

// Err returns the first error of a round in which the bot gave no orders
// (a game whose configuration does not match the model's number of unit
// slots), or nil.
func (b *Bot) Err() error { return b.err }

// Logits returns the masked logits [U*11] of the last round played.
func (b *Bot) Logits() []float32 { return b.logits }

// Play encodes the observation, runs the network and gives the orders.
func (b *Bot) Play(s *crematoria.State, o *crematoria.Orders) {
	dirs, err := b.Decide(s)
	if err != nil {
		if b.err == nil {
			b.err = fmt.Errorf("round %d: %w", s.Round, err)
		}
		return
	}
	for id, d := range dirs {
		if d != crematoria.None && s.Units[id].Player == b.me {
			o.Command(id, d)
		}
	}
}

// Decide returns the chosen direction of every unit slot (None for slots
// the seat does not own).
func (b *Bot) Decide(s *crematoria.State) ([]crematoria.Dir, error) {
	u := b.m.NumSlots
	if n := crematoria.NumSlots(s.Cfg); n != u {
		return nil, fmt.Errorf("%w: the game has %d unit slots, the model %d", ErrSignature, n, u)
	}
	b.ob.Board(s, b.me, b.board)
	b.ob.Units(s, b.me, b.units)
	b.ob.Globals(s, b.me, b.glob)
	b.ob.Mask(s, b.me, b.mask)
	logits, err := b.m.Logits(b.in, b.board, b.units, b.glob, b.mask)
	if err != nil {
		return nil, err
	}
	b.logits = logits
	return Argmax(logits, u), nil
}

// Logits runs the model on one encoded observation (the raw tensors of
// docs/observation.md: board uint8 [3,40,80], units uint8 [U,8], globals
// float32 little-endian [16], action_mask bool [U,11]) and returns the
// masked logits [U*11]. scratch, if not nil, holds input tensors of the
// right shapes to reuse (as NewBot makes them).
func (m *Model) Logits(scratch map[string]*Tensor, board, units, globals, mask []byte) ([]float32, error) {
	u := m.NumSlots
	if len(board) != crematoria.BoardBytes || len(units) != u*crematoria.UnitFeatures ||
		len(globals) != 4*crematoria.NumGlobals || len(mask) != u*crematoria.NumDirs {
		return nil, fmt.Errorf("observation sizes %d, %d, %d, %d do not fit %d slots", len(board), len(units), len(globals), len(mask), u)
	}
	in := scratch
	if in == nil {
		in = map[string]*Tensor{
			InputBoard:   NewInt64([]int{1, crematoria.BoardPlanes, crematoria.Rows, crematoria.Cols}, make([]int64, len(board))),
			InputUnits:   NewInt64([]int{1, u, crematoria.UnitFeatures}, make([]int64, len(units))),
			InputGlobals: NewFloat32([]int{1, crematoria.NumGlobals}, make([]float32, crematoria.NumGlobals)),
			InputMask:    NewBool([]int{1, u, crematoria.NumDirs}, make([]bool, len(mask))),
		}
	}
	for i, x := range board {
		in[InputBoard].I[i] = int64(x)
	}
	for i, x := range units {
		in[InputUnits].I[i] = int64(x)
	}
	for i := range in[InputGlobals].F {
		in[InputGlobals].F[i] = math.Float32frombits(binary.LittleEndian.Uint32(globals[4*i:]))
	}
	for i, x := range mask {
		in[InputMask].B[i] = x != 0
	}
	out, err := m.Run(in)
	if err != nil {
		return nil, err
	}
	return out[OutputLogits].F, nil
}

// Argmax returns, for each of u slots, the direction with the largest
// logit, the first one on a tie (as torch.argmax and numpy.argmax).
func Argmax(logits []float32, u int) []crematoria.Dir {
	dirs := make([]crematoria.Dir, u)
	k := crematoria.NumDirs
	for id := range dirs {
		row := logits[id*k : (id+1)*k]
		best := 0
		for d := 1; d < k; d++ {
			if row[d] > row[best] {
				best = d
			}
		}
		dirs[id] = crematoria.Dir(best)
	}
	return dirs
}
