package dominator

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/game/gametest"
)

// Fuzz targets. "go test" runs them on their seed corpus only; to fuzz:
//
//	go test -run '^$' -fuzz '^FuzzParseTrace$' -fuzztime 60s -fuzzminimizetime 2s ./env/dominator/
//
// The traces of the corpus are some 20 KB long: without a short
// -fuzzminimizetime the fuzzer spends most of its time minimizing them.

func FuzzParseConfig(f *testing.F) {
	var seeds [][]byte
	for _, name := range ShippedConfigNames() {
		c, err := ShippedConfig(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, []byte(c.String()))
	}
	cnfs, _ := filepath.Glob(filepath.Join(referenceTraces, "edge", "*.cnf"))
	for _, p := range cnfs {
		if b, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, b)
		}
	}
	seeds = append(seeds, []byte("Dominator 4.0 nb_players 4 nb_rounds -3"))
	seeds = append(seeds, []byte(strings.Replace(DefaultConfigText, "GENERATOR2", "GENERATOR2 3", 1)))
	seeds = append(seeds, []byte(strings.Replace(DefaultConfigText, "GENERATOR2", "GENERATOR1 10 5 x", 1)))
	seeds = append(seeds, []byte(strings.Replace(DefaultConfigText, "GENERATOR2", "FIXED XXX", 1)))
	gametest.FuzzConfig(f, Def, seeds...)
}

// smallTrace is a short game of brawlers, with deaths and reborn units,
// for the trace fuzzer's corpus.
func smallTrace(t testing.TB) []byte {
	cfg := DefaultConfig()
	cfg.NbRounds = 4
	raw, _, err := playBrawl(cfg, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func FuzzParseTrace(f *testing.F) {
	raw := smallTrace(f)
	f.Add(raw)
	f.Add(coursetest.Gzip(f, raw))
	f.Add(raw[:len(raw)/3])
	f.Add(bytes.Replace(raw, []byte("nb_rounds      4"), []byte("nb_rounds      1"), 1))
	f.Add(bytes.Replace(raw, []byte("\nmovements\n"), []byte("\nmovements\n5 n\n"), 1))
	f.Add([]byte("Game\n\nSeed 1\n\nDominator 4.0\n"))
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
		// Verify must never panic; only small games, for speed.
		if tr.Config.NbRounds <= 6 && tr.Config.NumUnits() <= 400 && tr.Config.Rows <= 41 {
			_ = Verify(tr, nil)
			_ = Verify(tr, &CommandLog{Rounds: make([][NumPlayers][]Command, tr.Config.NbRounds)})
		}
	})
}

func FuzzParseCommandLog(f *testing.F) {
	var seeds [][]byte
	seeds = append(seeds, coursetest.ReadGz(f, filepath.Join(referenceTraces, "edge", "aborts", "crowd1_s1_Chaos-Demo-Dummy-Chaos.cmd.gz")))
	demo := coursetest.ReadGz(f, filepath.Join(referenceTraces, "commands", "dominator_s1_Demo-Demo-Demo-Demo.cmd.gz"))
	seeds = append(seeds, demo[:bytes.IndexByte(demo, '\n')+1])
	seeds = append(seeds, []byte("3 1 2 5 0 6 10\n0 0 0\n"))
	seeds = append(seeds, []byte("0 0 1 -1 4\n0 0 0\n0 0 0\n"))
	seeds = append(seeds, []byte("0 3 1 2147483647 -2147483648\n"))
	gametest.FuzzCommandLog(f, Def, seeds...)
}
