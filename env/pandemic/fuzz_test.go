package pandemic

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

// Fuzz targets. "go test" runs them on their seed corpus only; to fuzz:
//
//	go test -run '^$' -fuzz FuzzParseTrace -fuzztime 45s ./env/pandemic/

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(DefaultConfigText))
	cnfs, _ := filepath.Glob(filepath.Join(referenceTraces, "edge", "*.cnf"))
	for _, p := range cnfs {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("Pandemic 1.0 nb_players 4 rows -3"))
	f.Add([]byte(strings.Replace(DefaultConfigText, "GENERATOR1", "GENERATOR1 3", 1)))
	f.Add([]byte(strings.Replace(DefaultConfigText, "GENERATOR1", "FIXED a b 00 WWW", 1)))
	f.Add([]byte(strings.Replace(DefaultConfigText, "50", "1e-3", 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("ParseConfig accepted a configuration Validate rejects: %v", err)
		}
		again, err := ParseConfig(strings.NewReader(cfg.String()))
		if err != nil {
			t.Fatalf("String() of an accepted configuration does not parse: %v", err)
		}
		if !reflect.DeepEqual(again, cfg) {
			t.Fatalf("round trip: got %+v, want %+v", again, cfg)
		}
	})
}

func FuzzParseTrace(f *testing.F) {
	raw := coursetest.ReadGz(f, filepath.Join(referenceTraces, "edge", "pandemic_s602_Demo-Dummy-Demo-Dummy.res.gz"))
	f.Add(raw)
	f.Add(coursetest.Gzip(f, raw))
	f.Add(raw[:len(raw)/3])
	f.Add(raw[:bytes.Index(raw, []byte("commands\n"))])
	f.Add(bytes.Replace(raw, []byte("nb_rounds                   120"), []byte("nb_rounds                   1"), 1))
	f.Add(bytes.Replace(raw, []byte("\n-1\n"), []byte("\n5 r\n-1\n"), 1))
	f.Add([]byte("Game\n\nSeed 1\n\nPandemic 1.0\n"))
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
		// Verify must never panic; map generation of large boards is slow by
		// design, so only small games are verified here.
		if len(tr.States) <= 6 && tr.Config.Rows <= 30 {
			_ = Verify(tr, nil)
			_ = Verify(tr, &CommandLog{Rounds: make([][NumPlayers][]Command, len(tr.Commands))})
		}
	})
}

func FuzzParseCommandLog(f *testing.F) {
	f.Add(coursetest.ReadGz(f, filepath.Join(referenceTraces, "edge", "commands", "pandemic_s602_Demo-Dummy-Demo-Dummy.cmd.gz")))
	chaos := coursetest.ReadGz(f, filepath.Join(referenceTraces, "edge", "commands", "pandemic_s801_Chaos-Demo-Dummy-Chaos.cmd.gz"))
	f.Add(chaos[:bytes.IndexByte(chaos, '\n')+1])
	f.Add([]byte("3 1 2 5 0 6 -1\n0 0 0\n"))
	f.Add([]byte("0 0 1 -3 7\n0 0 0\n"))
	f.Add([]byte("0 0 2 4 1 4 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		log, err := ParseCommandLog(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := log.Write(&out); err != nil {
			t.Fatal(err)
		}
		again, err := ParseCommandLog(&out)
		if err != nil {
			t.Fatalf("Write output does not parse: %v", err)
		}
		if len(again.Rounds) != len(log.Rounds) {
			t.Fatalf("round trip: %d rounds, want %d", len(again.Rounds), len(log.Rounds))
		}
		for r := range log.Rounds {
			for p := range log.Rounds[r] {
				if len(log.Rounds[r][p]) != len(again.Rounds[r][p]) {
					t.Fatalf("round trip: round %d player %d differs", r, p)
				}
				for i, c := range log.Rounds[r][p] {
					if again.Rounds[r][p][i] != c {
						t.Fatalf("round trip: round %d player %d command %d differs", r, p, i)
					}
				}
			}
		}
	})
}

// chaosBot gives random commands to its units and, with junk, every kind
// of command the filters must drop: foreign units, bad ids, bad
// directions, duplicates.
type chaosBot struct {
	me   int
	rng  *rand.Rand
	junk bool
}

func (b *chaosBot) Play(s *State, o *Orders) {
	for _, id := range s.PlayerUnits[b.me] {
		if b.rng.IntN(4) == 0 {
			continue
		}
		if b.junk && b.rng.IntN(6) == 0 {
			o.Move(id, Dir(b.rng.IntN(9)-1))
		}
		o.Move(id, Dir(b.rng.IntN(5)))
	}
	if b.junk {
		n := len(s.Units)
		for range 4 {
			o.Move(b.rng.IntN(n+6)-3, Dir(b.rng.IntN(9)-1))
		}
	}
}

// playFuzzGame plays a game with the given bots kinds (0 Null, 1 Demo,
// 2 brawler, 3 chaos) and returns its trace and command log.
func playFuzzGame(t *testing.T, cfg Config, seed int, kinds [4]uint8) ([]byte, *CommandLog, error) {
	var bots [NumPlayers]Bot
	var names [NumPlayers]string
	for p, k := range kinds {
		switch k % 4 {
		case 0:
			names[p] = "Null"
		case 1:
			names[p], bots[p] = "Demo", NewDemo(p, seed)
		case 2:
			names[p], bots[p] = "Brawler", brawler{p}
		case 3:
			names[p], bots[p] = "Chaos", &chaosBot{me: p, rng: rand.New(rand.NewPCG(uint64(seed), uint64(p))), junk: true}
		}
	}
	m, err := Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	log := &CommandLog{}
	for !m.Done() {
		err := m.PlayRound()
		var cmds [NumPlayers][]Command
		for p := range cmds {
			cmds[p] = m.Orders(p)
		}
		log.Record(&cmds)
		if err != nil {
			return buf.Bytes(), log, err
		}
	}
	return buf.Bytes(), log, nil
}

// FuzzVerifyAcceptsGames plays games with fighting, random and junk
// players in small, deadly configurations and checks that Verify accepts
// their traces, with and without the commands: the rules check must never
// reject a game the engine plays.
func FuzzVerifyAcceptsGames(f *testing.F) {
	f.Add(uint16(1), uint8(20), uint8(4), uint8(100), uint8(50), uint8(20), uint32(0x02030102))
	f.Add(uint16(7), uint8(24), uint8(3), uint8(10), uint8(3), uint8(2), uint32(0x03030303))
	f.Add(uint16(33), uint8(30), uint8(8), uint8(30), uint8(1), uint8(1), uint32(0x02020202))
	f.Add(uint16(5), uint8(20), uint8(1), uint8(5), uint8(2), uint8(0), uint32(0x01020300))
	f.Fuzz(func(t *testing.T, seed uint16, rows, units, health, infection, mask uint8, kinds uint32) {
		cfg := DefaultConfig()
		cfg.Rows = 22 + int(rows)%14 // 20 x 20 maps need thousands of attempts
		cfg.Cols = cfg.Rows
		cfg.NbUnits = 1 + int(units)%max(1, cfg.Rows*cfg.Rows/400)
		cfg.InitialHealth = 1 + int(health)
		cfg.InfectionFactor = float64(infection) / 2
		cfg.MaskProtection = float64(mask) / 4
		cfg.NbRounds = 40
		k := [4]uint8{uint8(kinds), uint8(kinds >> 8), uint8(kinds >> 16), uint8(kinds >> 24)}
		raw, log, err := playFuzzGame(t, cfg, int(seed), k)
		if raw == nil {
			t.Skip(err)
		}
		tr, perr := ParseTrace(bytes.NewReader(raw))
		if perr != nil {
			t.Fatalf("the engine's trace does not parse: %v", perr)
		}
		if err := VerifyWith(tr, VerifyOptions{AllowAborted: err != nil}); err != nil {
			t.Fatalf("rules reject a game of the engine (%v): %v", err, cfg)
		}
		if err := Verify(tr, log); err != nil {
			t.Fatalf("replay rejects a game of the engine: %v", err)
		}
	})
}
