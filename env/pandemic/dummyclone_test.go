package pandemic

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

// heldOutDummyGames are three of the course's games of four Dummies, from
// the seeds (1000071 and up) that were kept out of the study of Dummy's
// rules: each a trace and its command file.
const heldOutDummyGames = "../../testdata/pandemic/dummy-games"

// TestDummyCloneMatchesDummy replays every reference game with a Dummy
// seat from its command log and checks that a DummyClone in each Dummy
// seat issues exactly the recorded commands, in every configuration of
// the edge traces too.
func TestDummyCloneMatchesDummy(t *testing.T) {
	n := 0
	for _, tc := range traceCases(t) {
		if tc.cmdPath == "" || !slices.Contains(tc.names[:], "Dummy") {
			continue
		}
		n++
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			t.Parallel()
			log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, tc.cmdPath)))
			if err != nil {
				t.Fatal(err)
			}
			g, err := New(tc.cfg, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			var clones [NumPlayers]Bot
			for p, name := range tc.names {
				if name == "Dummy" {
					clones[p] = NewDummyClone(p, tc.seed)
				}
			}
			var o Orders
			for r := 0; r < len(log.Rounds); r++ {
				cmds := log.Round(r)
				for p, c := range clones {
					if c == nil {
						continue
					}
					o.Reset(len(g.Units))
					c.Play(&g.State, &o)
					if got, want := o.List(), cmds[p]; !slices.Equal(got, want) {
						t.Fatalf("round %d: DummyClone %d commands = %v, want %v", r, p, got, want)
					}
				}
				// A game the course engine aborted ends inside its last
				// logged round; the commands are what is checked.
				if err := g.Step(cmds); err != nil && r+1 < len(log.Rounds) {
					t.Fatalf("round %d: %v", r, err)
				}
			}
		})
	}
	if n == 0 {
		t.Fatal("no reference trace with a Dummy seat")
	}
}

// TestDummyCloneTraces plays the seeds of held-out games of four Dummies
// with four DummyClones and checks that the traces equal the course
// engine's byte for byte.
func TestDummyCloneTraces(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(heldOutDummyGames, "*_Dummy-Dummy-Dummy-Dummy.res.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no held-out Dummy games in %s (%v)", heldOutDummyGames, err)
	}
	for _, f := range files {
		m := traceName.FindStringSubmatch(filepath.Base(f))
		if m == nil {
			t.Fatalf("%s: not a trace name", f)
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".res.gz"), func(t *testing.T) {
			t.Parallel()
			want := coursetest.ReadGz(t, f)
			tr, err := ParseTrace(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			clone := [NumPlayers]string{"DummyClone", "DummyClone", "DummyClone", "DummyClone"}
			match, err := Def.NewBotMatch(tr.Config, tr.Seed, clone)
			if err != nil {
				t.Fatal(err)
			}
			match.Names = tr.Names // the trace names the players Dummy
			var got bytes.Buffer
			match.WriteTrace(&got)
			if err := match.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("trace differs from the course engine's: %s", coursetest.FirstDiff(want, got.Bytes()))
			}
		})
	}
}
