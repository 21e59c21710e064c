package pandemic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/game"
)

// fixedConfig returns a 20 x 20 FIXED configuration whose map rows are
// given by cell(i, j) (a trace character), with no cities, paths or masks.
func fixedConfig(t *testing.T, units, health int, cell func(i, j int) byte) Config {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "Pandemic 1.0 nb_players 4 rows 20 cols 20 nb_rounds 20 initial_health %d nb_units %d ", health, units)
	b.WriteString("bonus_per_city_cell 1 bonus_per_path_cell 1 factor_connected_component 2 infection_factor 50 mask_protection 20\nFIXED\n")
	b.WriteString(string(appendColumnLabels(nil, 20)))
	for i := 0; i < 20; i++ {
		row := make([]byte, 20)
		for j := range row {
			row[j] = cell(i, j)
		}
		fmt.Fprintf(&b, "%02d %s\n", i, row)
	}
	b.WriteString("cities 0\npaths 0\nmasks 0\n")
	cfg, err := ParseConfig(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func border(i, j int) bool { return i == 0 || j == 0 || i == 19 || j == 19 }

// spammer gives no orders until round at, then calls Move n times.
type spammer struct{ at, n int }

func (b spammer) Play(s *State, o *Orders) {
	if s.Round == b.at {
		for k := 0; k < b.n; k++ {
			o.Move(k%len(s.Units), None)
		}
	}
}

// tracePrefix plays a Null game for rounds rounds and returns its trace.
func tracePrefix(t *testing.T, cfg Config, seed, rounds int) []byte {
	t.Helper()
	m, err := Def.NewMatch(cfg, seed, [4]string{"Null", "Null", "Null", "Null"}, [4]Bot{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	for r := 0; r < rounds; r++ {
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func TestCommandLimit(t *testing.T) {
	for _, c := range []struct {
		n       int
		wantErr bool
	}{{game.MaxCommands, false}, {game.MaxCommands + 1, true}, {5000, true}} {
		t.Run(fmt.Sprint(c.n), func(t *testing.T) {
			names := [4]string{"Null", "Spam", "Null", "Null"}
			m, err := Def.NewMatch(DefaultConfig(), 3, names, [4]Bot{nil, spammer{at: 2, n: c.n}})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			m.WriteTrace(&buf)
			err = m.Run(context.Background())
			if got := errors.Is(err, game.ErrTooManyCommands); got != c.wantErr {
				t.Fatalf("Run() = %v, want game.ErrTooManyCommands: %v", err, c.wantErr)
			}
			if !c.wantErr {
				return
			}
			// The course program aborts inside the player's turn of round
			// 2: the trace holds the states of rounds 0..2.
			want := tracePrefix(t, DefaultConfig(), 3, 2)
			want = bytes.Replace(want, []byte("names          Null Null Null Null"), []byte("names          Null Spam Null Null"), 1)
			if !bytes.Equal(buf.Bytes(), want) {
				t.Error(coursetest.FirstDiff(want, buf.Bytes()))
			}
		})
	}
}

func TestNoSpawnCell(t *testing.T) {
	// Only row 1 has grass: 9 units fit (every other cell), 16 do not.
	cfg := fixedConfig(t, 4, 100, func(i, j int) byte {
		switch {
		case border(i, j):
			return 'W'
		case i == 1:
			return '.'
		}
		return ','
	})
	_, err := New(cfg, 1)
	if !errors.Is(err, ErrNoSpawnCell) {
		t.Fatalf("New() = %v, want ErrNoSpawnCell", err)
	}
}

func TestNoMaskCell(t *testing.T) {
	// Grass only on the spawn ring: no cell for the mask of round 5.
	cfg := fixedConfig(t, 2, 100, func(i, j int) byte {
		switch {
		case border(i, j):
			return 'W'
		case i == 1 || j == 1 || i == 18 || j == 18:
			return '.'
		}
		return ','
	})
	m, err := Def.NewBotMatch(cfg, 1, [4]string{"Null", "Null", "Null", "Null"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	err = m.Run(context.Background())
	if !errors.Is(err, ErrNoMaskCell) || m.Round() != 5 {
		t.Fatalf("Run() = %v at round %d, want ErrNoMaskCell at round 5", err, m.Round())
	}
	if !bytes.HasSuffix(buf.Bytes(), []byte("\ncommands\n-1\n")) {
		t.Errorf("the partial trace does not end with the commands block of round 5")
	}
}

// brawler moves every unit towards the nearest enemy unit and attacks it.
type brawler struct{ me int }

func (b brawler) Play(s *State, o *Orders) {
	for _, id := range s.PlayerUnits[b.me] {
		u := &s.Units[id]
		best, bd := Pos{}, -1
		for k := range s.Units {
			v := &s.Units[k]
			if v.Player != b.me {
				if d := abs(v.Pos.I-u.Pos.I) + abs(v.Pos.J-u.Pos.J); bd < 0 || d < bd {
					best, bd = v.Pos, d
				}
			}
		}
		if bd < 0 {
			continue
		}
		d := Bottom
		switch {
		case best.I < u.Pos.I:
			d = Top
		case best.J > u.Pos.J:
			d = Right
		case best.J < u.Pos.J:
			d = Left
		}
		if s.Round%3 == 2 { // get round walls now and then
			d = Dir((int(d) + 1) % 4)
		}
		o.Move(id, d)
	}
}

// TestKilledTwice plays brawlers with health 1: an attack-killed unit that
// respawns infected dies again in the damage pass, which aborts the course
// program after it wrote the round's commands block (SPEC §8.7).
func TestKilledTwice(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.NbUnits, cfg.InitialHealth, cfg.NbRounds = 24, 24, 4, 1, 300
	for seed := 1; seed <= 40; seed++ {
		var bots [4]Bot
		for p := range bots {
			bots[p] = brawler{p}
		}
		m, err := Def.NewMatch(cfg, seed, [4]string{"B", "B", "B", "B"}, bots)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		m.WriteTrace(&buf)
		err = m.Run(context.Background())
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrKilledTwice) {
			t.Fatalf("seed %d: Run() = %v, want ErrKilledTwice", seed, err)
		}
		if got, want := bytes.Count(buf.Bytes(), []byte("\nround ")), m.Round(); got != want {
			t.Errorf("seed %d: the partial trace has %d states, want %d (rounds 0..%d)", seed, got, want, m.Round()-1)
		}
		if !bytes.HasSuffix(buf.Bytes(), []byte("\n-1\n")) {
			t.Errorf("seed %d: the partial trace does not end with the commands block", seed)
		}
		return
	}
	t.Fatal("no game of 40 aborted")
}
