// Package datasettest holds the test helpers every game's dataset tests
// share: a check that a game's expert labels (dataset.Expert) are the
// orders the expert bot gave in the match that wrote the trace.
//
// Usage, in a game's tests:
//
//	m, err := NewMatch(cfg, 7, [NumPlayers]string{"Khan", "Demo", "Khan", "Demo"})
//	datasettest.CheckExpertLabels(t, Dataset(), m, cfg.NbRounds, "Khan", None,
//		func(c Command) (int, Dir) { return c.ID, c.Dir })
package datasettest

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"jgym/dataset"
	"jgym/env"
)

// Match is the part of a game's Match the checks play, with commands of
// type C: it writes its trace as it plays and keeps each seat's accepted
// orders of the last round.
type Match[C any] interface {
	WriteTrace(w io.Writer)
	PlayRound() error
	Done() bool
	Orders(seat int) []C
}

// Dir is the type set of the games' directions, the values of a label.
type Dir interface{ ~int8 | ~int }

// CheckExpertLabels plays m, a new match of rounds rounds in which the bot
// expert holds some seats and other bots the rest, and replays its trace
// with src, labelling with expert (dataset.Expert). It checks that
// UseExpert refuses a prefixed name; that a second Label of a seat and
// round repeats the first; that in the expert's seats the labels are
// exactly the orders it gave in the match (label gives the slot and
// direction of a command; slots it gave no command are none), so the bot
// saw the state it played; that in the other seats some labels differ
// from the orders their bots gave; that some labels are not none; and
// that the replay has every round.
func CheckExpertLabels[C any, D Dir](t testing.TB, src dataset.Source, m Match[C], rounds int, expert string, none D, label func(C) (slot int, d D)) {
	t.Helper()
	trace, orders := play(t, m)
	if len(orders) != rounds {
		t.Fatalf("the match played %d rounds, want %d", len(orders), rounds)
	}
	rep, err := src.Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	ex, ok := rep.(dataset.Expert)
	if !ok {
		t.Fatalf("%T is not a dataset.Expert", rep)
	}
	if err := ex.UseExpert("cpp:AIx.cc"); err == nil {
		t.Fatal("UseExpert accepted a prefixed name")
	}
	if err := ex.UseExpert(expert); err != nil {
		t.Fatal(err)
	}
	names := rep.Names()
	if !slices.Contains(names, expert) {
		t.Fatalf("Names() = %q: %s plays no seat", names, expert)
	}
	action := make([]byte, rep.Spec().Action.NumElems())
	again := make([]byte, len(action))
	want := make([]byte, len(action))
	differ, labelled, replayed := 0, 0, 0
	for rep.Next() {
		r := rep.Round()
		if r != replayed || r >= len(orders) {
			t.Fatalf("Round() = %d, want %d of %d", r, replayed, len(orders))
		}
		replayed++
		for p := range env.NumSeats {
			rep.Label(p, action)
			rep.Label(p, again)
			if !bytes.Equal(action, again) {
				t.Fatalf("round %d seat %d: a second Label differs", r, p)
			}
			for k := range want {
				want[k] = byte(none)
			}
			for _, c := range orders[r][p] {
				if id, d := label(c); id < len(want) {
					want[id] = byte(d)
				}
			}
			for id, b := range action {
				if D(b) != none {
					labelled++
				}
				switch {
				case b == want[id]:
				case names[p] == expert:
					t.Fatalf("round %d seat %d slot %d: expert label %v, %s ordered %v", r, p, id, D(b), expert, D(want[id]))
				default:
					differ++
				}
			}
		}
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	if replayed != rounds || labelled == 0 || differ == 0 {
		t.Errorf("%d rounds, labelled %d slots, %d differ from the other bots' orders; want %d, > 0, > 0", replayed, labelled, differ, rounds)
	}
}

// play plays m to its end and returns the trace it wrote and each seat's
// accepted orders of every round.
func play[C any](t testing.TB, m Match[C]) (trace []byte, orders [][env.NumSeats][]C) {
	t.Helper()
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		var round [env.NumSeats][]C
		for p := range round {
			round[p] = append([]C(nil), m.Orders(p)...)
		}
		orders = append(orders, round)
	}
	return buf.Bytes(), orders
}
