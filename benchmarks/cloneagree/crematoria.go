package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"jgym/env/crematoria"
)

func init() { games["crematoria"] = crematoriaAgreement }

// crematoriaAgreement measures DummyClone on Crematoria's games of four
// Dummies, files crematoria_s<seed>_Dummy-Dummy-Dummy-Dummy.{res,cmd}.gz.
// A unit agrees when the clone gives it the recorded direction, or, like
// Dummy, no command.
func crematoriaAgreement(dir string, from, to int) error {
	var units, unitsAgree, lists, listsAgree int
	var kind, kindAgree [2]int // furyans, pioneers
	var real, clone []float64
	for seed := from; seed <= to; seed++ {
		base := filepath.Join(dir, fmt.Sprintf("crematoria_s%d_Dummy-Dummy-Dummy-Dummy", seed))
		traceBytes, err := readGz(base + ".res.gz")
		if err != nil {
			return err
		}
		cmdBytes, err := readGz(base + ".cmd.gz")
		if err != nil {
			return err
		}
		tr, err := crematoria.ParseTrace(bytes.NewReader(traceBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		log, err := crematoria.ParseCommandLog(bytes.NewReader(cmdBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		// Agreement on the true states.
		g, err := crematoria.New(tr.Config, seed)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		var bots [crematoria.NumPlayers]crematoria.Bot
		for p := range bots {
			bots[p] = crematoria.NewDummyClone(p, seed)
		}
		var o crematoria.Orders
		for r := range log.Rounds {
			want := log.Round(r)
			for p, b := range bots {
				o.Reset(len(g.Units))
				b.Play(&g.State, &o)
				got := o.List()
				lists++
				if slices.Equal(got, want[p]) {
					listsAgree++
				}
				for k, ids := range [][]int{g.Furyans[p], g.Pioneers[p]} {
					for _, id := range ids {
						units++
						kind[k]++
						if dirOf(got, id) == dirOf(want[p], id) {
							unitsAgree++
							kindAgree[k]++
						}
					}
				}
			}
			if err := g.Step(want); err != nil {
				return fmt.Errorf("seed %d round %d: %w", seed, r, err)
			}
		}
		final := tr.States[len(tr.States)-1]
		for p := range final.NbCells {
			real = append(real, float64(final.NbCells[p]+tr.Config.GemValue*final.NbGems[p]))
		}
		// Four clones play the seed.
		names := [crematoria.NumPlayers]string{"DummyClone", "DummyClone", "DummyClone", "DummyClone"}
		m, err := crematoria.Def.NewBotMatch(tr.Config, seed, names)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		if err := m.Run(context.Background()); err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		for _, s := range m.Scores() {
			clone = append(clone, float64(s))
		}
	}
	n := to - from + 1
	fmt.Printf("crematoria DummyClone on %d games of four Dummies (seeds %d-%d)\n", n, from, to)
	fmt.Printf("unit commands agreeing: %d of %d (%.4f)\n", unitsAgree, units, float64(unitsAgree)/float64(units))
	fmt.Printf("  furyans %d of %d (%.4f), pioneers %d of %d (%.4f)\n", kindAgree[0], kind[0], float64(kindAgree[0])/float64(kind[0]), kindAgree[1], kind[1], float64(kindAgree[1])/float64(kind[1]))
	fmt.Printf("(round, seat) command lists equal in order: %d of %d (%.4f)\n", listsAgree, lists, float64(listsAgree)/float64(lists))
	fmt.Printf("score per player, recorded games: mean %.1f median %.1f\n", mean(real), median(real))
	fmt.Printf("score per player, four clones:    mean %.1f median %.1f (mean ratio %.4f)\n", mean(clone), median(clone), mean(clone)/mean(real))
	return nil
}
