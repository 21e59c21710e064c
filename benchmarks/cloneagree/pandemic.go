package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"jgym/env/pandemic"
)

func init() { games["pandemic"] = pandemicAgreement }

// pandemicAgreement measures DummyClone on Pandemic's games of four
// Dummies, files pandemic_s<seed>_Dummy-Dummy-Dummy-Dummy.{res,cmd}.gz.
func pandemicAgreement(dir string, from, to int) error {
	var units, unitsAgree, lists, listsAgree int
	var real, clone []float64
	for seed := from; seed <= to; seed++ {
		base := filepath.Join(dir, fmt.Sprintf("pandemic_s%d_Dummy-Dummy-Dummy-Dummy", seed))
		traceBytes, err := readGz(base + ".res.gz")
		if err != nil {
			return err
		}
		cmdBytes, err := readGz(base + ".cmd.gz")
		if err != nil {
			return err
		}
		tr, err := pandemic.ParseTrace(bytes.NewReader(traceBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		log, err := pandemic.ParseCommandLog(bytes.NewReader(cmdBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		// Agreement on the true states.
		g, err := pandemic.New(tr.Config, seed)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		var bots [pandemic.NumPlayers]pandemic.Bot
		for p := range bots {
			bots[p] = pandemic.NewDummyClone(p, seed)
		}
		var o pandemic.Orders
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
				for _, id := range g.PlayerUnits[p] {
					units++
					if dirOf(got, id) == dirOf(want[p], id) {
						unitsAgree++
					}
				}
			}
			if err := g.Step(want); err != nil {
				return fmt.Errorf("seed %d round %d: %w", seed, r, err)
			}
		}
		final := tr.States[len(tr.States)-1].Scores
		for _, s := range final {
			real = append(real, float64(s))
		}
		// Four clones play the seed.
		names := [pandemic.NumPlayers]string{"DummyClone", "DummyClone", "DummyClone", "DummyClone"}
		m, err := pandemic.Def.NewBotMatch(tr.Config, seed, names)
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
	fmt.Printf("pandemic DummyClone on %d games of four Dummies (seeds %d-%d)\n", n, from, to)
	fmt.Printf("unit commands agreeing: %d of %d (%.4f)\n", unitsAgree, units, float64(unitsAgree)/float64(units))
	fmt.Printf("(round, seat) command lists equal in order: %d of %d (%.4f)\n", listsAgree, lists, float64(listsAgree)/float64(lists))
	fmt.Printf("score per player, recorded games: mean %.1f median %.1f\n", mean(real), median(real))
	fmt.Printf("score per player, four clones:    mean %.1f median %.1f (mean ratio %.4f)\n", mean(clone), median(clone), mean(clone)/mean(real))
	return nil
}

// dirOf is the direction of unit id's command in cmds, or -1 when the list
// does not command it.
func dirOf(cmds []pandemic.Command, id int) pandemic.Dir {
	for _, c := range cmds {
		if c.ID == id {
			return c.Dir
		}
	}
	return -1
}

func readGz(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(z)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func median(v []float64) float64 {
	w := slices.Clone(v)
	sort.Float64s(w)
	if len(w)%2 == 1 {
		return w[len(w)/2]
	}
	return (w[len(w)/2-1] + w[len(w)/2]) / 2
}
