package dominator

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

// heldOutDummyGames are three of the course's games of four Dummies kept in
// the repository: seeds the clone was not read from (it was read from seeds
// 1000001-1000070 of the 100 games, benchmarks/notebook/dominator-dummy.md).
const heldOutDummyGames = "../../testdata/dominator/dummy-games"

// TestDummyCloneReproducesDummyGames seats four DummyClones, named Dummy,
// on the seeds of held-out games of four course Dummies: every round their
// command lists equal the command file's, and the trace equals the course
// engine's byte for byte. Under the race detector it plays the first one.
func TestDummyCloneReproducesDummyGames(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(heldOutDummyGames, "*.res.gz"))
	if len(files) != 3 {
		t.Fatalf("%d held-out Dummy games in %s, want 3", len(files), heldOutDummyGames)
	}
	if raceEnabled {
		files = files[:1]
	}
	names := [NumPlayers]string{"Dummy", "Dummy", "Dummy", "Dummy"}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			var seed int
			if _, err := fmt.Sscanf(filepath.Base(f), "dominator_s%d_", &seed); err != nil {
				t.Fatal(err)
			}
			want := coursetest.ReadGz(t, f)
			log := loadLog(t, strings.TrimSuffix(f, ".res.gz")+".cmd.gz")
			var bots [NumPlayers]Bot
			for p := range bots {
				bots[p] = NewDummyClone(p, seed)
			}
			m, err := Def.NewMatch(DefaultConfig(), seed, names, bots)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			m.WriteTrace(&buf)
			for r := 0; !m.Done(); r++ {
				if err := m.PlayRound(); err != nil {
					t.Fatal(err)
				}
				for p := 0; p < NumPlayers; p++ {
					if got, want := m.Orders(p), log.Round(r)[p]; !slices.Equal(got, want) {
						t.Fatalf("round %d seat %d: %s", r, p, commandDiff(got, want))
					}
				}
			}
			if !bytes.Equal(want, buf.Bytes()) {
				t.Fatal(coursetest.FirstDiff(want, buf.Bytes()))
			}
		})
	}
}

// TestDummyCloneFollowsReferenceDummies replays every reference game that
// seats a course Dummy (other configurations, lost units, a Dummy that
// comes to own every farmer and knight) from its command file and checks
// that a DummyClone in each Dummy seat gives the file's command list every
// round. Under -short or the race detector it plays the edge games and the
// two main games where the Dummy runs out of enemies or of cells to paint.
func TestDummyCloneFollowsReferenceDummies(t *testing.T) {
	short := testing.Short() || raceEnabled
	n := 0
	for _, tc := range traceCases(t) {
		if tc.cmdPath == "" || tc.abort || !strings.Contains(tc.name, "Dummy") {
			continue
		}
		n++
		if short && !tc.edge && tc.seed != 7 && tc.seed != 9 {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			log := loadLog(t, tc.cmdPath)
			var bots [NumPlayers]Bot
			for p, name := range tc.names {
				if name == "Dummy" {
					bots[p] = NewDummyClone(p, tc.seed)
				}
			}
			g, err := New(tc.cfg, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			o := *Def.NewOrders()
			var view State
			for r := 0; !g.Done() && log.Complete(r); r++ {
				for p, b := range bots {
					if b == nil {
						continue
					}
					o.Reset(len(g.Units))
					g.State.View(p, &view)
					b.Play(&view, &o)
					if got, want := o.List(), log.Round(r)[p]; !slices.Equal(got, want) {
						t.Fatalf("round %d seat %d: %s", r, p, commandDiff(got, want))
					}
				}
				if err := g.Step(log.Round(r)); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if n != 26 {
		t.Errorf("%d reference games with a Dummy and a command file, want 26", n)
	}
}

// commandDiff describes the first difference between two command lists.
func commandDiff(got, want []Command) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("command %d is %v, want %v", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("%d commands, want %d", len(got), len(want))
}
