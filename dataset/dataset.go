// Package dataset turns traces of any game into training data: for every
// chosen seat and round of a trace, the seat's observation as the game's
// env encodes it, the action label of each unit slot (the move it made in
// the round, or the game's "none" action), and the seat's reward. A game
// supplies a Source (its package's Dataset function); a Writer stores the
// samples as shards of .npz files (numpy's zip of .npy arrays) and a JSON
// manifest, which python-client/jgym/dataset.py reads.
//
// Usage:
//
//	w, err := dataset.NewWriter(dir, dataset.Options{ShardSize: 4096})
//	rep, err := crematoria.Def.Dataset().Open(traceBytes, nil)
//	err = w.AddTrace("game.res", rep, []int{0, 1, 2, 3})
//	m, err := w.Close() // the manifest, also written to dir/manifest.json
//
// docs/learning-from-traces.md defines the labels and what a trace cannot
// tell.
package dataset

import (
	"errors"

	"jgym/arena"
	"jgym/env"
)

// Source is a game's side of a dataset: it opens the game's traces.
type Source interface {
	// Open reads a trace (plain bytes) played with cfg, or with its
	// header's settings when cfg is nil, and returns its replay, before
	// the first round.
	Open(trace []byte, cfg arena.Config) (Replay, error)
}

// Replay walks the rounds of one trace, rebuilding the game's state at the
// start of each round from the trace.
type Replay interface {
	// Spec is the env's spaces for the trace's configuration: the
	// observation tensors Observe writes, the action tensor of the labels.
	Spec() env.Spec
	// Names are the players' names in seat order, as the trace header has
	// them.
	Names() []string
	// Seed is the trace's seed.
	Seed() int
	// Next moves to the next round that has a movements block: the state
	// at its start is rebuilt and the round is replayed. It returns false
	// at the end of the trace or on an error (Err).
	Next() bool
	// Round is the index of the current round, 0 for the first.
	Round() int
	// Observe writes seat's observation of the state at the start of the
	// round into obs, one slice per Spec().Observation tensor, exactly as
	// the env encodes it.
	Observe(seat int, obs [][]byte)
	// Label writes seat's action label per unit slot into action (the
	// Spec().Action tensor, one int8 per slot): the direction of the move
	// the slot's unit made in the round, in the seat's view, if the seat
	// owned it at the start of the round; else the "none" action.
	Label(seat int, action []byte)
	// Scores are the seats' scores at the start of the round and after
	// it.
	Scores() (before, after []int)
	// Err is the error that stopped Next, if any.
	Err() error
}

// Expert is a Replay that can label with a bot's commands instead of the
// trace's moves: after UseExpert, Label writes, for each seat and round,
// the direction of the first command the bot gives for each unit the seat
// owns, the bot playing that seat from the state at the start of the
// round (one bot per seat, made with the trace's seed and called every
// round in order, so bots that remember earlier rounds work). The units
// it gives no command get the "none" action. The commands are what the
// bot orders, whether or not the engine would carry them out, and the
// bot's order of commands is lost. This is how a bot labels the states
// another player reached (DAgger).
type Expert interface {
	// UseExpert makes Label use the registered bot name; it fails for a
	// name the game does not register (no prefix: no files are read).
	UseExpert(name string) error
}

// OpponentOrderer is a Replay that can write its observations with the
// opponents in another order than seat order, as the env's option
// opponent_order does (env.Setup.OpponentOrder; Spec().OpponentOrders
// lists the orders besides "seat"): the same relabelling of the encoded
// tensors, so that a policy cloned from the dataset sees what it will see
// in the env and as a policy bot with that order. The labels do not
// change: an action holds a direction per unit slot, a unit's stable
// identifier, and the seat's own units are the same units whatever the
// labelling of the opponents; the action mask is per own unit slot too.
type OpponentOrderer interface {
	// OrderOpponents makes Observe write the opponents in order o
	// ("seat" or "" for seat order); it fails for an order the game does
	// not offer.
	OrderOpponents(o string) error
}

// TensorSelector is a Replay that can write a subset of the observation
// tensors, opt-in tensors included, as the env's option tensors does
// (env.Setup.Tensors, env.Spec.Subset): after SelectTensors, Spec()
// holds those tensors and the masks, and Observe writes them.
type TensorSelector interface {
	// SelectTensors makes Spec and Observe hold the tensors named (no
	// names: the whole observation); an error wraps env.ErrBadSetup.
	SelectTensors(names []string) error
}

// ErrOpponentOrder is returned when a dataset's opponent order cannot be
// written: the game does not offer it, or its replay cannot relabel.
var ErrOpponentOrder = errors.New("dataset: bad opponent order")

// Estimator is a Replay whose observations hold features its traces do not
// print, which it estimates: Estimated describes them, for the manifest.
type Estimator interface {
	Estimated() []string
}

// ErrSpec is returned when a trace's spaces differ from the dataset's (the
// traces of one dataset must share their tensor shapes).
var ErrSpec = errors.New("dataset: the trace's spaces differ from the dataset's")

// maskName is the observation tensor whose rows say which labels are legal.
const maskName = "action_mask"
