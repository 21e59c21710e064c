package game

import (
	"errors"
	"fmt"

	"jgym/env"
)

// The errors every game uses. Games wrap them with their own context
// (fmt.Errorf("...: %w", ...)) so that callers branch with errors.Is.
var (
	// ErrAbort is wrapped by every error where the course program aborts
	// the game (a player's 1001st command in a round, an engine assertion,
	// a name the trace cannot hold): the game ends there, its trace written
	// as the course program leaves it.
	ErrAbort = errors.New("the course program aborts")
	// ErrTooManyCommands is returned when a player makes more than
	// MaxCommands command calls in a round.
	ErrTooManyCommands = fmt.Errorf("%w: too many commands", ErrAbort)
	// ErrBadName is returned for a player name a trace cannot hold: the
	// kits accept 1 to 12 printable characters, one token of the names
	// line.
	ErrBadName = fmt.Errorf("%w: bad player name", ErrAbort)
	// ErrTruncated is wrapped by the error of a verifier that checks a
	// trace without its commands when the trace ends before its last
	// round and every round present passed: the course program aborted
	// there, or the file was cut. Only the commands can tell.
	ErrTruncated = errors.New("trace ends before the last round")
	// ErrCommandFile is wrapped by every error of a command file.
	ErrCommandFile = errors.New("bad command file")
	// ErrGameOver is returned when a round is asked of a game that ended.
	ErrGameOver = env.ErrGameOver
	// ErrUnknownBot means a seat names a bot that is not registered.
	ErrUnknownBot = env.ErrUnknownBot
)
