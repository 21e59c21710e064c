package gametest

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/env"
	"jgym/game"
)

// testCopies checks Match.Copy, the in-process copy of a game: copied at
// several rounds of every reference trace with a command file, the copy
// and the original played on with the file's commands, at once by two
// goroutines (so that the race detector sees any memory they share),
// both give the reference trace; a match of the game's registered bots
// copied at several rounds plays on, bots and their generators included,
// as the original does; a copy seats other bots when asked to; a bot that
// cannot be copied gives ErrUnsaved.
func testCopies[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	t.Run("Traces", func(t *testing.T) { testCopyTraces(t, d, o) })
	t.Run("Bots", func(t *testing.T) { testCopyBots(t, d, o) })
}

// playLog plays m on with the rounds of log until its end or an error (an
// abort: the trace ends there, as the reference's).
func playLog[C game.Config, G, S any, D game.Dir](m *game.Match[C, G, S, D], log *game.CommandLog[D]) {
	for !m.Done() && log.Complete(m.Round()) {
		if m.Step(log.Round(m.Round())) != nil {
			return
		}
	}
}

func testCopyTraces[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	n := 0
	for _, tr := range short(o, Traces(t, d, o.Traces), 4) {
		if tr.Commands == "" {
			continue
		}
		n++
		name := filepath.Base(tr.Path)
		ref := coursetest.ReadGz(t, tr.Path)
		log, err := d.ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, tr.Commands)))
		if err != nil {
			t.Fatal(err)
		}
		played := 0
		if m, err := d.NewMatch(tr.Config, tr.Seed, tr.Names, [game.NumSeats]game.Bot[S, D]{}); err == nil {
			playLog(m, log)
			played = m.Round()
		}
		for _, k := range []int{0, 1, played / 3, played - 1} {
			if k < 0 || k > 0 && k >= played {
				continue // an abort in the first rounds
			}
			m, err := d.NewMatch(tr.Config, tr.Seed, tr.Names, [game.NumSeats]game.Bot[S, D]{})
			if err != nil {
				t.Fatal(err)
			}
			m.Record()
			var want bytes.Buffer
			if err := m.WriteTrace(&want); err != nil {
				t.Fatal(err)
			}
			for m.Round() < k {
				if err := m.Step(log.Round(m.Round())); err != nil {
					t.Fatalf("%s: round %d: %v", name, m.Round()+1, err)
				}
			}
			c, err := m.Copy(nil)
			if err != nil {
				t.Fatalf("%s: copy at round %d: %v", name, k, err)
			}
			if c.Round() != k || c.Scores() != m.Scores() {
				t.Fatalf("%s: the copy at round %d is at round %d, scores %v (the original's %v)", name, k, c.Round(), c.Scores(), m.Scores())
			}
			var got bytes.Buffer
			if err := c.WriteTraceFrom(&got, tr.Names); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { playLog(c, log); close(done) }()
			playLog(m, log)
			<-done
			if !bytes.Equal(want.Bytes(), ref) {
				t.Fatalf("%s: the original, copied at round %d, does not give the reference trace", name, k)
			}
			if !bytes.Equal(got.Bytes(), ref) {
				t.Fatalf("%s: the copy at round %d played on does not give the reference trace (%d bytes, want %d)", name, k, got.Len(), len(ref))
			}
		}
	}
	if n == 0 {
		t.Error("no reference trace has a command file")
	}
}

// copySeatings are tables of the game's registered bots: each bot seated
// at least once, with the Demo and the strong bot (but the search bot,
// whose whole games cost seconds: the Search test copies it).
func copySeatings[C game.Config, G, S any, D game.Dir](d *game.Def[C, G, S, D]) [][game.NumSeats]string {
	var out [][game.NumSeats]string
	names := slices.DeleteFunc(d.Bots.Names(), func(n string) bool { return n == game.SearchBotName })
	for i := 0; i < len(names); i += 2 {
		s := [game.NumSeats]string{names[i], "Demo", d.StrongBot, names[(i+1)%len(names)]}
		out = append(out, s)
	}
	return out
}

func testCopyBots[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	cfg := d.DefaultConfig()
	for i, seats := range copySeatings(d) {
		for _, k := range []int{0, 1, cfg.Rounds() / 2, cfg.Rounds() - 1} {
			seed := 70 + i
			m, err := d.NewBotMatch(cfg, seed, seats)
			if err != nil {
				t.Fatal(err)
			}
			m.Record()
			var want bytes.Buffer
			if err := m.WriteTrace(&want); err != nil {
				t.Fatal(err)
			}
			for m.Round() < k {
				if err := m.PlayRound(); err != nil {
					t.Fatalf("%v seed %d: %v", seats, seed, err)
				}
			}
			c, err := m.Copy(nil)
			if err != nil {
				t.Fatalf("%v: copy at round %d: %v", seats, k, err)
			}
			var got bytes.Buffer
			if err := c.WriteTraceFrom(&got, seats); err != nil {
				t.Fatal(err)
			}
			// An engine-only copy with the Null bots: a search's.
			var null [game.NumSeats]game.Bot[S, D]
			for p := range null {
				null[p] = game.Null[S, D]{}
			}
			e, err := m.Copy(&null)
			if err != nil {
				t.Fatalf("%v: copy with other bots at round %d: %v", seats, k, err)
			}
			// 40 rounds on (to the end from the last round), 12 under
			// -short and the race detector (the strong bots are slow
			// there).
			end := min(cfg.Rounds(), k+40)
			if o.short {
				end = min(end, k+12)
			}
			run := func(m *game.Match[C, G, S, D]) error {
				for m.Round() < end {
					if err := m.PlayRound(); err != nil {
						return err
					}
				}
				return nil
			}
			errs := make(chan error, 2)
			go func() { errs <- run(c) }()
			go func() { errs <- run(e) }()
			if err := run(m); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%v seed %d: the copy at round %d played on gives another trace than the original's", seats, seed, k)
			}
			if e.Round() != m.Round() {
				t.Fatalf("%v: the copy with Null bots ended at round %d, the original at %d", seats, e.Round(), m.Round())
			}
			for r := k; r < len(e.Log().Rounds); r++ {
				for p, l := range e.Log().Rounds[r] {
					if len(l) != 0 {
						t.Fatalf("%v: the copy with Null bots gave orders for player %d", seats, p)
					}
				}
			}
		}
		if o.short {
			break
		}
	}
	m, err := d.NewMatch(cfg, 1, [game.NumSeats]string{"a", "b", "c", "d"},
		[game.NumSeats]game.Bot[S, D]{nil, unsavedBot[S, D]{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Copy(nil); !errors.Is(err, env.ErrUnsaved) {
		t.Errorf("copy with a bot that cannot be copied: %v, want ErrUnsaved", err)
	}
}
