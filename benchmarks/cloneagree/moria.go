package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"jgym/env/moria"
)

func init() { games["moria"] = moriaAgreement }

// moriaAgreement measures DummyClone on Moria's games of four Dummies,
// files moria_s<seed>_Dummy-Dummy-Dummy-Dummy.{res,cmd}.gz. Besides the
// figures of every game it counts the seats whose command lists equal
// Dummy's in every round, and the seeds whose game of four clones is the
// recorded trace byte for byte.
func moriaAgreement(dir string, from, to int) error {
	var units, unitsAgree, lists, listsAgree, seats, seatsAgree, traces int
	var real, clone []float64
	for seed := from; seed <= to; seed++ {
		base := filepath.Join(dir, fmt.Sprintf("moria_s%d_Dummy-Dummy-Dummy-Dummy", seed))
		traceBytes, err := readGz(base + ".res.gz")
		if err != nil {
			return err
		}
		cmdBytes, err := readGz(base + ".cmd.gz")
		if err != nil {
			return err
		}
		tr, err := moria.ParseTrace(bytes.NewReader(traceBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		log, err := moria.ParseCommandLog(bytes.NewReader(cmdBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		// Agreement on the true states.
		g, err := moria.New(tr.Config, seed)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		var bots [moria.NumPlayers]moria.Bot
		for p := range bots {
			bots[p] = moria.NewDummyClone(p, seed)
		}
		var seatOK [moria.NumPlayers]bool
		for p := range seatOK {
			seatOK[p] = true
		}
		var o moria.Orders
		for r := range log.Rounds {
			want := log.Round(r)
			for p, b := range bots {
				o.Reset(len(g.Units))
				b.Play(&g.State, &o)
				got := o.List()
				lists++
				if slices.Equal(got, want[p]) {
					listsAgree++
				} else {
					seatOK[p] = false
				}
				for _, id := range g.Dwarves[p] {
					units++
					if moriaDirOf(got, id) == moriaDirOf(want[p], id) {
						unitsAgree++
					}
				}
				for _, id := range g.Wizards[p] {
					units++
					if moriaDirOf(got, id) == moriaDirOf(want[p], id) {
						unitsAgree++
					}
				}
			}
			if err := g.Step(want); err != nil && r+1 < len(log.Rounds) {
				return fmt.Errorf("seed %d round %d: %w", seed, r, err)
			}
		}
		for p := range seatOK {
			seats++
			if seatOK[p] {
				seatsAgree++
			}
		}
		for _, s := range g.Scores() {
			real = append(real, float64(s))
		}
		// Four clones play the seed.
		names := [moria.NumPlayers]string{"DummyClone", "DummyClone", "DummyClone", "DummyClone"}
		m, err := moria.Def.NewBotMatch(tr.Config, seed, names)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		m.Names = tr.Names // the trace names the players Dummy
		var out bytes.Buffer
		m.WriteTrace(&out)
		if err := m.Run(context.Background()); err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		if bytes.Equal(out.Bytes(), traceBytes) {
			traces++
		}
		for _, s := range m.Scores() {
			clone = append(clone, float64(s))
		}
	}
	n := to - from + 1
	fmt.Printf("moria DummyClone on %d games of four Dummies (seeds %d-%d)\n", n, from, to)
	fmt.Printf("unit commands agreeing: %d of %d (%.4f)\n", unitsAgree, units, float64(unitsAgree)/float64(units))
	fmt.Printf("(round, seat) command lists equal in order: %d of %d (%.4f)\n", listsAgree, lists, float64(listsAgree)/float64(lists))
	fmt.Printf("seats equal to Dummy in every round: %d of %d\n", seatsAgree, seats)
	fmt.Printf("games of four clones equal to the recorded trace byte for byte: %d of %d\n", traces, n)
	fmt.Printf("score per player, recorded games: mean %.1f median %.1f\n", mean(real), median(real))
	fmt.Printf("score per player, four clones:    mean %.1f median %.1f (mean ratio %.4f)\n", mean(clone), median(clone), mean(clone)/mean(real))
	return nil
}

// moriaDirOf is the direction of unit id's command in cmds, or -1 when the
// list does not command it.
func moriaDirOf(cmds []moria.Command, id int) moria.Dir {
	for _, c := range cmds {
		if c.ID == id {
			return c.Dir
		}
	}
	return -1
}
