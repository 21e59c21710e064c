package dominator

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Version is the game version string of configurations and traces.
const Version = "Dominator 4.0"

// ErrConfig is wrapped by every configuration error: the course program
// aborts on all of them before it writes anything.
var ErrConfig = errors.New("bad configuration")

// The board sources of a configuration (SPEC §2.1, §4).
const (
	Fixed      = "FIXED"
	Generator1 = "GENERATOR1"
	Generator2 = "GENERATOR2"
	Generator3 = "GENERATOR3"
)

// Config is a game configuration in the kit's format (SPEC §2).
type Config struct {
	NbPlayers     int
	NbRounds      int
	NbFarmers     int
	NbKnights     int
	NbWitches     int
	FarmersHealth int
	KnightsHealth int
	FarmersRegen  int
	KnightsRegen  int
	DamageMin     int
	DamageMax     int
	Rows          int
	Cols          int
	// Board is the board source: Fixed, Generator1, Generator2 or
	// Generator3.
	Board string
	// Params holds the generator's parameters (GENERATOR1 a [b]); nil when
	// there are none.
	Params []int
	// Grid holds the Rows lines of a FIXED board; nil for generators.
	Grid []string
}

var configKeys = [13]string{
	"nb_players", "nb_rounds", "nb_farmers", "nb_knights", "nb_witches",
	"farmers_health", "knights_health", "farmers_regen", "knights_regen",
	"damage_min", "damage_max", "rows", "cols",
}

// Keys returns the thirteen setting names in file order.
func Keys() [13]string { return configKeys }

func (c *Config) fields() [13]*int {
	return [13]*int{&c.NbPlayers, &c.NbRounds, &c.NbFarmers, &c.NbKnights, &c.NbWitches,
		&c.FarmersHealth, &c.KnightsHealth, &c.FarmersRegen, &c.KnightsRegen,
		&c.DamageMin, &c.DamageMax, &c.Rows, &c.Cols}
}

// Values returns the thirteen settings in file order.
func (c Config) Values() [13]int {
	var v [13]int
	for i, p := range c.fields() {
		v[i] = *p
	}
	return v
}

// UnitsPerPlayer returns the size of one player's block of units.
func (c *Config) UnitsPerPlayer() int { return c.NbWitches + c.NbKnights + c.NbFarmers }

// NumUnits returns the size of the unit table, N (SPEC §5.1).
func (c *Config) NumUnits() int { return NumPlayers * c.UnitsPerPlayer() }

// MaxHealth returns the maximum health of a unit type; witches have -1.
func (c *Config) MaxHealth(t UnitType) int {
	switch t {
	case Farmer:
		return c.FarmersHealth
	case Knight:
		return c.KnightsHealth
	}
	return -1
}

// Regen returns the health a unit type regains in a round it does not
// move.
func (c *Config) Regen(t UnitType) int {
	switch t {
	case Farmer:
		return c.FarmersRegen
	case Knight:
		return c.KnightsRegen
	}
	return 0
}

// Limits jgym adds to the course's constraints, so that a configuration
// from outside cannot exhaust memory or overflow the course's 32-bit
// arithmetic. Every shipped configuration is far within them.
const (
	maxRounds = 100000
	maxSide   = 201
	maxUnits  = 8192
	maxValue  = 1000000000
)

// Validate checks the constraints of SPEC §2.1 and jgym's size limits.
func (c *Config) Validate() error {
	if err := c.validateSettings(); err != nil {
		return err
	}
	return c.validateBoard()
}

// validateSettings checks the thirteen settings alone.
func (c *Config) validateSettings() error {
	if c.NbPlayers != NumPlayers {
		return fmt.Errorf("%w: nb_players must be 4, got %d", ErrConfig, c.NbPlayers)
	}
	mins := [13]int{4, 1, 0, 0, 0, 1, 1, 0, 0, 0, c.DamageMin, 20, 20}
	for i, p := range c.fields() {
		if *p < mins[i] {
			return fmt.Errorf("%w: %s must be at least %d, got %d", ErrConfig, configKeys[i], mins[i], *p)
		}
		if *p > maxValue {
			return fmt.Errorf("%w: %s = %d is too large (jgym accepts at most %d)", ErrConfig, configKeys[i], *p, maxValue)
		}
	}
	if c.Rows%2 == 0 || c.Cols%2 == 0 {
		return fmt.Errorf("%w: rows and cols must be odd, got %d and %d", ErrConfig, c.Rows, c.Cols)
	}
	if c.Rows != c.Cols {
		return fmt.Errorf("%w: cols must equal rows, got %d and %d", ErrConfig, c.Rows, c.Cols)
	}
	if c.NbRounds > maxRounds || c.Rows > maxSide || c.NumUnits() > maxUnits {
		return fmt.Errorf("%w: settings too large for jgym (nb_rounds %d, %d x %d board, %d units)",
			ErrConfig, c.NbRounds, c.Rows, c.Cols, c.NumUnits())
	}
	return nil
}

func (c *Config) validateBoard() error {
	switch c.Board {
	case Fixed:
		if len(c.Params) != 0 {
			return fmt.Errorf("%w: FIXED takes no parameters", ErrConfig)
		}
		if len(c.Grid) != c.Rows {
			return fmt.Errorf("%w: FIXED needs %d rows, got %d", ErrConfig, c.Rows, len(c.Grid))
		}
		for i, line := range c.Grid {
			if len(line) != c.Cols {
				return fmt.Errorf("%w: FIXED row %d has %d characters, want %d", ErrConfig, i, len(line), c.Cols)
			}
			for j := 0; j < len(line); j++ {
				if ch := line[j]; ch != 'X' && ch != '.' && (ch < '0' || ch > '4') {
					return fmt.Errorf("%w: FIXED row %d column %d: character %q is not X, . or a digit 0..4", ErrConfig, i, j, ch)
				}
			}
		}
		return nil
	case Generator1, Generator2, Generator3:
	default:
		return fmt.Errorf("%w: unknown board source %q (want FIXED, GENERATOR1, GENERATOR2 or GENERATOR3)", ErrConfig, c.Board)
	}
	if c.Grid != nil {
		return fmt.Errorf("%w: %s takes no grid", ErrConfig, c.Board)
	}
	switch c.Board {
	case Generator1:
		top := c.Rows * c.Cols / 10
		switch {
		case len(c.Params) < 1 || len(c.Params) > 2:
			return fmt.Errorf("%w: GENERATOR1 takes 1 or 2 parameters, got %d", ErrConfig, len(c.Params))
		case c.Params[0] < 0 || c.Params[0] > top:
			return fmt.Errorf("%w: GENERATOR1 parameter %d out of range 0..%d", ErrConfig, c.Params[0], top)
		case len(c.Params) == 2 && (c.Params[1] < c.Params[0] || c.Params[1] > top):
			return fmt.Errorf("%w: GENERATOR1 second parameter %d out of range %d..%d", ErrConfig, c.Params[1], c.Params[0], top)
		}
	case Generator2:
		if len(c.Params) != 0 {
			return fmt.Errorf("%w: GENERATOR2 takes no parameters, got %d", ErrConfig, len(c.Params))
		}
	case Generator3:
		if len(c.Params) != 0 {
			return fmt.Errorf("%w: GENERATOR3 takes no parameters, got %d", ErrConfig, len(c.Params))
		}
		if c.Rows%6 != 1 || c.Cols%6 != 1 {
			return fmt.Errorf("%w: GENERATOR3 needs rows and cols = 1 mod 6, got %d and %d", ErrConfig, c.Rows, c.Cols)
		}
	}
	return nil
}

// ParseConfig reads a configuration in the kit's format (SPEC §2.1):
// whitespace-separated tokens, the version, thirteen key-value pairs in
// order, then the board source. After FIXED come the rows of the board;
// after a generator, its integer parameters up to the first token that is
// not an integer or the end of the input. What follows is ignored, as the
// course program ignores it.
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
		if !ok || key != configKeys[i] {
			return c, fmt.Errorf("%w: expected key %s, got %q", ErrConfig, configKeys[i], key)
		}
		val, ok := next()
		n, err := strconv.ParseInt(val, 10, 32)
		if !ok || err != nil {
			return c, fmt.Errorf("%w: value of %s is not an integer: %q", ErrConfig, key, val)
		}
		*p = int(n)
	}
	src, ok := next()
	if !ok {
		return c, fmt.Errorf("%w: missing the board source (FIXED or GENERATOR1..3)", ErrConfig)
	}
	c.Board = src
	switch src {
	case Fixed:
		if c.Rows < 1 || c.Rows > maxSide {
			return c, fmt.Errorf("%w: FIXED board with %d rows", ErrConfig, c.Rows)
		}
		c.Grid = make([]string, 0, c.Rows)
		for len(c.Grid) < c.Rows {
			tok, ok := next()
			if !ok {
				return c, fmt.Errorf("%w: FIXED board has %d rows, want %d", ErrConfig, len(c.Grid), c.Rows)
			}
			c.Grid = append(c.Grid, tok)
		}
	case Generator1, Generator2, Generator3:
		for {
			tok, ok := next()
			if !ok {
				break
			}
			n, err := strconv.ParseInt(tok, 10, 32)
			if err != nil {
				break
			}
			c.Params = append(c.Params, int(n))
			if len(c.Params) > 2 {
				break // too many already: Validate rejects it
			}
		}
	default:
		return c, fmt.Errorf("%w: unknown board source %q", ErrConfig, src)
	}
	if err := sc.Err(); err != nil {
		return c, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return c, c.Validate()
}

// String returns the configuration in the kit's file format; ParseConfig
// reads it back to the same Config.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(Version + "\n")
	for i, v := range c.Values() {
		fmt.Fprintf(&b, "%-15s%3d\n", configKeys[i], v)
	}
	b.WriteString("\n" + c.Board)
	for _, p := range c.Params {
		fmt.Fprintf(&b, " %d", p)
	}
	b.WriteString("\n")
	if c.Grid != nil {
		b.WriteString("\n")
		for _, r := range c.Grid {
			b.WriteString(r + "\n")
		}
	}
	return b.String()
}

//go:embed configs/*.cnf
var shipped embed.FS

// DefaultConfigText is the kit's default.cnf.
var DefaultConfigText = mustShippedText("default")

func mustShippedText(name string) string {
	b, err := shipped.ReadFile(path.Join("configs", name+".cnf"))
	if err != nil {
		panic("dominator: missing shipped configuration " + name)
	}
	return string(b)
}

// DefaultConfig returns the kit's default configuration: 37 x 37,
// GENERATOR2, 200 rounds, 2 witches, 10 knights and 20 farmers each.
func DefaultConfig() Config {
	return Config{
		NbPlayers: NumPlayers, NbRounds: 200, NbFarmers: 20, NbKnights: 10, NbWitches: 2,
		FarmersHealth: 100, KnightsHealth: 200, FarmersRegen: 30, KnightsRegen: 30,
		DamageMin: 60, DamageMax: 90, Rows: 37, Cols: 37, Board: Generator2,
	}
}

// ShippedConfigNames returns the names of the configurations shipped with
// the kit (SPEC §2.2): default, fixed1..6, generator1..3.
func ShippedConfigNames() []string {
	ents, _ := shipped.ReadDir("configs")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".cnf"))
	}
	sort.Strings(names)
	return names
}

// ShippedConfig returns a configuration shipped with the kit, by name
// (with or without ".cnf").
func ShippedConfig(name string) (Config, error) {
	name = strings.TrimSuffix(name, ".cnf")
	b, err := shipped.ReadFile(path.Join("configs", name+".cnf"))
	if err != nil || strings.ContainsAny(name, "/\\") {
		return Config{}, fmt.Errorf("%w: no shipped configuration %q (known: %v)", ErrConfig, name, ShippedConfigNames())
	}
	return ParseConfig(bytes.NewReader(b))
}
