package env

import (
	"errors"
	"io"
)

// Errors of the env contract. Games wrap them (fmt.Errorf("...: %w", ...))
// so that callers, and the server's status mapping, can branch on them.
var (
	// ErrUnknownGame means no game is registered under the requested id.
	ErrUnknownGame = errors.New("unknown game")
	// ErrUnknownBot means a seat names a bot that is not registered and
	// matches no prefix.
	ErrUnknownBot = errors.New("unknown bot")
	// ErrBadSetup means a setup is invalid: wrong number of seats, no
	// learner seat, a bad configuration text or option.
	ErrBadSetup = errors.New("bad setup")
	// ErrDuplicateGame is returned when a game id is registered twice.
	ErrDuplicateGame = errors.New("game registered twice")
	// ErrBusy means a resource the host shares between its users (such as
	// its compiler slots) stays taken: the request may succeed later.
	ErrBusy = errors.New("busy")
)

// Setup configures the tables of a Factory: the game configuration, who
// sits where, and how learners are rewarded.
type Setup struct {
	// Config is the game's configuration text; empty for the default.
	Config string
	// Seats has one entry per seat: "" for a learner seat driven by the
	// caller, otherwise a bot name the game resolves.
	Seats []string
	// Shuffle permutes the seats (learners and bots together) at every
	// reset, with a generator derived from the game seed.
	Shuffle bool
	// Reward selects the learners' reward.
	Reward RewardMode
	// OpponentOrder orders the three opponents in the learners'
	// observation: "" or "seat" (relative index r is the r-th seat after
	// the learner's), or an order the game offers (Spec.OpponentOrders:
	// "score", the leader first). A policy trained with an order plays
	// with it (its ONNX metadata opponent_order).
	OpponentOrder string
	// ActionOrder is the order of a learner's commands when a step gives
	// no order tensor: "" or "slot" (increasing unit id), or an order the
	// game offers (Spec.ActionOrders: "attacks_first"). A policy trained
	// with an order plays with it (its ONNX metadata action_order).
	ActionOrder string
	// UnitRewards asks for each learner's per-unit credit of every step
	// (UnitRewarder), where the game offers it (Spec.UnitReward).
	UnitRewards bool
	// CreditWeights sets weights of the per-unit credit by name
	// (Spec.CreditWeights); the others keep their defaults.
	CreditWeights map[string]float64
	// Tensors names the observation tensors the learners get
	// (Spec.Subset): the others are not computed and are absent from the
	// factory's spec and its instances' Out. Empty: all of them. The
	// masks a learner's actions need are kept whether named or not
	// (Spec.RequiredTensors).
	Tensors []string
}

// Learners returns the number of learner seats of the setup.
func (s *Setup) Learners() int {
	n := 0
	for _, b := range s.Seats {
		if b == "" {
			n++
		}
	}
	return n
}

// Game is a game the env layer hosts. Implementations are safe for
// concurrent use.
type Game interface {
	// Spec describes the game and its spaces with the default
	// configuration.
	Spec() Spec
	// Bots lists the bot names a seat accepts, sorted, and the accepted
	// "prefix:PATH" prefixes.
	Bots() (names, prefixes []string)
	// NewFactory validates a setup, resolves its bots and returns a factory
	// of instances that share it. Errors wrap ErrBadSetup or ErrUnknownBot.
	NewFactory(s Setup) (Factory, error)
}

// Factory makes game instances for one validated setup. It is safe for
// concurrent use.
type Factory interface {
	// Spec describes the spaces of the setup's configuration.
	Spec() Spec
	// Learners returns the number L of learner seats.
	Learners() int
	// NewInstance makes a new instance. It must be Reset before Step.
	NewInstance() (Instance, error)
	// Close releases what the setup's bots hold. Close the instances first.
	Close() error
}

// Instance is one game at one table of four seats, driven by a single
// goroutine at a time. Observations, rewards and information are written
// into caller-owned buffers so that a batch is encoded in place.
type Instance interface {
	// Reset starts a new game seeded with seed, seats the players (shuffled
	// if the setup says so) and resets the rewards.
	Reset(seed int64) error
	// Step plays one round. action holds the learners' actions, [L, ...]
	// of Spec.Action's type, little-endian; order holds the optional
	// [L, ...] action order (nil: none). Values must already be in range.
	// The learners' rewards are written into reward (len L). It reports
	// whether the game ended with this round.
	Step(action, order []byte, reward []float32) (terminated bool, err error)
	// Observe writes the learners' current observation and information.
	Observe(o *Out)
	// Close releases the instance's bots.
	io.Closer
}

// UnitRewarder is implemented by instances of a setup that asked for
// UnitRewards: after each Step (before any Reset), UnitRewards writes each
// learner's per-unit credit of that step, [L, U] float32: what each of its
// unit slots earned by the game's scoring, weighted by the setup's
// CreditWeights (zero for slots it does not own).
type UnitRewarder interface {
	UnitRewards(dst []float32)
}

// Out is where an instance writes the observation and information of one
// environment: views into a batch's buffers at that environment's offset.
type Out struct {
	// Obs has one slice per Spec.Observation tensor, each L times the
	// tensor's size, learner-major.
	Obs [][]byte
	// Scores has the NumSeats scores in seat order.
	Scores []int32
	// Rank has the rank (1 best .. NumSeats) of each learner.
	Rank []int32
	// Seats has the seat index of each learner.
	Seats []int32
	// Round is the round number after the last step (len 1).
	Round []int32
}

// NewOut allocates the buffers of one environment's observation and
// information for the spec's spaces and l learner seats.
func NewOut(spec Spec, l int) *Out {
	o := &Out{Scores: make([]int32, spec.NumSeats), Rank: make([]int32, l), Seats: make([]int32, l), Round: make([]int32, 1)}
	for _, t := range spec.Observation {
		o.Obs = append(o.Obs, make([]byte, l*t.Bytes()))
	}
	return o
}

// TraceOpener opens the file that records one game: the episode counter
// of the instance (0 for its first game) and the game seed.
type TraceOpener func(episode int, seed int64) (io.WriteCloser, error)

// Tracer is implemented by instances that can record their games in the
// game's own trace format (Crematoria: the course's .res files). After
// SetTrace, every Reset opens a trace with open, every Step appends to
// it, and the end of the game or Close closes it.
type Tracer interface {
	SetTrace(open TraceOpener)
}
