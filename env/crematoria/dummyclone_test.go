package crematoria

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"jgym/course/coursetest"
)

// heldOutDummyGames are three of the course's games of four Dummies, from
// the seeds (1000015 and up) that were kept out of the study of Dummy's
// rules: each a trace and its command file.
const heldOutDummyGames = "../../testdata/crematoria/dummy-games"

// dummyAgreementFloor is, per held-out game, the number of unit commands
// and of (round, seat) command lists DummyClone got equal to Dummy's when
// its rules were fixed (benchmarks/notebook/crematoria-dummy.md): a
// change to the clone may raise them, never lower them.
var dummyAgreementFloor = map[int]struct{ units, lists int }{
	1000015: {9596, 477},
	1000016: {9593, 473},
	1000017: {9598, 478},
}

// dummyGame reads the held-out game of seed: its trace and command log.
func dummyGame(t *testing.T, seed int) (*Trace, *CommandLog) {
	t.Helper()
	base := filepath.Join(heldOutDummyGames, fmt.Sprintf("crematoria_s%d_Dummy-Dummy-Dummy-Dummy", seed))
	tr, err := ParseTrace(bytes.NewReader(coursetest.ReadGz(t, base+".res.gz")))
	if err != nil {
		t.Fatal(err)
	}
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, base+".cmd.gz")))
	if err != nil {
		t.Fatal(err)
	}
	return tr, log
}

// commandOf is the direction of unit id's command in cmds, or -1 when the
// list does not command it.
func commandOf(cmds []Command, id int) Dir {
	for _, c := range cmds {
		if c.ID == id {
			return c.Dir
		}
	}
	return -1
}

// TestDummyCloneAgreesWithDummy replays each held-out game from its
// command file and, before every round, asks a DummyClone in every seat
// for its commands on the true state: the units given Dummy's command (or,
// like Dummy, none) and the lists equal in order must reach the floor.
func TestDummyCloneAgreesWithDummy(t *testing.T) {
	for seed, floor := range dummyAgreementFloor {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			tr, log := dummyGame(t, seed)
			g, err := New(tr.Config, seed)
			if err != nil {
				t.Fatal(err)
			}
			var clones [NumPlayers]Bot
			for p := range clones {
				clones[p] = NewDummyClone(p, seed)
			}
			var units, unitsAgree, lists, listsAgree int
			var o Orders
			for r := range log.Rounds {
				want := log.Round(r)
				for p, c := range clones {
					o.Reset(len(g.Units))
					c.Play(&g.State, &o)
					got := o.List()
					lists++
					if slices.Equal(got, want[p]) {
						listsAgree++
					}
					for _, ids := range [][]int{g.Furyans[p], g.Pioneers[p]} {
						for _, id := range ids {
							units++
							if commandOf(got, id) == commandOf(want[p], id) {
								unitsAgree++
							}
						}
					}
				}
				if err := g.Step(want); err != nil {
					t.Fatalf("round %d: %v", r, err)
				}
			}
			t.Logf("seed %d: units %d of %d, lists %d of %d", seed, unitsAgree, units, listsAgree, lists)
			if unitsAgree < floor.units || listsAgree < floor.lists {
				t.Errorf("agreement with Dummy fell: units %d of %d (floor %d), lists %d of %d (floor %d)",
					unitsAgree, units, floor.units, listsAgree, lists, floor.lists)
			}
		})
	}
}

// TestDummyCloneScores plays the seeds of the held-out games with four
// DummyClones: their mean score per player must be within 10% of the
// recorded games' (four Dummies).
func TestDummyCloneScores(t *testing.T) {
	var mu sync.Mutex
	var real, clone float64
	t.Run("games", func(t *testing.T) {
		for seed := range dummyAgreementFloor {
			t.Run(fmt.Sprint(seed), func(t *testing.T) {
				t.Parallel()
				tr, _ := dummyGame(t, seed)
				final := tr.States[len(tr.States)-1]
				var r, c float64
				for p := range final.NbCells {
					r += float64(final.NbCells[p] + tr.Config.GemValue*final.NbGems[p])
				}
				names := [NumPlayers]string{"DummyClone", "DummyClone", "DummyClone", "DummyClone"}
				m, err := Def.NewBotMatch(tr.Config, seed, names)
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				for _, s := range m.Scores() {
					c += float64(s)
				}
				mu.Lock()
				real, clone = real+r, clone+c
				mu.Unlock()
			})
		}
	})
	if t.Failed() {
		return
	}
	t.Logf("total score of the players: four Dummies %.0f, four DummyClones %.0f (ratio %.3f)", real, clone, clone/real)
	if clone < 0.9*real || clone > 1.1*real {
		t.Errorf("four DummyClones scored %.0f in all, four Dummies %.0f: not within 10%%", clone, real)
	}
}
