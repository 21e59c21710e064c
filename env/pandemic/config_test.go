package pandemic

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	def, err := ParseConfig(strings.NewReader(DefaultConfigText))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(def, DefaultConfig()) {
		t.Errorf("default.cnf parses to %+v, want %+v", def, DefaultConfig())
	}
	if got := DefaultConfig().String(); got != DefaultConfigText {
		t.Errorf("DefaultConfig().String() = %q, want %q", got, DefaultConfigText)
	}
	// Every reference configuration parses and round-trips, the FIXED one
	// included.
	cnfs, _ := filepath.Glob(filepath.Join(tracesRoot(), "edge", "*.cnf"))
	if len(cnfs) == 0 {
		t.Fatal("no reference configurations")
	}
	for _, p := range cnfs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseConfig(strings.NewReader(string(b)))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		again, err := ParseConfig(strings.NewReader(c.String()))
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Errorf("%s does not round-trip: %v", filepath.Base(p), err)
		}
	}

	rep := func(old, new string) string { return strings.Replace(DefaultConfigText, old, new, 1) }
	bad := []struct{ name, text, want string }{
		{"empty", "", "expected"},
		{"version", rep("1.0", "1.1"), "expected"},
		{"key order", rep("rows ", "row "), "expected key rows"},
		{"not a number", rep("200", "lots"), "not an integer"},
		{"fraction for an int", rep("200", "2.5"), "not an integer"},
		{"not a double", rep("50", "fifty"), "not a number"},
		{"infinite double", rep("50", "1e999"), "not a number"},
		{"players", rep("nb_players                  4", "nb_players 3"), "nb_players must be 4"},
		{"small rows", rep("rows                        70", "rows 19"), "rows must be at least 20"},
		{"rounds", rep("nb_rounds                   200", "nb_rounds 0"), "nb_rounds"},
		{"health", rep("initial_health              100", "initial_health 0"), "initial_health must be positive"},
		{"too many units", rep("nb_units                    15", "nb_units 50"), "need at least"},
		{"bonus", rep("bonus_per_path_cell         1", "bonus_per_path_cell 0"), "bonus_per_path_cell"},
		{"not square", rep("cols                        70", "cols 71"), "rows and cols must be equal"},
		{"generator params", DefaultConfigText + " 5", "takes no parameters"},
		{"generator params with sign", DefaultConfigText + " -5x", "takes no parameters"},
		{"generator", rep("GENERATOR1", "GENERATOR2"), "unknown grid generator"},
		{"missing generator", rep("GENERATOR1", ""), "missing GENERATOR1"},
		{"fixed short", rep("GENERATOR1", "FIXED a b 00 WWW"), "FIXED"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig(strings.NewReader(tc.text))
			if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseConfig error = %v, want ErrConfig containing %q", err, tc.want)
			}
		})
	}
	// GENERATOR1 followed by a word is accepted; doubles need no dot, and
	// the checks of the two doubles test the wrong field (SPEC §2.1).
	for _, text := range []string{DefaultConfigText + " trailing", rep("50", "-3"), rep("mask_protection             20", "mask_protection 0")} {
		if _, err := ParseConfig(strings.NewReader(text)); err != nil {
			t.Errorf("ParseConfig(%q) = %v, want nil", text, err)
		}
	}
}

func TestFormatDouble(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{50, "50"}, {7.5, "7.5"}, {2.5, "2.5"}, {0, "0"}, {1e6, "1e+06"}, {123456.7, "123457"}, {0.0001, "0.0001"}, {1.0 / 3, "0.333333"}} {
		if got := FormatDouble(c.x); got != c.want {
			t.Errorf("FormatDouble(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}
