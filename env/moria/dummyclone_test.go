package moria

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/internal/race"
)

// heldOutDummyGames holds three of the course's games of four Dummies,
// from the seeds (1000072 and up) that were kept out of the study of
// Dummy's rules: each a trace and its command file.
const heldOutDummyGames = "../../testdata/moria/dummy-games"

// cloneAgreement replays the game of trace path from its command file and
// counts, over the rounds and the seats named Dummy, the command lists a
// DummyClone in that seat gives equal to the recorded ones; first
// describes the first difference ("" if none).
func cloneAgreement(t *testing.T, path, cmdPath string) (equal, total int, first string) {
	t.Helper()
	tr, err := ParseTrace(bytes.NewReader(coursetest.ReadGz(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, cmdPath)))
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(tr.Config, tr.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var clones [NumPlayers]Bot
	for p, name := range tr.Names {
		if name == "Dummy" {
			clones[p] = NewDummyClone(p, tr.Seed)
		}
	}
	var o Orders
	for r := range log.Rounds {
		cmds := log.Round(r)
		for p, c := range clones {
			if c == nil {
				continue
			}
			o.Reset(len(g.Units))
			c.Play(&g.State, &o)
			total++
			if got, want := o.List(), cmds[p]; slices.Equal(got, want) {
				equal++
			} else if first == "" {
				first = fmt.Sprintf("round %d seat %d: %v, want %v", r, p, got, want)
			}
		}
		// A game the course engine aborted ends inside its last logged
		// round; the commands are what is checked.
		if err := g.Step(cmds); err != nil && r+1 < len(log.Rounds) {
			t.Fatalf("round %d: %v", r, err)
		}
	}
	return equal, total, first
}

// TestDummyCloneAgreement replays held-out games of four Dummies and the
// twelve reference games with Dummy in seat 0 (against Demo, Null, Demo)
// from their command files and checks that a DummyClone in every Dummy
// seat gives Dummy's command list in every round. Under -race or -short it
// replays one reference game only.
func TestDummyCloneAgreement(t *testing.T) {
	type game struct {
		name, res, cmd string
		lists          int // (round, Dummy seat) command lists
	}
	var tests []game
	for _, seed := range []int{1000072, 1000073, 1000074} {
		base := filepath.Join(heldOutDummyGames, fmt.Sprintf("moria_s%d_Dummy-Dummy-Dummy-Dummy", seed))
		tests = append(tests, game{fmt.Sprint("held-out ", seed), base + ".res.gz", base + ".cmd.gz", 800})
	}
	for seed := 1; seed <= 12; seed++ {
		name := fmt.Sprintf("moria_s%d_Dummy-Demo-Null-Demo", seed)
		tests = append(tests, game{fmt.Sprint("reference ", seed),
			filepath.Join("../../testdata/moria/traces", name+".res.gz"),
			filepath.Join("../../testdata/moria/traces/commands", name+".cmd.gz"), 200})
	}
	if testing.Short() || race.Enabled {
		tests = tests[3:4] // reference 1, bounding the time
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			equal, total, first := cloneAgreement(t, tc.res, tc.cmd)
			if total != tc.lists {
				t.Fatalf("%d command lists of Dummy seats, want %d", total, tc.lists)
			}
			if equal != total {
				t.Errorf("%d of %d command lists equal to Dummy's; first difference %s", equal, total, first)
			}
		})
	}
}

// TestDummyCloneTraces plays the seeds of the held-out games with four
// DummyClones and checks that the traces equal the course engine's byte
// for byte (one game under -race or -short).
func TestDummyCloneTraces(t *testing.T) {
	seeds := []int{1000072, 1000073, 1000074}
	if testing.Short() || race.Enabled {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			want := coursetest.ReadGz(t, filepath.Join(heldOutDummyGames, fmt.Sprintf("moria_s%d_Dummy-Dummy-Dummy-Dummy.res.gz", seed)))
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
