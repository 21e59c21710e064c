package game

import (
	"bytes"
	"fmt"
	"io"

	"jgym/course"
)

// VerifyOptions selects how a game's verifier checks a trace.
type VerifyOptions[C any, D Dir] struct {
	// Config is the configuration the game was played with: its settings
	// must equal the trace header's, and its map source is used. When
	// nil, the settings come from the header and the initial state must
	// be that of one of the game's candidate configurations
	// (Verifier.Candidates).
	Config *C
	// Commands are the command lists the players handed to the engine.
	// With them the game is replayed exactly; without them every round is
	// checked against the rules.
	Commands *CommandLog[D]
	// AllowAborted accepts a trace that ends early where the game may
	// have aborted, for the games whose verifier reads it (Pandemic's:
	// its hooks say how); the others ignore it.
	AllowAborted bool
}

// Verifier is a game's verifier as the core's driver runs it: the driver
// ([Verifier.Verify]) is written once here (the trace's initial game from
// its header or from the configurations that could have made it, the
// replay of the command log round by round, the rules check without it);
// the game fills the hooks below with its trace format's comparisons and
// its own checks. C is the game's configuration, G its engine, D its
// direction type and T its parsed trace (a pointer).
//
// A game sets its definition's Verify to [Verifier.Bytes] and its Replay
// starts from [Verifier.Initial].
type Verifier[C Config, G any, D Dir, T any] struct {
	// Parse reads a trace.
	Parse func(r io.Reader) (T, error)
	// Shape checks that a trace (possibly nil) holds the blocks the
	// driver reads (its states and movements blocks): the error of an
	// incomplete trace, checked before anything else.
	Shape func(tr T) error
	// Header is the configuration and the seed the trace's header gives.
	Header func(tr T) (*C, int)
	// Settings are a configuration's settings as its trace header prints
	// them, in order, named by SettingKeys; the header's first setting is
	// on line SettingsLine of a trace. The header of a trace played with a
	// given configuration must print its settings.
	Settings     func(c *C) []string
	SettingKeys  []string
	SettingsLine int

	// New starts the engine, Step plays one round and Orders is the
	// player-side filter the command log must have passed: the
	// definition's New, Step and Orders.
	New    func(cfg C, seed int) (G, error)
	Step   func(g G, cmds *[NumSeats][]Command[D]) error
	Orders *OrderRules[D]

	// Candidates are the configurations that may have made the trace's
	// initial state when the caller gives none, tried in order: the
	// header's settings with each map source the first state may come
	// from (a generator of the seed; the first state's map as a fixed
	// map, told apart by the units the generator places). The first whose
	// initial state is the trace's is the game's; if none is, the
	// divergence of the candidate with the fewest differences
	// (CountDiffs) is reported, or NoCandidate's if none could start.
	Candidates  func(tr T) []C
	CountDiffs  func(tr T, g G) int
	NoCandidate func(tr T) *course.Divergence

	// DiffState compares state k of the trace (0: the initial state) with
	// the engine's, field by field in file order: the first difference,
	// or nil.
	DiffState func(tr T, k int, g G) *course.Divergence
	// DiffMoves compares the movements block of round r (the r-th round
	// played, from 0) with the movements the engine just printed.
	DiffMoves func(tr T, r int, g G) *course.Divergence
	// FirstRound is the number the replay's engine errors give the first
	// round played: 0 (Crematoria's "round 0") or 1.
	FirstRound int
	// End, optional, is for a game whose trace may end early (an abort)
	// or whose engine may abort: called after the engine played round r
	// (from 0), with the error of its Step, before the driver's checks
	// (an engine error, the movements, the state). done stops the replay
	// with err (nil: the trace verifies). Nil: every trace has all its
	// rounds and an engine error is the verifier's error.
	End func(tr T, r int, g G, stepErr error, o *VerifyOptions[C, D]) (done bool, err error)

	// Rules checks a trace against the rules from its initial game,
	// without commands: the game's own checks, round by round, and what
	// an incomplete trace means to it.
	Rules func(tr T, g G, o *VerifyOptions[C, D]) error
}

// Verify checks a trace: replayed from o.Commands when it is not nil,
// else against the rules. It returns nil, a *course.Divergence, or
// another error (an incomplete trace, a bad command log, an engine
// abort).
func (v *Verifier[C, G, D, T]) Verify(tr T, o *VerifyOptions[C, D]) error {
	if err := v.Shape(tr); err != nil {
		return err
	}
	g, err := v.Initial(tr, o.Config)
	if err != nil {
		return err
	}
	if o.Commands != nil {
		return v.replay(tr, g, o)
	}
	return v.Rules(tr, g, o)
}

// Bytes is Verify on a trace's bytes, with the command log log (nil: the
// rules check) and the configuration cfg the game was played with (nil:
// the header's): a definition's Verify.
func (v *Verifier[C, G, D, T]) Bytes(trace []byte, log *CommandLog[D], cfg *C) error {
	tr, err := v.Parse(bytes.NewReader(trace))
	if err != nil {
		return err
	}
	return v.Verify(tr, &VerifyOptions[C, D]{Config: cfg, Commands: log})
}

// Initial builds the game of a trace (whose Shape passed) and checks its
// initial state: with want, the header must print want's settings and the
// game is want's; without, it is the first of the Candidates that gives
// the trace's initial state.
func (v *Verifier[C, G, D, T]) Initial(tr T, want *C) (G, error) {
	var zero G
	hdr, seed := v.Header(tr)
	if want != nil {
		got := v.Settings(hdr)
		for i, w := range v.Settings(want) {
			if got[i] != w {
				return zero, &course.Divergence{Round: -1, Unit: -1, Field: v.SettingKeys[i], Want: w, Got: got[i],
					Line: v.SettingsLine + i}
			}
		}
		g, err := v.New(*want, seed)
		if err != nil {
			return zero, fmt.Errorf("verify: build the game: %w", err)
		}
		if d := v.DiffState(tr, 0, g); d != nil {
			return zero, d
		}
		return g, nil
	}
	var best *course.Divergence
	bestDiffs := -1
	for _, cfg := range v.Candidates(tr) {
		g, err := v.New(cfg, seed)
		if err != nil {
			continue
		}
		d := v.DiffState(tr, 0, g)
		if d == nil {
			return g, nil
		}
		if n := v.CountDiffs(tr, g); bestDiffs < 0 || n < bestDiffs {
			best, bestDiffs = d, n
		}
	}
	if best == nil {
		best = v.NoCandidate(tr)
	}
	return zero, best
}

// replay plays the game with the recorded commands and compares each
// movements block and state with the trace, in file order, so that the
// first divergence is the first differing byte.
func (v *Verifier[C, G, D, T]) replay(tr T, g G, o *VerifyOptions[C, D]) error {
	hdr, _ := v.Header(tr)
	n := (*hdr).Rounds()
	if err := o.Commands.Check(n, v.Orders); err != nil {
		return err
	}
	for r := 0; r < n; r++ {
		err := v.Step(g, o.Commands.Round(r))
		if v.End != nil {
			if done, err := v.End(tr, r, g, err, o); done {
				return err
			}
		}
		if err != nil {
			return fmt.Errorf("verify: round %d: %w", r+v.FirstRound, err)
		}
		if d := v.DiffMoves(tr, r, g); d != nil {
			return d
		}
		if d := v.DiffState(tr, r+1, g); d != nil {
			return d
		}
	}
	return nil
}

// Sprints prints each value with fmt.Sprint (a configuration's settings,
// for Verifier.Settings).
func Sprints[V any](vs []V) []string {
	out := make([]string, len(vs))
	for i, x := range vs {
		out[i] = fmt.Sprint(x)
	}
	return out
}
