package crematoria

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	def, err := ParseConfig(strings.NewReader(DefaultConfigText))
	if err != nil {
		t.Fatal(err)
	}
	if def.String() != DefaultConfig().String() {
		t.Errorf("default.cnf parses to\n%s\nwant\n%s", def, DefaultConfig())
	}
	// Round trip, including a FIXED map from the reference edge cases.
	b, err := os.ReadFile("../../testdata/crematoria/traces/edge/fixed.cnf")
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := ParseConfig(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseConfig(strings.NewReader(fixed.String()))
	if err != nil || again.String() != fixed.String() {
		t.Errorf("FIXED config does not round-trip: %v", err)
	}

	bad := []struct{ name, text, want string }{
		{"empty", "", "expected"},
		{"version", strings.Replace(DefaultConfigText, "1.2", "1.3", 1), "expected"},
		{"key order", strings.Replace(DefaultConfigText, "nb_rounds", "nb_round", 1), "expected key nb_rounds"},
		{"not a number", strings.Replace(DefaultConfigText, "120", "lots", 1), "not an integer"},
		{"players", strings.Replace(DefaultConfigText, "nb_players             4", "nb_players 3", 1), "nb_players must be 4"},
		{"zero", strings.Replace(DefaultConfigText, "nb_furyans             5", "nb_furyans 0", 1), "at least 1"},
		{"rows", strings.Replace(DefaultConfigText, "rows                  40", "rows 41", 1), "rows and cols"},
		{"generator params", DefaultConfigText + " 5", "GENERATOR requires no parameters"},
		{"generator", strings.Replace(DefaultConfigText, "GENERATOR", "RANDOM", 1), "unknown grid generator"},
		{"missing generator", strings.Replace(DefaultConfigText, "GENERATOR", "", 1), "missing GENERATOR"},
		{"fixed short", strings.Replace(DefaultConfigText, "GENERATOR", "FIXED RRR", 1), "FIXED"},
	}
	for _, tc := range bad {
		_, err := ParseConfig(strings.NewReader(tc.text))
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseConfig error = %v, want ErrConfig containing %q", tc.name, err, tc.want)
		}
	}
	// GENERATOR followed by a non-integer token is accepted (SPEC §2.1).
	if _, err := ParseConfig(strings.NewReader(DefaultConfigText + " trailing")); err != nil {
		t.Errorf("GENERATOR followed by a word: %v", err)
	}
}
