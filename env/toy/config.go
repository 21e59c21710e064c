package toy

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Version is the first line of every configuration and trace.
const Version = "Toy 1"

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("bad configuration")

// Config is a game's settings. Its text form is Version, then one line
// "key value" per setting (keys in any order, each exactly once; blank
// lines are ignored):
//
//	Toy 1
//	rounds 40
//	rows 10
//	cols 10
//	units 3
//	walls 10
//	capture 5
type Config struct {
	NbRounds int // rounds of a game
	Rows     int // board rows
	Cols     int // board columns
	Units    int // units of each player
	Walls    int // wall cells the generator places
	Capture  int // points of a capture
}

// DefaultConfig returns the default settings.
func DefaultConfig() Config {
	return Config{NbRounds: 40, Rows: 10, Cols: 10, Units: 3, Walls: 10, Capture: 5}
}

// Rounds is the number of rounds of a game (game.Config).
func (c Config) Rounds() int { return c.NbRounds }

// NumUnits is the number of units of a game: Units per player.
func (c Config) NumUnits() int { return NumPlayers * c.Units }

// configKeys are the settings in the order Text writes them, each with
// its bounds.
var configKeys = [...]struct {
	name     string
	min, max int
}{{"rounds", 1, 500}, {"rows", 4, 32}, {"cols", 4, 32}, {"units", 1, 8}, {"walls", 0, 256}, {"capture", 0, 50}}

func (c *Config) fields() [len(configKeys)]*int {
	return [...]*int{&c.NbRounds, &c.Rows, &c.Cols, &c.Units, &c.Walls, &c.Capture}
}

// Validate checks the bounds of the settings, and that the board keeps
// two free cells per unit (a captured unit always finds a cell).
func (c *Config) Validate() error {
	for i, p := range c.fields() {
		k := configKeys[i]
		if *p < k.min || *p > k.max {
			return fmt.Errorf("%w: %s %d out of range %d..%d", ErrConfig, k.name, *p, k.min, k.max)
		}
	}
	if free := c.Rows*c.Cols - c.Walls; free < 2*c.NumUnits() {
		return fmt.Errorf("%w: %d free cells for %d units, want at least two per unit", ErrConfig, free, c.NumUnits())
	}
	return nil
}

// Text is the configuration's text form, which ParseConfig reads back and
// every trace's header begins with.
func (c Config) Text() string {
	var b strings.Builder
	b.WriteString(Version + "\n")
	for i, p := range c.fields() {
		fmt.Fprintf(&b, "%s %d\n", configKeys[i].name, *p)
	}
	return b.String()
}

// ParseConfig reads a configuration in the text form of Config, at most
// 4 KiB.
func ParseConfig(r io.Reader) (Config, error) {
	var c Config
	sc := bufio.NewScanner(io.LimitReader(r, 4096))
	seen := map[string]bool{}
	header := false
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
			continue
		case !header:
			if line != Version {
				return c, fmt.Errorf("%w: line %d: want %q, got %.40q", ErrConfig, ln, Version, line)
			}
			header = true
			continue
		}
		f := strings.Fields(line)
		k := -1
		for i, key := range configKeys {
			if len(f) > 0 && f[0] == key.name {
				k = i
			}
		}
		if k < 0 || len(f) != 2 || seen[f[0]] {
			return c, fmt.Errorf("%w: line %d: want one of the settings, each once, as \"key value\", got %.40q", ErrConfig, ln, line)
		}
		n, err := strconv.Atoi(f[1])
		if err != nil {
			return c, fmt.Errorf("%w: line %d: %s: %.20q is not an integer", ErrConfig, ln, f[0], f[1])
		}
		seen[f[0]] = true
		*c.fields()[k] = n
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if !header {
		return c, fmt.Errorf("%w: empty, want %q first", ErrConfig, Version)
	}
	for _, k := range configKeys {
		if !seen[k.name] {
			return c, fmt.Errorf("%w: no %s setting", ErrConfig, k.name)
		}
	}
	return c, c.Validate()
}
