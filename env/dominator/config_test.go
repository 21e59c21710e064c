package dominator

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestShippedConfigs(t *testing.T) {
	want := []string{"default", "fixed1", "fixed2", "fixed3", "fixed4", "fixed5", "fixed6", "generator1", "generator2", "generator3"}
	if got := ShippedConfigNames(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ShippedConfigNames() = %v, want %v", got, want)
	}
	for _, name := range want {
		c, err := ShippedConfig(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// All shipped configurations use the default numbers (SPEC §2.2).
		if got, want := c.Values(), DefaultConfig().Values(); got != want {
			t.Errorf("%s: settings %v, want %v", name, got, want)
		}
		again, err := ParseConfig(strings.NewReader(c.String()))
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Errorf("%s: String() does not round-trip: %v", name, err)
		}
	}
	def, err := ShippedConfig("default.cnf")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(def, DefaultConfig()) {
		t.Errorf("default.cnf = %+v, want DefaultConfig() %+v", def, DefaultConfig())
	}
	if _, err := ShippedConfig("../config"); !errors.Is(err, ErrConfig) {
		t.Errorf("ShippedConfig(../config) = %v, want ErrConfig", err)
	}
}

func TestParseConfigEdgeFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(referenceTraces, "edge", "*.cnf"))
	if len(files) != 14 {
		t.Fatalf("%d edge configurations, want 14", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseConfig(strings.NewReader(string(b)))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		again, err := ParseConfig(strings.NewReader(c.String()))
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Errorf("%s: String() does not round-trip: %v", filepath.Base(f), err)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	def := DefaultConfigText
	with := func(old, new string) string { return strings.Replace(def, old, new, 1) }
	fixedRow := strings.Repeat(".", 37) + "\n"
	fixedWith := func(rows int, last string) string {
		return strings.Replace(def, "GENERATOR2\n", "FIXED\n"+strings.Repeat(fixedRow, rows-1)+last, 1)
	}
	fixed := fixedWith(37, fixedRow)
	for _, c := range []struct{ name, text, want string }{
		{"empty", "", "expected"},
		{"version", with("4.0", "4.1"), "expected"},
		{"key order", with("nb_rounds", "nb_round"), "expected key nb_rounds"},
		{"not a number", with("200", "lots"), "not an integer"},
		{"players", with("nb_players       4", "nb_players 3"), "nb_players must be 4"},
		{"rounds", with("nb_rounds      200", "nb_rounds 0"), "nb_rounds must be at least 1"},
		{"health", with("farmers_health 100", "farmers_health 0"), "farmers_health must be at least 1"},
		{"damage", with("damage_max      90", "damage_max 59"), "damage_max must be at least 60"},
		{"small", with("rows            37", "rows 19"), "rows must be at least 20"},
		{"even", strings.Replace(with("rows            37", "rows 38"), "cols            37", "cols 38", 1), "odd"},
		{"not square", with("cols            37", "cols 39"), "cols must equal rows"},
		{"huge", with("nb_farmers      20", "nb_farmers 5000"), "too large"},
		{"generator2 params", with("GENERATOR2", "GENERATOR2 5"), "GENERATOR2 takes no parameters"},
		{"generator1 params", with("GENERATOR2", "GENERATOR1"), "GENERATOR1 takes 1 or 2 parameters"},
		{"generator1 range", with("GENERATOR2", "GENERATOR1 500"), "out of range"},
		{"generator1 order", with("GENERATOR2", "GENERATOR1 50 10"), "out of range"},
		{"generator3 size", strings.Replace(strings.Replace(def, "37", "39", 2), "GENERATOR2", "GENERATOR3", 1), "1 mod 6"},
		{"source", with("GENERATOR2", "GENERATOR4"), "unknown board source"},
		{"missing source", with("GENERATOR2", ""), "missing the board source"},
		{"fixed short", with("GENERATOR2", "FIXED XXX"), "FIXED"},
		{"fixed char", fixedWith(37, "w"+fixedRow[1:]), "character"},
		{"fixed rows", fixedWith(36, fixedRow), "FIXED board has 36 rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig(strings.NewReader(c.text))
			if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParseConfig error = %v, want ErrConfig containing %q", err, c.want)
			}
		})
	}
	// After the parameters, reading stops at the first token that is not
	// an integer (SPEC §2.1).
	c, err := ParseConfig(strings.NewReader(with("GENERATOR2", "GENERATOR1 10 40 trailing words 7")))
	if err != nil || !reflect.DeepEqual(c.Params, []int{10, 40}) {
		t.Errorf("GENERATOR1 10 40 trailing: %v, params %v", err, c.Params)
	}
	if _, err := ParseConfig(strings.NewReader(fixed)); err != nil {
		t.Errorf("FIXED board of dots: %v", err)
	}
}

// TestFixedOwnerFour checks that a FIXED board with an owner 4 that no
// farmer paints over aborts before round 0, as the course program's
// scoring does (SPEC §2.1).
func TestFixedOwnerFour(t *testing.T) {
	c, err := ShippedConfig("fixed1")
	if err != nil {
		t.Fatal(err)
	}
	row := []byte(c.Grid[18])
	row[18] = '4'
	c.Grid[18] = string(row)
	if _, err := New(c, 1); !errors.Is(err, ErrAbort) {
		t.Errorf("New with an owner 4 = %v, want ErrAbort", err)
	}
	row[18] = '2'
	c.Grid[18] = string(row)
	g, err := New(c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Land[2] != 21 {
		t.Errorf("land of player 2 = %d, want 20 farmers + 1 initial cell", g.Land[2])
	}
}
