package pandemic

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"jgym/course/coursetest"
)

// TestDemoMatchesCommandLogs replays every reference game from its command
// log and checks that a Demo bot in each Demo seat gives exactly the
// recorded commands, also in games where Dummy or Chaos shape the state.
func TestDemoMatchesCommandLogs(t *testing.T) {
	for _, tc := range traceCases(t) {
		if tc.cmdPath == "" || !slices.Contains(tc.names[:], "Demo") {
			continue
		}
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
			var demos [NumPlayers]Bot
			for p, n := range tc.names {
				if n == "Demo" {
					demos[p] = NewDemo(p, tc.seed)
				}
			}
			o := *Def.NewOrders()
			for !g.Done() {
				cmds := log.Round(g.Round)
				for p, d := range demos {
					if d == nil {
						continue
					}
					o.Reset(len(g.Units))
					d.Play(&g.State, &o)
					if got, want := o.List(), cmds[p]; !slices.Equal(got, want) {
						t.Fatalf("round %d: Demo %d commands = %v, want %v", g.Round, p, got, want)
					}
				}
				if err := g.Step(cmds); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
