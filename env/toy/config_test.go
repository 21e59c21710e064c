package toy

import (
	"errors"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	def := DefaultConfig().Text()
	for _, c := range []struct {
		name, text string
		ok         bool
	}{
		{"the default text", def, true},
		{"other order, blank lines", "\nToy 1\ncapture 5\n\nwalls 10\nunits 3\ncols 10\nrows 10\nrounds 40\n", true},
		{"the small text", smallConfig.Text(), true},
		{"empty", "", false},
		{"another game", strings.Replace(def, "Toy 1", "Crematoria 1.2", 1), false},
		{"a setting missing", strings.Replace(def, "walls 10\n", "", 1), false},
		{"a setting twice", def + "walls 3\n", false},
		{"an unknown setting", def + "speed 3\n", false},
		{"not an integer", strings.Replace(def, "units 3", "units three", 1), false},
		{"two values", strings.Replace(def, "units 3", "units 3 4", 1), false},
		{"out of range", strings.Replace(def, "rows 10", "rows 3", 1), false},
		{"too many walls for the units", strings.Replace(strings.Replace(def, "walls 10", "walls 100", 1), "rows 10", "rows 4", 1), false},
	} {
		cfg, err := ParseConfig(strings.NewReader(c.text))
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrConfig)) {
			t.Errorf("%s: ParseConfig = %+v, %v; want ok %v", c.name, cfg, err, c.ok)
		}
	}
	for _, cfg := range []Config{DefaultConfig(), smallConfig} {
		got, err := ParseConfig(strings.NewReader(cfg.Text()))
		if err != nil || got != cfg {
			t.Errorf("ParseConfig(Text()) = %+v, %v; want %+v", got, err, cfg)
		}
	}
}
