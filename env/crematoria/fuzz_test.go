package crematoria

import (
	"bytes"
	"fmt"
	"os"
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
//	go test -run '^$' -fuzz FuzzOrdersStep -fuzztime 45s ./env/crematoria/

func FuzzParseConfig(f *testing.F) {
	var seeds [][]byte
	seeds = append(seeds, []byte(DefaultConfigText))
	cnfs, _ := filepath.Glob(filepath.Join(referenceTraces, "edge", "*.cnf"))
	for _, p := range cnfs {
		if b, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, b)
		}
	}
	seeds = append(seeds, []byte("Crematoria 1.2 nb_players 4 nb_rounds -3"))
	seeds = append(seeds, []byte(strings.Replace(DefaultConfigText, "GENERATOR", "GENERATOR 3", 1)))
	seeds = append(seeds, []byte(strings.Replace(DefaultConfigText, "GENERATOR", "FIXED RRR", 1)))
	gametest.FuzzConfig(f, Def, seeds...)
}

func FuzzParseTrace(f *testing.F) {
	small := filepath.Join(referenceTraces, "edge", "crematoria_s2_Null-Null-Null-Null_elev23.res.gz")
	raw := coursetest.ReadGz(f, small)
	f.Add(raw)
	f.Add(coursetest.Gzip(f, raw))
	f.Add(raw[:len(raw)/3])
	f.Add(bytes.Replace(raw, []byte("nb_rounds           2"), []byte("nb_rounds           1"), 1))
	f.Add(bytes.Replace(raw, []byte("\n90 l\n"), []byte("\n90 r\n5 u\n"), 1))
	f.Add([]byte("Game\n\nSeed 1\n\nCrematoria 1.2\n"))
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
		// Verify must never panic. Large maps with many elevators make the
		// generator slow by design, so only small games are verified here.
		if tr.Config.NbRounds <= 4 && tr.Config.NbElevators <= 25 && tr.Config.NumUnits() <= 200 {
			_ = Verify(tr, nil)
			_ = Verify(tr, &CommandLog{Rounds: make([][NumPlayers][]Command, tr.Config.NbRounds)})
		}
	})
}

func FuzzParseCommandLog(f *testing.F) {
	var seeds [][]byte
	seeds = append(seeds, coursetest.ReadGz(f, filepath.Join(referenceTraces, "edge", "crematoria_s2_Null-Null-Null-Null_elev23.cmd.gz")))
	demo := coursetest.ReadGz(f, filepath.Join(referenceTraces, "commands", "crematoria_s1_Demo-Demo-Demo-Demo.cmd.gz"))
	seeds = append(seeds, demo[:bytes.IndexByte(demo, '\n')+1])
	seeds = append(seeds, []byte("3 1 2 5 0 6 10\n0 0 0\n"))
	seeds = append(seeds, []byte("0 0 1 -1 4\n0 0 0\n"))
	gametest.FuzzCommandLog(f, Def, seeds...)
}

// fuzzBase is a game in progress (dead and living necromonger slots,
// captured units) that FuzzOrdersStep clones for every input.
var fuzzBase = sync.OnceValues(func() (*Game, error) {
	cfg := DefaultConfig()
	var bots [NumPlayers]Bot
	for p := range bots {
		bots[p] = newBrawler(p, 11, false)
	}
	m, err := Def.NewMatch(cfg, 11, [4]string{"A", "B", "C", "D"}, bots)
	if err != nil {
		return nil, err
	}
	for range 25 {
		if err := m.PlayRound(); err != nil {
			return nil, err
		}
	}
	return m.Game, nil
})

// cloneStepGame copies a game so that both can be stepped, one after the other:
// the scratch buffers are shared, which is safe because a Step rewrites them
// before reading them. TestCloneStepGame checks it against a replayed game.
func cloneStepGame(g *Game) *Game {
	c := *g
	c.State = State{}
	c.State.CopyFrom(&g.State)
	c.State.Cfg = &c.cfg
	c.Moves = nil
	c.queues = [NumPlayers][]Command{}
	return &c
}

func TestCloneStepGame(t *testing.T) {
	base, err := fuzzBase()
	if err != nil {
		t.Fatal(err)
	}
	a, b := cloneStepGame(base), cloneStepGame(base)
	cmds := [NumPlayers][]Command{{{ID: 0, Dir: Left}}, {{ID: 20, Dir: Top}}, {}, {{ID: 79, Dir: Up}}}
	for range 3 {
		if err := a.Step(&cmds); err != nil {
			t.Fatal(err)
		}
		movesA := append([]Move(nil), a.Moves...)
		if err := b.Step(&cmds); err != nil {
			t.Fatal(err)
		}
		if d := diffStepGames(a, b, movesA, b.Moves); d != "" {
			t.Fatalf("two clones stepped alike differ: %s", d)
		}
	}
	if base.Round != 25 {
		t.Fatalf("stepping clones changed the base game: round %d, want 25", base.Round)
	}
}

// diffStepGames describes the first difference between two games, or "".
func diffStepGames(a, b *Game, movesA, movesB []Move) string {
	switch {
	case fmt.Sprint(movesA) != fmt.Sprint(movesB):
		return fmt.Sprintf("moves %v and %v", movesA, movesB)
	case a.Round != b.Round || a.NbCells != b.NbCells || a.NbGems != b.NbGems:
		return "round or counters"
	case a.Cells != b.Cells:
		return "cells"
	case !reflect.DeepEqual(a.Units, b.Units):
		return "units"
	case a.rng != b.rng:
		return "board generator state"
	}
	return ""
}

// fuzzCommand decodes 3 bytes into a raw command of a player: any id (-1,
// out of range, dead or living necromonger slots, hellhounds, units of
// other groups) and any direction, valid or not.
func fuzzCommand(b []byte, nUnits int) (p int, c Command) {
	p = int(b[0]) % NumPlayers
	switch b[1] {
	case 0:
		c.ID = -1
	case 1:
		c.ID = nUnits
	case 2:
		c.ID = -7
	case 3:
		c.ID = 1 << 20
	default:
		c.ID = int(b[1]) % nUnits
	}
	c.Dir = Dir(int(b[2])%16 - 2)
	return p, c
}

// playerFilter is SPEC §8.1 written independently of Orders: id -1
// ignored, the first command per unit wins, bad directions dropped
// without marking the unit.
func playerFilter(raw []Command) []Command {
	var out []Command
	seen := map[int]bool{}
	for _, c := range raw {
		if c.ID == -1 || seen[c.ID] || c.Dir < 0 || c.Dir > None {
			continue
		}
		seen[c.ID] = true
		out = append(out, c)
	}
	return out
}

// engineFilter is SPEC §8.2: valid id, own unit, a direction other than
// None. It keeps duplicates, which only a broken player filter would pass.
func engineFilter(s *State, p int, raw []Command) []Command {
	var out []Command
	for _, c := range raw {
		if c.ID < 0 || c.ID >= len(s.Units) || c.Dir < 0 || c.Dir >= None {
			continue
		}
		if u := &s.Units[c.ID]; (u.Type == Hellhound || u.Health > 0) && u.Player == p {
			out = append(out, c)
		}
	}
	return out
}

func FuzzOrdersStep(f *testing.F) {
	f.Add([]byte{0, 5, 6, 0, 0, 4, 1, 80, 2, 2, 90, 3, 3, 25, 12, 0, 5, 4})
	f.Add([]byte{0, 7, 255, 0, 7, 2, 1, 3, 5, 2, 1, 9, 3, 2, 0})
	f.Add([]byte{1, 30, 10, 2, 45, 8, 3, 70, 9, 0, 85, 6})
	f.Add(bytes.Repeat([]byte{0, 9, 6}, 1001/3*3+3)) // more than 1000 commands
	f.Fuzz(func(t *testing.T, data []byte) {
		base, err := fuzzBase()
		if err != nil {
			t.Fatal(err)
		}
		n := len(base.Units)
		var raw [NumPlayers][]Command
		for i := 0; i+3 <= len(data) && i < 3*1200; i += 3 {
			p, c := fuzzCommand(data[i:i+3], n)
			raw[p] = append(raw[p], c)
		}
		// Through Orders, as a player's command() calls.
		var listed, filtered, engine [NumPlayers][]Command
		tooMany := false
		for p := range raw {
			o := *Def.NewOrders()
			o.Reset(n)
			for _, c := range raw[p] {
				o.Command(c.ID, c.Dir)
			}
			if got, want := o.Err() != nil, len(raw[p]) > game.MaxCommands; got != want {
				t.Fatalf("player %d gave %d commands: Err() = %v", p, len(raw[p]), o.Err())
			}
			tooMany = tooMany || o.Err() != nil
			listed[p] = o.List()
			filtered[p] = playerFilter(raw[p])
			engine[p] = engineFilter(&base.State, p, filtered[p])
			if o.Err() == nil && fmt.Sprint(listed[p]) != fmt.Sprint(filtered[p]) {
				t.Fatalf("player %d: Orders kept %v, SPEC §8.1 keeps %v", p, listed[p], filtered[p])
			}
		}
		if tooMany {
			return // the course program aborts the game
		}
		// The engine must ignore exactly what SPEC §8.2 ignores.
		a, b := cloneStepGame(base), cloneStepGame(base)
		if err := a.Step(&listed); err != nil {
			t.Fatal(err)
		}
		movesA := append([]Move(nil), a.Moves...)
		if err := b.Step(&engine); err != nil {
			t.Fatal(err)
		}
		if d := diffStepGames(a, b, movesA, b.Moves); d != "" {
			t.Fatalf("filtered commands and their valid subset give different rounds: %s", d)
		}
		// Raw lists straight into Step (duplicates, bad directions) must not
		// panic either, and the engine keeps only what §8.2 keeps.
		var rawEngine [NumPlayers][]Command
		for p := range raw {
			rawEngine[p] = engineFilter(&base.State, p, raw[p])
		}
		c, d := cloneStepGame(base), cloneStepGame(base)
		if err := c.Step(&raw); err != nil {
			t.Fatal(err)
		}
		movesC := append([]Move(nil), c.Moves...)
		if err := d.Step(&rawEngine); err != nil {
			t.Fatal(err)
		}
		if diff := diffStepGames(c, d, movesC, d.Moves); diff != "" {
			t.Fatalf("raw commands and their valid subset give different rounds: %s", diff)
		}
	})
}

// FuzzVerifyAcceptsGames plays short brawls in random configurations and
// checks that verify accepts their traces, with and without commands: the
// rules check must never reject what the engine does.
func FuzzVerifyAcceptsGames(f *testing.F) {
	f.Add(uint16(1), uint8(12), uint8(5), uint8(15), uint8(10), uint8(3), uint8(2), true)
	f.Add(uint16(77), uint8(30), uint8(12), uint8(2), uint8(6), uint8(2), uint8(1), false)
	f.Add(uint16(300), uint8(20), uint8(1), uint8(1), uint8(1), uint8(6), uint8(4), true)
	f.Fuzz(func(t *testing.T, seed uint16, rounds, furyans, pioneers, necros, hounds, land uint8, junk bool) {
		cfg := DefaultConfig()
		cfg.NbRounds = 1 + int(rounds)%40
		cfg.NbFuryans = 1 + int(furyans)%12
		cfg.NbPioneers = 1 + int(pioneers)%15
		cfg.MaxNecros = 1 + int(necros)%12
		cfg.NbHellhounds = 1 + int(hounds)%12
		cfg.TurnsToLand = 1 + int(land)%4
		raw, log, err := playBrawl(cfg, int(seed), junk)
		if err != nil {
			t.Skip(err) // the course engine aborts too (no room for the units)
		}
		tr, err := ParseTrace(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(tr, nil); err != nil {
			t.Fatalf("rules: %v", err)
		}
		if err := Verify(tr, log); err != nil {
			t.Fatalf("replay: %v", err)
		}
	})
}

// fixedMap draws a FIXED map: caves (owned or not), rock and elevators on
// level 0, with elevators above them on level 1 unless unpaired, and gems.
// Nothing is checked, as with the course engine's loader.
func fixedMap(seed uint32, caves, elevators, owners, gems, unpaired uint8) []string {
	r := NewRand(int(seed & 0x7fffffff))
	chance := func(x uint8) bool { return r.Int(0, 255) < int(x) }
	rows := make([]string, 2*Rows)
	l0, l1 := make([]byte, LevelCells), make([]byte, LevelCells)
	for idx := range l0 {
		l0[idx], l1[idx] = 'R', 'O'
		switch {
		case chance(elevators / 8):
			l0[idx] = 'E'
			if !chance(unpaired) {
				l1[idx] = 'E'
			}
		case chance(caves):
			l0[idx] = 'C'
			if chance(owners) {
				l0[idx] = byte('0' + r.Int(0, 3))
			}
		}
		if l1[idx] == 'O' && chance(gems/4) {
			l1[idx] = 'G'
		}
	}
	for i := 0; i < Rows; i++ {
		rows[i], rows[Rows+i] = string(l0[i*Cols:(i+1)*Cols]), string(l1[i*Cols:(i+1)*Cols])
	}
	return rows
}

// FuzzVerifyFixedMaps plays brawls on random FIXED maps: the engine must not
// panic, and verify must accept the traces, given the configuration or not.
func FuzzVerifyFixedMaps(f *testing.F) {
	f.Add(uint32(1), uint8(160), uint8(20), uint8(30), uint8(40), uint8(0), uint8(8), false)
	f.Add(uint32(9), uint8(250), uint8(120), uint8(200), uint8(255), uint8(128), uint8(15), true)
	f.Add(uint32(42), uint8(90), uint8(255), uint8(0), uint8(0), uint8(255), uint8(20), true)
	f.Fuzz(func(t *testing.T, seed uint32, caves, elevators, owners, gems, unpaired, rounds uint8, junk bool) {
		cfg := DefaultConfig()
		cfg.NbRounds = 1 + int(rounds)%25
		cfg.NbFuryans, cfg.NbPioneers, cfg.NbHellhounds = 3, 5, 1+int(seed>>8)%11
		cfg.Fixed = fixedMap(seed, caves, elevators, owners, gems, unpaired)
		raw, log, err := playBrawl(cfg, int(seed%1000), junk)
		if err != nil {
			t.Skip(err) // no room for the units: the course engine aborts too
		}
		tr, err := ParseTrace(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyWith(tr, VerifyOptions{Config: &cfg}); err != nil {
			t.Fatalf("rules with the configuration: %v", err)
		}
		if err := Verify(tr, nil); err != nil {
			t.Fatalf("rules: %v", err)
		}
		if err := VerifyWith(tr, VerifyOptions{Config: &cfg, Commands: log}); err != nil {
			t.Fatalf("replay: %v", err)
		}
	})
}
