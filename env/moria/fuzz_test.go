package moria

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"jgym/course/coursetest"
	"jgym/game"
	"jgym/game/gametest"
)

// Fuzz targets. "go test" runs them on their seed corpus only; to fuzz:
//
//	go test -run '^$' -fuzz FuzzParseTrace -fuzztime 45s ./env/moria/

func FuzzParseConfig(f *testing.F) {
	var seeds [][]byte
	seeds = append(seeds, []byte(DefaultConfigText))
	for _, p := range []string{filepath.Join(referenceTraces, "fixed1.cnf"), filepath.Join(referenceTraces, "..", "aborts", "crowded.cnf")} {
		seeds = append(seeds, mustRead(f, p))
	}
	seeds = append(seeds, []byte("Moria 1.1 nb_players 4 nb_rounds -3"))
	seeds = append(seeds, []byte(strings.Replace(DefaultConfigText, "GENERATOR", "GENERATOR 3", 1)))
	seeds = append(seeds, []byte(strings.Replace(DefaultConfigText, "GENERATOR", "FIXED RRR", 1)))
	gametest.FuzzConfig(f, Def, seeds...)
}

func FuzzParseTrace(f *testing.F) {
	raw := smallTrace(f, 2)
	f.Add(raw)
	f.Add(coursetest.Gzip(f, raw))
	f.Add(raw[:len(raw)/3])
	f.Add(raw[:bytes.Index(raw, []byte("movements\n"))])
	f.Add(bytes.Replace(raw, []byte("nb_rounds          2"), []byte("nb_rounds          1"), 1))
	f.Add(bytes.Replace(raw, []byte("\n120 t\n"), []byte("\n120 r\n5 n\n"), 1))
	f.Add([]byte("Game\n\nSeed 1\n\nMoria 1.1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseTrace(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := tr.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			if !bytes.Equal(out.Bytes(), data) {
				t.Fatalf("accepted input is not written back identically: %s", coursetest.FirstDiff(data, out.Bytes()))
			}
		}
		// Verify must never panic; only short games are verified here.
		if tr.Config.NbRounds <= 4 && tr.Config.NumUnits() <= 300 {
			_ = Verify(tr, nil)
			_ = Verify(tr, &CommandLog{Rounds: make([][NumPlayers][]Command, tr.Config.NbRounds)})
		}
	})
}

func FuzzParseCommandLog(f *testing.F) {
	var seeds [][]byte
	demo := coursetest.ReadGz(f, filepath.Join(referenceTraces, "commands", "moria_s1_Demo-Demo-Demo-Demo.cmd.gz"))
	seeds = append(seeds, demo[:bytes.IndexByte(demo, '\n')+1])
	seeds = append(seeds, coursetest.ReadGz(f, filepath.Join(referenceTraces, "commands", "moria_s1_Null-Null-Null-Null.cmd.gz")))
	seeds = append(seeds, []byte("3 1 2 5 0 6 8\n1 0 0\n"))
	seeds = append(seeds, []byte("1 0 1 -1 4\n1 0 0\n"))
	seeds = append(seeds, []byte("0 0 0\n"))
	gametest.FuzzCommandLog(f, Def, seeds...)
}

// fuzzBase is a game in progress (orcs, captured units, dug rocks) that
// FuzzOrdersStep clones for every input.
var fuzzBase = sync.OnceValues(func() (*Game, error) {
	cfg := DefaultConfig()
	cfg.RockResistance = 2
	var bots [NumPlayers]Bot
	for p := range bots {
		bots[p] = newBrawler(p, 11, false)
	}
	m, err := Def.NewMatch(cfg, 11, [4]string{"A", "B", "C", "D"}, bots)
	if err != nil {
		return nil, err
	}
	for range 60 {
		if err := m.PlayRound(); err != nil {
			return nil, err
		}
	}
	return m.Game, nil
})

// cloneGame returns an independent copy of g that can be stepped without
// touching g.
func cloneGame(g *Game) *Game {
	c := &Game{cfg: g.cfg, seed: g.seed, rng: g.rng, stats: g.stats, killed: make([]bool, len(g.Units))}
	c.copyGame(g)
	return c
}

// engineFilter is SPEC §8.2: a valid id of the player's, not commanded
// before, a direction 0..7 (none for a wizard's diagonals).
func engineFilter(s *State, p int, raw []Command) []Command {
	var out []Command
	seen := map[int]bool{}
	for _, c := range raw {
		if !s.ValidID(c.ID) || s.Units[c.ID].Player != p || seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		if c.Dir < 0 || c.Dir >= None || (s.Units[c.ID].Type == Wizard && c.Dir%2 == 1) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// FuzzOrdersStep feeds arbitrary commands to a game in progress: through
// Orders they must give the same round as their §8.2-valid subset, and
// raw lists straight into Step must not panic.
func FuzzOrdersStep(f *testing.F) {
	f.Add([]byte{0, 5, 6, 0, 0, 4, 1, 80, 2, 2, 90, 3, 3, 25, 12, 0, 5, 4})
	f.Add([]byte{0, 7, 255, 0, 7, 2, 1, 3, 5, 2, 1, 9, 3, 2, 0, 0, 20, 1})
	f.Add(bytes.Repeat([]byte{0, 9, 6}, 1002))
	f.Fuzz(func(t *testing.T, data []byte) {
		base, err := fuzzBase()
		if err != nil {
			t.Fatal(err)
		}
		n := len(base.Units)
		var raw [NumPlayers][]Command
		for i := 0; i+3 <= len(data) && i < 3*1200; i += 3 {
			p := int(data[i]) % NumPlayers
			id := int(data[i+1])%(n+4) - 2
			raw[p] = append(raw[p], Command{ID: id, Dir: Dir(int8(data[i+2]) % 12)})
		}
		var listed, valid [NumPlayers][]Command
		for p := range raw {
			o := *Def.NewOrders()
			o.Reset(n)
			for _, c := range raw[p] {
				o.Command(c.ID, c.Dir)
			}
			if got, want := o.Err() != nil, len(raw[p]) > game.MaxCommands; got != want {
				t.Fatalf("player %d gave %d commands: Err() = %v", p, len(raw[p]), o.Err())
			}
			listed[p] = o.List()
			valid[p] = engineFilter(&base.State, p, listed[p])
		}
		a, b := cloneGame(base), cloneGame(base)
		errA, errB := a.Step(&listed), b.Step(&valid)
		if fmt.Sprint(errA) != fmt.Sprint(errB) || fmt.Sprint(a.Moves) != fmt.Sprint(b.Moves) ||
			a.Cells != b.Cells || !reflect.DeepEqual(a.Units, b.Units) || a.Rand().State() != b.Rand().State() {
			t.Fatalf("filtered commands and their valid subset give different rounds")
		}
		_ = cloneGame(base).Step(&raw)
	})
}
