package moria

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Version is the game version string written in configurations and traces.
const Version = "Moria 1.1"

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("bad configuration")

// Config is a game configuration in the kit's format (SPEC §2).
type Config struct {
	NbPlayers      int
	NbRounds       int
	NbDwarves      int
	NbWizards      int
	MaxNbOrcs      int
	NbTrolls       int
	TreasureValue  int
	RockResistance int
	Rows           int
	Cols           int
	// Fixed holds the 60 map rows of a FIXED configuration; nil for
	// GENERATOR.
	Fixed []string
}

// DefaultConfig returns the course's default configuration.
func DefaultConfig() Config {
	return Config{
		NbPlayers: 4, NbRounds: 200, NbDwarves: 20, NbWizards: 5, MaxNbOrcs: 20, NbTrolls: 4,
		TreasureValue: 10, RockResistance: 5, Rows: Rows, Cols: Cols,
	}
}

// DefaultConfigText is the default configuration in the kit's file format.
var DefaultConfigText = DefaultConfig().String()

var configKeys = [...]string{
	"nb_players", "nb_rounds", "nb_dwarves", "nb_wizards", "max_nb_orcs",
	"nb_trolls", "treasure_value", "rock_resistance", "rows", "cols",
}

// NumSettings is the number of key-value settings of a configuration.
const NumSettings = len(configKeys)

func (c *Config) fields() [NumSettings]*int {
	return [NumSettings]*int{&c.NbPlayers, &c.NbRounds, &c.NbDwarves, &c.NbWizards, &c.MaxNbOrcs,
		&c.NbTrolls, &c.TreasureValue, &c.RockResistance, &c.Rows, &c.Cols}
}

// Values returns the ten settings in file order.
func (c Config) Values() [NumSettings]int {
	var v [NumSettings]int
	for i, p := range c.fields() {
		v[i] = *p
	}
	return v
}

// Keys returns the ten setting names in file order.
func Keys() [NumSettings]string { return configKeys }

// ClanUnits returns the number of units of one clan at the start, T = Nd + Nw.
func (c *Config) ClanUnits() int { return c.NbDwarves + c.NbWizards }

// NumUnits returns the size of the unit table (SPEC §5.1).
func (c *Config) NumUnits() int {
	return NumPlayers*c.ClanUnits() + c.MaxNbOrcs + c.NbTrolls + 1
}

// FirstOrc, FirstTroll and BalrogID return the ids of SPEC §5.1.
func (c *Config) FirstOrc() int   { return NumPlayers * c.ClanUnits() }
func (c *Config) FirstTroll() int { return c.FirstOrc() + c.MaxNbOrcs }
func (c *Config) BalrogID() int   { return c.FirstTroll() + c.NbTrolls }

// Limits jgym adds to the kit's checks, so that every configuration it
// accepts is a playable game with a bounded table and printable traces.
const (
	maxRounds         = 100000
	maxUnits          = 10000
	maxRockResistance = 27 // hits-left letters stay within a..z
)

// Validate checks the constraints of SPEC §2 (and jgym's size limits).
func (c *Config) Validate() error {
	if c.NbPlayers != NumPlayers {
		return fmt.Errorf("%w: nb_players must be 4, got %d", ErrConfig, c.NbPlayers)
	}
	if c.Rows != Rows || c.Cols != Cols {
		return fmt.Errorf("%w: rows and cols must be 60 and 60, got %d and %d", ErrConfig, c.Rows, c.Cols)
	}
	for i, p := range c.fields() {
		if *p < 1 {
			return fmt.Errorf("%w: %s must be at least 1, got %d", ErrConfig, configKeys[i], *p)
		}
	}
	if c.NbRounds > maxRounds || c.NumUnits() > maxUnits || c.RockResistance > maxRockResistance ||
		c.TreasureValue > 1000000 {
		return fmt.Errorf("%w: settings too large (nb_rounds %d, %d units, rock_resistance %d, treasure_value %d)",
			ErrConfig, c.NbRounds, c.NumUnits(), c.RockResistance, c.TreasureValue)
	}
	if c.Fixed != nil {
		return c.checkFixed()
	}
	return nil
}

// fixedCell returns the cell a FIXED map character stands for (SPEC §2).
func (c *Config) fixedCell(ch byte) (Cell, bool) {
	cell := Cell{Type: Cave, Owner: -1, ID: -1}
	switch {
	case ch == 'O':
		cell.Type = Outside
	case ch == 'C':
	case ch == 'T':
		cell.Treasure = true
	case ch == 'G':
		cell.Type = Granite
	case ch == 'A':
		cell.Type = Abyss
	case ch == 'R':
		cell.Type, cell.Turns = Rock, int8(c.RockResistance)
	case ch >= 'a' && int(ch-'a') < c.RockResistance-1:
		cell.Type, cell.Turns = Rock, int8(ch-'a'+1)
	case ch >= '0' && ch <= '3':
		cell.Owner = int8(ch - '0')
	default:
		return cell, false
	}
	return cell, true
}

func (c *Config) checkFixed() error {
	if len(c.Fixed) != Rows {
		return fmt.Errorf("%w: FIXED needs %d rows, got %d", ErrConfig, Rows, len(c.Fixed))
	}
	for i, line := range c.Fixed {
		if len(line) != Cols {
			return fmt.Errorf("%w: the read map has a line with incorrect length: row %d has %d characters, want %d",
				ErrConfig, i, len(line), Cols)
		}
		for j := 0; j < len(line); j++ {
			if _, ok := c.fixedCell(line[j]); !ok {
				return fmt.Errorf("%w: FIXED row %d column %d: character %q not allowed", ErrConfig, i, j, line[j])
			}
		}
	}
	return nil
}

// ParseConfig reads a configuration in the kit's format: whitespace
// separated tokens, the version, ten key-value pairs in order, then
// GENERATOR, or FIXED followed by 60 map rows (SPEC §2).
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
			if _, err := strconv.ParseInt(tok, 10, 64); err == nil {
				return c, fmt.Errorf("%w: GENERATOR requires no parameters", ErrConfig)
			}
		}
	case gen == "FIXED":
		c.Fixed = make([]string, 0, Rows)
		for len(c.Fixed) < Rows {
			tok, ok := next()
			if !ok {
				return c, fmt.Errorf("%w: FIXED map has %d rows, want %d", ErrConfig, len(c.Fixed), Rows)
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

// String returns the configuration in the kit's file format, as in the
// course's configuration files: the value right-aligned at column 22.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(Version + "\n")
	for i, v := range c.Values() {
		fmt.Fprintf(&b, "%-15s%7d\n", configKeys[i], v)
	}
	if c.Fixed == nil {
		b.WriteString("GENERATOR\n")
	} else {
		b.WriteString("FIXED\n")
		for _, r := range c.Fixed {
			b.WriteString(r + "\n")
		}
	}
	return b.String()
}
