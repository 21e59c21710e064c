package pandemic

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Version is the game version string written in configurations and traces.
const Version = "Pandemic 1.0"

// ErrConfig is wrapped by every configuration error. The course program
// aborts on such a configuration (SPEC §2.1).
var ErrConfig = errors.New("bad configuration")

// Config is a game configuration in the kit's format (SPEC §2).
type Config struct {
	NbPlayers                int
	Rows                     int
	Cols                     int
	NbRounds                 int
	InitialHealth            int
	NbUnits                  int
	BonusPerCityCell         int
	BonusPerPathCell         int
	FactorConnectedComponent int
	InfectionFactor          float64
	MaskProtection           float64
	// Fixed is the map of a FIXED configuration (SPEC §4.8); nil for
	// GENERATOR1.
	Fixed *FixedMap
}

// FixedMap is a map given in the configuration instead of generated.
type FixedMap struct {
	// Grid holds one row of trace characters per board row (SPEC §3.2):
	// the cell types and their initial virus.
	Grid   []string
	Cities [][]Pos
	Paths  []PathInfo
	Masks  []Pos
}

// PathInfo is a path: the two cities it joins and its cells in curve
// order (SPEC §4.4).
type PathInfo struct {
	A, B  int
	Cells []Pos
}

// DefaultConfig returns the course's default configuration.
func DefaultConfig() Config {
	return Config{
		NbPlayers: 4, Rows: 70, Cols: 70, NbRounds: 200, InitialHealth: 100, NbUnits: 15,
		BonusPerCityCell: 1, BonusPerPathCell: 1, FactorConnectedComponent: 2,
		InfectionFactor: 50, MaskProtection: 20,
	}
}

// DefaultConfigText is the kit's default.cnf.
const DefaultConfigText = `Pandemic 1.0
nb_players                  4
rows                        70
cols                        70
nb_rounds                   200
initial_health              100
nb_units                    15
bonus_per_city_cell         1
bonus_per_path_cell         1
factor_connected_component  2
infection_factor            50
mask_protection             20

GENERATOR1
`

// NumSettings is the number of key-value settings of a configuration.
const NumSettings = 11

var configKeys = [NumSettings]string{
	"nb_players", "rows", "cols", "nb_rounds", "initial_health", "nb_units",
	"bonus_per_city_cell", "bonus_per_path_cell", "factor_connected_component",
	"infection_factor", "mask_protection",
}

// Keys returns the eleven setting names in file order.
func Keys() [NumSettings]string { return configKeys }

func (c *Config) intFields() [9]*int {
	return [9]*int{&c.NbPlayers, &c.Rows, &c.Cols, &c.NbRounds, &c.InitialHealth, &c.NbUnits,
		&c.BonusPerCityCell, &c.BonusPerPathCell, &c.FactorConnectedComponent}
}

// Values returns the eleven settings in file order, as the trace prints
// them (integers, then the two doubles in %g format).
func (c *Config) Values() [NumSettings]string {
	var v [NumSettings]string
	for i, p := range c.intFields() {
		v[i] = strconv.Itoa(*p)
	}
	v[9] = FormatDouble(c.InfectionFactor)
	v[10] = FormatDouble(c.MaskProtection)
	return v
}

// FormatDouble prints a double as C++ ostream << does with default
// settings (printf "%g": 6 significant digits, no trailing zeros).
func FormatDouble(x float64) string {
	return string(AppendDouble(nil, x))
}

// AppendDouble appends FormatDouble(x) to b.
func AppendDouble(b []byte, x float64) []byte {
	return strconv.AppendFloat(b, x, 'g', 6, 64)
}

// NumUnits returns the number of units of the game (ids 0..NumUnits-1).
func (c *Config) NumUnits() int { return NumPlayers * c.NbUnits }

// Limits jgym adds so that a configuration cannot ask for an unbounded
// amount of memory or time; the course program has none.
const (
	MaxRows   = 1000
	MaxRounds = 100000
)

// Validate checks the constraints of SPEC §2.1, and jgym's size limits.
func (c *Config) Validate() error {
	switch {
	case c.NbPlayers != NumPlayers:
		return fmt.Errorf("%w: nb_players must be 4, got %d", ErrConfig, c.NbPlayers)
	case c.Rows < 20:
		return fmt.Errorf("%w: rows must be at least 20, got %d", ErrConfig, c.Rows)
	case c.Cols < 20:
		return fmt.Errorf("%w: cols must be at least 20, got %d", ErrConfig, c.Cols)
	case c.NbRounds < 1:
		return fmt.Errorf("%w: nb_rounds must be at least 1, got %d", ErrConfig, c.NbRounds)
	case c.InitialHealth <= 0:
		return fmt.Errorf("%w: initial_health must be positive, got %d", ErrConfig, c.InitialHealth)
	case c.NbUnits < 1:
		return fmt.Errorf("%w: nb_units must be at least 1, got %d", ErrConfig, c.NbUnits)
	case c.BonusPerCityCell < 1:
		return fmt.Errorf("%w: bonus_per_city_cell must be at least 1, got %d", ErrConfig, c.BonusPerCityCell)
	case c.BonusPerPathCell < 1:
		return fmt.Errorf("%w: bonus_per_path_cell must be at least 1, got %d", ErrConfig, c.BonusPerPathCell)
	case c.FactorConnectedComponent < 1:
		return fmt.Errorf("%w: factor_connected_component must be at least 1, got %d", ErrConfig, c.FactorConnectedComponent)
	case c.Rows > MaxRows || c.Cols > MaxRows || c.NbRounds > MaxRounds:
		return fmt.Errorf("%w: settings too large (rows %d, cols %d, nb_rounds %d; jgym allows %d, %d, %d)",
			ErrConfig, c.Rows, c.Cols, c.NbRounds, MaxRows, MaxRows, MaxRounds)
	case c.Rows*c.Cols < 25*NumPlayers*c.NbUnits:
		return fmt.Errorf("%w: %d units per player need at least %d cells, the board has %d",
			ErrConfig, c.NbUnits, 25*NumPlayers*c.NbUnits, c.Rows*c.Cols)
	case c.Rows != c.Cols:
		return fmt.Errorf("%w: rows and cols must be equal, got %d and %d", ErrConfig, c.Rows, c.Cols)
	}
	if c.Fixed != nil {
		return c.Fixed.check(c.Rows, c.Cols)
	}
	return nil
}

// ParseConfig reads a configuration in the kit's format (SPEC §2.1):
// whitespace-separated tokens, the version, eleven key-value pairs in
// order, then GENERATOR1 or FIXED followed by a map.
func ParseConfig(r io.Reader) (Config, error) {
	tk := newTokenizer(r)
	var c Config
	for _, want := range strings.Fields(Version) {
		tok, ok := tk.next()
		if !ok || tok != want {
			return c, fmt.Errorf("%w: expected %q at the start, got %q", ErrConfig, Version, tok)
		}
	}
	ints := c.intFields()
	for i, key := range configKeys {
		tok, ok := tk.next()
		if !ok {
			return c, fmt.Errorf("%w: missing key %s", ErrConfig, key)
		}
		if tok != key {
			return c, fmt.Errorf("%w: expected key %s, got %q", ErrConfig, key, tok)
		}
		val, ok := tk.next()
		if !ok {
			return c, fmt.Errorf("%w: missing value for %s", ErrConfig, key)
		}
		if i < len(ints) {
			n, ok := parseCInt(val)
			if !ok {
				return c, fmt.Errorf("%w: value of %s is not an integer: %q", ErrConfig, key, val)
			}
			*ints[i] = n
			continue
		}
		x, ok := parseCDouble(val)
		if !ok {
			return c, fmt.Errorf("%w: value of %s is not a number: %q", ErrConfig, key, val)
		}
		if i == 9 {
			c.InfectionFactor = x
		} else {
			c.MaskProtection = x
		}
	}
	// The kit checks the settings before reading the generator.
	if err := c.Validate(); err != nil {
		return c, err
	}
	gen, ok := tk.next()
	switch {
	case !ok:
		return c, fmt.Errorf("%w: missing GENERATOR1 or FIXED", ErrConfig)
	case gen == "GENERATOR1":
		if tok, ok := tk.next(); ok {
			if _, isInt := parseCIntPrefix(tok); isInt {
				return c, fmt.Errorf("%w: GENERATOR1 takes no parameters, got %q", ErrConfig, tok)
			}
		}
	case gen == "FIXED":
		fm, err := parseFixed(tk, c.Rows, c.Cols)
		if err != nil {
			return c, err
		}
		c.Fixed = fm
	default:
		return c, fmt.Errorf("%w: unknown grid generator %q", ErrConfig, gen)
	}
	if err := tk.err(); err != nil {
		return c, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return c, c.Validate()
}

// String returns the configuration in the kit's file format. Doubles are
// written with as many digits as needed to read back the same value.
func (c Config) String() string {
	var b strings.Builder
	b.WriteString(Version + "\n")
	for i, p := range c.intFields() {
		fmt.Fprintf(&b, "%-28s%d\n", configKeys[i], *p)
	}
	fmt.Fprintf(&b, "%-28s%s\n", configKeys[9], strconv.FormatFloat(c.InfectionFactor, 'g', -1, 64))
	fmt.Fprintf(&b, "%-28s%s\n", configKeys[10], strconv.FormatFloat(c.MaskProtection, 'g', -1, 64))
	if c.Fixed == nil {
		b.WriteString("\nGENERATOR1\n")
		return b.String()
	}
	b.WriteString("\nFIXED\n")
	b.Write(c.Fixed.appendText(nil, c.Cols))
	return b.String()
}

// tokenizer splits a reader into whitespace-separated tokens, as C++ >>.
type tokenizer struct {
	sc *bufio.Scanner
}

func newTokenizer(r io.Reader) *tokenizer {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	sc.Split(bufio.ScanWords)
	return &tokenizer{sc: sc}
}

func (t *tokenizer) next() (string, bool) {
	if t.sc.Scan() {
		return t.sc.Text(), true
	}
	return "", false
}

func (t *tokenizer) err() error { return t.sc.Err() }

// parseCInt reads a whole token as C++ >> into int: an optional sign and
// decimal digits, within 32 bits.
func parseCInt(s string) (int, bool) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// parseCIntPrefix reports whether C++ >> into int would succeed on the
// token: an optional sign followed by a digit.
func parseCIntPrefix(s string) (int, bool) {
	k := 0
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	e := k
	for e < len(s) && s[e] >= '0' && s[e] <= '9' {
		e++
	}
	if e == k {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:e], 10, 32)
	return int(n), err == nil
}

// parseCDouble reads a whole token as C++ >> into double: decimal
// notation with an optional exponent, finite.
func parseCDouble(s string) (float64, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return x, true
}
