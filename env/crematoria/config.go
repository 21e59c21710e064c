package crematoria

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Version is the game version string written in configurations and traces.
const Version = "Crematoria 1.2"

// ErrConfig is wrapped by every configuration parsing error.
var ErrConfig = errors.New("bad configuration")

// Config is a game configuration in the kit's format (SPEC §2).
type Config struct {
	NbPlayers    int
	NbRounds     int
	NbFuryans    int
	NbPioneers   int
	MaxNecros    int // max_nb_necromongers
	NbHellhounds int
	NbElevators  int
	GemValue     int
	TurnsToLand  int
	Rows         int
	Cols         int
	// Fixed holds the 80 map rows of a FIXED configuration (40 of level 0,
	// then 40 of level 1); nil for GENERATOR.
	Fixed []string
}

// DefaultConfig returns the course's default configuration.
func DefaultConfig() Config {
	return Config{
		NbPlayers: 4, NbRounds: 120, NbFuryans: 5, NbPioneers: 15, MaxNecros: 10,
		NbHellhounds: 3, NbElevators: 20, GemValue: 30, TurnsToLand: 2, Rows: Rows, Cols: Cols,
	}
}

// DefaultConfigText is the kit's default.cnf.
const DefaultConfigText = `Crematoria 1.2
nb_players             4
nb_rounds            120
nb_furyans             5
nb_pioneers           15
max_nb_necromongers   10
nb_hellhounds          3
nb_elevators          20
gem_value             30
turns_to_land          2
rows                  40
cols                  80

GENERATOR
`

var configKeys = [...]string{
	"nb_players", "nb_rounds", "nb_furyans", "nb_pioneers", "max_nb_necromongers",
	"nb_hellhounds", "nb_elevators", "gem_value", "turns_to_land", "rows", "cols",
}

func (c *Config) fields() [11]*int {
	return [11]*int{&c.NbPlayers, &c.NbRounds, &c.NbFuryans, &c.NbPioneers, &c.MaxNecros,
		&c.NbHellhounds, &c.NbElevators, &c.GemValue, &c.TurnsToLand, &c.Rows, &c.Cols}
}

// Values returns the eleven settings in file order.
func (c Config) Values() [11]int {
	var v [11]int
	for i, p := range c.fields() {
		v[i] = *p
	}
	return v
}

// Keys returns the eleven setting names in file order.
func Keys() [11]string { return configKeys }

// NumUnits returns the size of the unit table.
func (c *Config) NumUnits() int {
	return NumPlayers*(c.NbFuryans+c.NbPioneers) + c.MaxNecros + c.NbHellhounds
}

// Validate checks the constraints of SPEC §2.1.
func (c *Config) Validate() error {
	if c.NbPlayers != 4 {
		return fmt.Errorf("%w: nb_players must be 4, got %d", ErrConfig, c.NbPlayers)
	}
	if c.Rows != Rows || c.Cols != Cols {
		return fmt.Errorf("%w: rows and cols must be 40 and 80, got %d and %d", ErrConfig, c.Rows, c.Cols)
	}
	for i, p := range c.fields() {
		if *p < 1 {
			return fmt.Errorf("%w: %s must be at least 1, got %d", ErrConfig, configKeys[i], *p)
		}
	}
	// Guard against tables too large to be a real game.
	if c.NbRounds > 100000 || c.NumUnits() > 10000 || c.NbElevators > 2880 {
		return fmt.Errorf("%w: settings too large (nb_rounds %d, %d units, %d elevators)", ErrConfig, c.NbRounds, c.NumUnits(), c.NbElevators)
	}
	if c.Fixed != nil {
		if err := checkFixed(c.Fixed); err != nil {
			return err
		}
	}
	return nil
}

func checkFixed(rows []string) error {
	if len(rows) != 2*Rows {
		return fmt.Errorf("%w: FIXED needs %d rows, got %d", ErrConfig, 2*Rows, len(rows))
	}
	for r, line := range rows {
		if len(line) != Cols {
			return fmt.Errorf("%w: FIXED row %d has %d characters, want %d", ErrConfig, r, len(line), Cols)
		}
		for j := 0; j < len(line); j++ {
			ch := line[j]
			ok := false
			if r < Rows {
				ok = ch == 'R' || ch == 'C' || ch == 'E' || (ch >= '0' && ch <= '3')
			} else {
				ok = ch == 'O' || ch == 'G' || ch == 'E'
			}
			if !ok {
				return fmt.Errorf("%w: FIXED level %d row %d column %d: character %q not allowed", ErrConfig, r/Rows, r%Rows, j, ch)
			}
		}
	}
	return nil
}

// ParseConfig reads a configuration in the kit's format: whitespace
// separated tokens, the version, eleven key-value pairs in order, then
// GENERATOR or FIXED followed by 80 map rows.
func ParseConfig(r io.Reader) (Config, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	sc.Split(bufio.ScanWords)
	next := func() (string, bool) {
		if sc.Scan() {
			return sc.Text(), true
		}
		return "", false
	}
	var c Config
	for _, want := range strings.Fields(Version) {
		tok, ok := next()
		if !ok || tok != want {
			return c, fmt.Errorf("%w: expected %q at the start, got %q", ErrConfig, Version, tok)
		}
	}
	for i, p := range c.fields() {
		key, ok := next()
		if !ok {
			return c, fmt.Errorf("%w: missing key %s", ErrConfig, configKeys[i])
		}
		if key != configKeys[i] {
			return c, fmt.Errorf("%w: expected key %s, got %q", ErrConfig, configKeys[i], key)
		}
		val, ok := next()
		if !ok {
			return c, fmt.Errorf("%w: missing value for %s", ErrConfig, key)
		}
		n, err := strconv.ParseInt(val, 10, 32)
		if err != nil {
			return c, fmt.Errorf("%w: value of %s is not an integer: %q", ErrConfig, key, val)
		}
		*p = int(n)
	}
	gen, ok := next()
	switch {
	case !ok:
		return c, fmt.Errorf("%w: missing GENERATOR or FIXED", ErrConfig)
	case gen == "GENERATOR":
		if tok, ok := next(); ok {
			if _, err := strconv.Atoi(tok); err == nil {
				return c, fmt.Errorf("%w: GENERATOR requires no parameters", ErrConfig)
			}
		}
	case gen == "FIXED":
		c.Fixed = make([]string, 0, 2*Rows)
		for len(c.Fixed) < 2*Rows {
			tok, ok := next()
			if !ok {
				return c, fmt.Errorf("%w: FIXED map has %d rows, want %d", ErrConfig, len(c.Fixed), 2*Rows)
			}
			c.Fixed = append(c.Fixed, tok)
		}
	default:
		return c, fmt.Errorf("%w: unknown grid generator %q", ErrConfig, gen)
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return c, c.Validate()
}

// String returns the configuration in the kit's file format.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(Version + "\n")
	for i, v := range c.Values() {
		fmt.Fprintf(&b, "%-20s %d\n", configKeys[i], v)
	}
	if c.Fixed == nil {
		b.WriteString("\nGENERATOR\n")
	} else {
		b.WriteString("\nFIXED\n")
		for _, r := range c.Fixed {
			b.WriteString(r + "\n")
		}
	}
	return b.String()
}
