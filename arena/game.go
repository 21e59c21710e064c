package arena

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"jgym/cppbot"
	"jgym/policy"
)

// Seats is the number of seats of every game.
const Seats = 4

// Game is what the command line needs of a game: its configurations, its
// bots, playing one game with its trace, and checking a trace. A game's
// package provides one (crematoria.Arena).
type Game interface {
	// Name is the game's name as its traces and configuration files
	// begin with it, and as --game takes it ("Crematoria").
	Name() string
	// Bots lists the registered bots, sorted.
	Bots() []string
	// DefaultConfig returns the kit's default configuration.
	DefaultConfig() Config
	// ParseConfig reads a configuration file of the game.
	ParseConfig(r io.Reader) (Config, error)
	// NewPlayer resolves a seat: a registered bot, or "prefix:REF" (the
	// Prefixes) whose file l loads.
	NewPlayer(name string, l Loader) (Player, error)
	// Play plays one game, writing its trace and command log as it goes.
	// A game the course engine would abort returns its error, the trace
	// written up to there.
	Play(ctx context.Context, t *Table) error
	// Verify checks a trace (plain bytes): with a command log it replays
	// the game and compares byte for byte, without one it checks every
	// round against the rules. cfg, if not nil, is the configuration the
	// game was played with; by default the trace's header says it. A
	// malformed command log is a *CommandsError.
	Verify(trace, commands []byte, cfg Config) error
}

// Config is a game's configuration.
type Config interface {
	// Rounds is the number of rounds of a game.
	Rounds() int
}

// Player is a resolved seat name: a bot that can sit at any number of
// tables. Close releases what it holds (a compiled C++ program).
type Player interface {
	// Name is the seat name it was resolved from.
	Name() string
	io.Closer
}

// Table is one game to play.
type Table struct {
	Config  Config
	Seed    int
	Players []Player // one per seat
	// Names are the players' names in the trace (TraceName of their
	// seat names when nil).
	Names []string
	// Trace and Commands, if not nil, receive the .res trace and the
	// players' command log.
	Trace, Commands io.Writer
	// Scores holds the final scores once Play returns.
	Scores []int
}

// TraceNames returns the names of the table's players in its trace.
func (t *Table) TraceNames() []string {
	if t.Names != nil {
		return t.Names
	}
	names := make([]string, len(t.Players))
	for i, p := range t.Players {
		names[i] = TraceName(p.Name())
	}
	return names
}

// Prefixes are the "prefix:REF" seats every game takes.
var Prefixes = []string{"cpp", "policy"}

// Loader loads the files of "prefix:REF" seats. Where a REF points is the
// loader's: a path on the command line, a file of a server's bots
// directory or an upload on a server.
type Loader interface {
	// Policy loads an ONNX policy checked against a game's signature.
	Policy(ref string, sig policy.Signature) (*policy.Model, error)
	// Cpp compiles a C++ bot against a game's kit.
	Cpp(ref string, kit *cppbot.Kit) (*cppbot.Program, error)
}

// ErrNoLoader is returned for a prefix seat where no Loader is given.
var ErrNoLoader = errors.New("prefix seats are not offered here")

// Describer is implemented by a Loader that says where its references
// point ("a file of the server's bots directories, or an upload"), for
// the message about a seat that names no bot.
type Describer interface {
	Describe() string
}

// HintPrefixes adds to err, the error of a seat name that is no
// registered bot, the prefix seats l offers, when l is a Describer.
func HintPrefixes(err error, l Loader) error {
	d, ok := l.(Describer)
	if !ok {
		return err
	}
	return fmt.Errorf("%w (or prefix:NAME with prefix %s: %s)", err, strings.Join(Prefixes, " or "), d.Describe())
}

// CommandsError is the error of Verify when the command log, not the
// trace, is malformed; the caller that read the log says where it came
// from.
type CommandsError struct{ Err error }

func (e *CommandsError) Error() string { return e.Err.Error() }
func (e *CommandsError) Unwrap() error { return e.Err }

// SplitSeat splits a seat name into its prefix and reference; prefix is
// empty for a registered bot.
func SplitSeat(name string) (prefix, ref string) {
	if p, r, ok := strings.Cut(name, ":"); ok {
		return p, r
	}
	return "", name
}

// TraceName is the name a seat gets in a trace: the bot's name, or for a
// prefix:REF seat the file's base name without its extension and without
// a leading "AI" (AIMine.cc plays as Mine), at most 12 characters (the
// kit's limit).
func TraceName(name string) string {
	prefix, ref := SplitSeat(name)
	if prefix == "" {
		return name
	}
	base := filepath.Base(ref)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	base = strings.TrimPrefix(base, "AI")
	if len(base) > 12 {
		base = base[:12]
	}
	return base
}

// GameOf returns the name of the game a trace or a configuration file is
// of: the first word of its first line that is not part of the trace's
// "Game" / "Seed" preamble.
func GameOf(head []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(head))
	sc.Buffer(make([]byte, 4096), 4096)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line == "Game" || strings.HasPrefix(line, "Seed ") {
			continue
		}
		word, _, _ := strings.Cut(line, " ")
		return word
	}
	return ""
}

// Winners returns the seats with the top score.
func Winners(scores []int) []int {
	var top []int
	for p, s := range scores {
		switch {
		case len(top) == 0 || s > scores[top[0]]:
			top = []int{p}
		case s == scores[top[0]]:
			top = append(top, p)
		}
	}
	return top
}

// PrintResults prints the final scores as the course kit does.
func PrintResults(w io.Writer, names []string, scores []int) {
	for p, s := range scores {
		fmt.Fprintf(w, "info: player %s got score %d\n", names[p], s)
	}
	fmt.Fprint(w, "info: player(s)")
	for _, p := range Winners(scores) {
		fmt.Fprintf(w, " %s", names[p])
	}
	fmt.Fprintln(w, " got top score")
	fmt.Fprintln(w, "info: game played")
}
