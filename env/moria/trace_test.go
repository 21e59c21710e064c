package moria

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

// TestRound1States checks the board generator's state at the start of
// round 1 (after the map and the units) against traces/round1_states.tsv.
func TestRound1States(t *testing.T) {
	f, err := os.Open(filepath.Join(traceRoot(), "round1_states.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		seed, err1 := strconv.Atoi(fields[0])
		want, err2 := strconv.ParseInt(fields[1], 10, 64)
		if len(fields) != 2 || err1 != nil || err2 != nil {
			continue // the header
		}
		g, err := New(DefaultConfig(), seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Rand().State(); got != want {
			t.Errorf("seed %d: board state at round 1 = %d, want %d (restarts %+v)", seed, got, want, g.GenStats())
		}
		n++
	}
	if n == 0 {
		t.Fatal("no states read")
	}
}

func loadConfigFile(t testing.TB, path string) Config {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestAbortedGame replays a game where the engine aborts (SPEC §8.8): the
// error wraps ErrAbort and ErrBalrogBlocked, and the trace ends with the
// last complete state, as the course program leaves it.
func TestAbortedGame(t *testing.T) {
	dir := filepath.Join(traceRoot(), "..", "aborts")
	cfg := loadConfigFile(t, filepath.Join(dir, "crowded.cnf"))
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, filepath.Join(dir, "moria_s460_Brawl-Brawl-Brawl-Brawl_crowded.cmd.gz"))))
	if err != nil {
		t.Fatal(err)
	}
	const abortRound = 149
	names := [4]string{"Brawl", "Brawl", "Brawl", "Brawl"}
	play := func(last int) ([]byte, error) {
		m, err := Def.NewMatch(cfg, 460, names, [4]Bot{})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		m.WriteTrace(&buf)
		for m.Round() < last {
			if err := m.Step(log.Round(m.Round())); err != nil {
				if m.Round()+1 != abortRound {
					t.Errorf("aborted in round %d, want %d", m.Round()+1, abortRound)
				}
				if again := m.Step(log.Round(m.Round())); again == nil || again.Error() != err.Error() {
					t.Errorf("Match.Step after the abort = %v, want the same error", again)
				}
				if again := m.Game.Step(log.Round(m.Round())); again == nil || !errors.Is(err, again) {
					t.Errorf("Game.Step after the abort = %v, want the engine's error again", again)
				}
				return buf.Bytes(), err
			}
		}
		return buf.Bytes(), nil
	}
	got, err := play(cfg.NbRounds)
	if !errors.Is(err, ErrAbort) || !errors.Is(err, ErrBalrogBlocked) {
		t.Fatalf("replay: got %v, want an error wrapping ErrAbort and ErrBalrogBlocked", err)
	}
	t.Log(err)
	want, err := play(abortRound - 1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("the aborted game's trace is not its first %d rounds: %s", abortRound-1, coursetest.FirstDiff(want, got))
	}
	if !bytes.HasSuffix(got, []byte("\n\n")) || bytes.HasSuffix(got, []byte("-1\n")) {
		t.Error("the trace does not end with a complete state")
	}
}

// TestFixedMap plays the FIXED test map: the initial grid is the map with
// the initial dwarves' caves, and no draw is made for the map (SPEC §2).
func TestFixedMap(t *testing.T) {
	cfg := loadConfigFile(t, filepath.Join(traceRoot(), "fixed1.cnf"))
	for _, seed := range []int{1, 7, 99} {
		m, err := Def.NewBotMatch(cfg, seed, [4]string{"Demo", "Demo", "Null", "Demo"})
		if err != nil {
			t.Fatal(err)
		}
		for idx := range m.Game.Cells {
			c := &m.Game.Cells[idx]
			want := cfg.Fixed[idx/Cols][idx%Cols]
			if got := CellChar(c, cfg.RockResistance); got != want {
				if id := c.ID; id < 0 || m.Game.Units[id].Type != Dwarf || got != '0'+byte(m.Game.Units[id].Player) {
					t.Fatalf("seed %d cell %v: %c, want %c", seed, PosOf(idx), got, want)
				}
			}
		}
		// Placement starts on the fresh generator: its first draw is P(|V|).
		r := NewRand(seed)
		v := 0
		for _, line := range cfg.Fixed {
			v += strings.Count(line, "C")
		}
		r.SkipPerm(v)
		b := m.Game.Units[m.Game.BalrogID].Pos
		if col, row := r.Int(3, 56), r.Int(3, 56); b != (Pos{row, col}) {
			t.Errorf("seed %d: Balrog at %v, want (%d, %d)", seed, b, row, col)
		}
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
