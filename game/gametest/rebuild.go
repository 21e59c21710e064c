package gametest

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"jgym/course/coursetest"
	"jgym/env"
	"jgym/game"
)

// testRebuild checks starts from a round of a trace without its command
// file (Def.Rebuild): at several rounds of every whole reference trace
// with a command file, the position rebuilt from the trace alone shows
// what the game replayed from the command file shows there (the trace
// bytes of the position: everything a trace shows); given the replayed
// engine's generator and when the trace showed the whole state (always at
// round 0), the rebuilt engine played on with the file's commands gives
// the replayed engine's rounds byte for byte (so that nothing it derives
// from its state is missing); StartFromTrace without
// commands gives that position with a fresh generator, and the game's
// bots play it on.
func testRebuild[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	if d.Rebuild == nil {
		t.Fatalf("%s has no Rebuild: starts from a trace without its command file are refused", d.Name)
	}
	n, hidden := 0, 0
	for _, tr := range short(o, Traces(t, d, o.Traces), 4) {
		if tr.Commands == "" || tr.Partial {
			continue
		}
		name := filepath.Base(tr.Path)
		ref := coursetest.ReadGz(t, tr.Path)
		log, err := d.ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, tr.Commands)))
		if err != nil {
			t.Fatal(err)
		}
		rounds := tr.Config.Rounds()
		if !log.Complete(rounds - 1) {
			continue // a game the course program ended early
		}
		n++
		ks := []int{0, 1, rounds / 3, rounds - 1}
		if !o.short {
			ks = append(ks, rounds/2, 2*rounds/3)
		}
		for _, k := range ks {
			e, err := d.NewMatch(tr.Config, tr.Seed, tr.Names, [game.NumSeats]game.Bot[S, D]{})
			if err != nil {
				t.Fatal(err)
			}
			for e.Round() < k {
				if err := e.Step(log.Round(e.Round())); err != nil {
					t.Fatalf("%s: round %d: %v", name, e.Round()+1, err)
				}
			}
			rs, err := d.Replay(ref, &tr.Config)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for range k + 1 {
				if !rs.Next() {
					t.Fatalf("%s: the trace's round %d: %v", name, k+1, rs.Err())
				}
			}
			g, err := d.Rebuild(e.Game, rs.State())
			if err != nil {
				t.Fatalf("%s: rebuild at round %d: %v", name, k, err)
			}
			// The position: the trace bytes of both engines there, then
			// of every round played on with the file's commands.
			var want, got bytes.Buffer
			tw := d.Trace(&want, &tr.Config, tr.Seed, tr.Names, e.Game)
			tg := d.Trace(&got, &tr.Config, tr.Seed, tr.Names, g)
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%s: the position rebuilt at round %d differs from the replayed one's (trace bytes)", name, k)
			}
			// Played on: only when the trace showed the whole state (some
			// traces do not show everything: Pandemic's how long a unit has
			// been infected, which the rebuilt state has as the verifier
			// infers it), as at round 0.
			if !sameState(d, d.State(g), d.State(e.Game)) {
				if k == 0 {
					t.Fatalf("%s: the state rebuilt at round 0 is not the game's", name)
				}
				hidden++
				if k == rounds/3 {
					testRebuiltStart(t, d, tr, ref, k)
				}
				continue
			}
			for r := k; r < rounds; r++ {
				err := d.Step(e.Game, log.Round(r))
				tw.Round(e.Game, err)
				errg := d.Step(g, log.Round(r))
				tg.Round(g, errg)
				if (err == nil) != (errg == nil) || !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("%s: rebuilt at round %d with the original's generator, round %d differs from the replayed game's", name, k, r+1)
				}
				if err != nil {
					break
				}
			}
			if k == rounds/3 {
				testRebuiltStart(t, d, tr, ref, k)
			}
		}
	}
	if n == 0 {
		t.Error("no whole reference trace has a command file")
	}
	if hidden > 0 {
		t.Logf("%d of the rebuilt states differ from the game's in what the trace does not show: not played on with the original's generator", hidden)
	}
}

// testRebuiltStart starts a game from round k of a trace without its
// command file: its position shows what the trace shows, it cannot be
// saved (but at round 0), and a table of the game's Demo and strong bot
// plays it on.
func testRebuiltStart[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], tr Trace[C], ref []byte, k int) {
	name := filepath.Base(tr.Path)
	seats := [game.NumSeats]string{"Demo", d.StrongBot, "Demo", d.StrongBot}
	var bots [game.NumSeats]game.Bot[S, D]
	for p, b := range seats {
		f, err := d.Bots.Lookup(b)
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = f(p, tr.Seed)
	}
	m, names, err := d.StartFromTrace(tr.Config, ref, nil, k, seats, bots)
	if err != nil {
		t.Fatalf("%s: start at round %d without commands: %v", name, k, err)
	}
	if m.Round() != k || names != tr.Names {
		t.Fatalf("%s: start at round %d without commands: round %d, names %v", name, k, m.Round(), names)
	}
	_, err = m.AppendLog(nil)
	if k > 0 && !errors.Is(err, env.ErrUnsaved) || k == 0 && err != nil {
		t.Fatalf("%s: save of a game rebuilt at round %d: %v", name, k, err)
	}
	var trace bytes.Buffer
	if err := m.WriteTrace(&trace); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if m.Done() {
			break
		}
		if err := m.PlayRound(); err != nil {
			t.Fatalf("%s: the game rebuilt at round %d, round %d: %v", name, k, m.Round()+1, err)
		}
	}
}

// sameState reports whether states a and b are equal: their copies by
// d.CopyState when the game has it (a copy holds the whole state but no
// engine scratch that differs between equal states, such as the cell log
// Crematoria's and Moria's engines keep for their observers), else the
// states themselves.
func sameState[C game.Config, G, S any, D game.Dir](d *game.Def[C, G, S, D], a, b *S) bool {
	if d.CopyState == nil {
		return reflect.DeepEqual(a, b)
	}
	var ca, cb S
	d.CopyState(&ca, a)
	d.CopyState(&cb, b)
	return reflect.DeepEqual(&ca, &cb)
}
