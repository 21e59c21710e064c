package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"jgym/env/dominator"
)

func init() { games["dominator"] = dominatorAgreement }

// dominatorAgreement measures DummyClone on Dominator's games of four
// Dummies, files dominator_s<seed>_Dummy-Dummy-Dummy-Dummy.{res,cmd}.gz (the
// default configuration). Every player plays on its rotated view (SPEC
// §3.4), and the command file holds its commands in that view: each clone
// is given its seat's view and compared there. A unit counts once per
// (round, seat) if the seat owns it or either list commands its id; it
// agrees when both lists command it in the same direction or neither
// does. The figures are given per unit type too.
func dominatorAgreement(dir string, from, to int) error {
	units := map[string][2]int{} // per unit type: agreeing, total
	var lists, listsAgree, same int
	var real, clone []float64
	for seed := from; seed <= to; seed++ {
		base := filepath.Join(dir, fmt.Sprintf("dominator_s%d_Dummy-Dummy-Dummy-Dummy", seed))
		traceBytes, err := readGz(base + ".res.gz")
		if err != nil {
			return err
		}
		cmdBytes, err := readGz(base + ".cmd.gz")
		if err != nil {
			return err
		}
		tr, err := dominator.ParseTrace(bytes.NewReader(traceBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		log, err := dominator.ParseCommandLog(bytes.NewReader(cmdBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		// Agreement on the true states.
		g, err := dominator.New(dominator.DefaultConfig(), seed)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		var bots [dominator.NumPlayers]dominator.Bot
		for p := range bots {
			bots[p] = dominator.NewDummyClone(p, seed)
		}
		var view dominator.State
		o := dominator.Def.NewOrders()
		for r := 0; !g.Done(); r++ {
			if !log.Complete(r) {
				return fmt.Errorf("seed %d round %d: the command file is incomplete", seed, r)
			}
			want := log.Round(r)
			for p, b := range bots {
				g.State.View(p, &view)
				o.Reset(len(g.Units))
				b.Play(&view, o)
				got := o.List()
				lists++
				if slices.Equal(got, want[p]) {
					listsAgree++
				}
				compareUnits(units, &view, got, want[p])
			}
			if err := g.Step(want); err != nil {
				return fmt.Errorf("seed %d round %d: %w", seed, r, err)
			}
		}
		for _, s := range tr.States[len(tr.States)-1].TotalScore {
			real = append(real, float64(s))
		}
		// Four clones play the seed, named as the trace names the Dummies.
		m, err := dominator.Def.NewMatch(dominator.DefaultConfig(), seed, tr.Names, bots4(seed))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		var buf bytes.Buffer
		if err := m.WriteTrace(&buf); err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		if err := m.Run(context.Background()); err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		for _, s := range m.Scores() {
			clone = append(clone, float64(s))
		}
		if bytes.Equal(buf.Bytes(), traceBytes) {
			same++
		}
	}
	n := to - from + 1
	fmt.Printf("dominator DummyClone on %d games of four Dummies (seeds %d-%d)\n", n, from, to)
	fmt.Println("unit commands agreeing (same direction, or neither commands the unit):")
	var kinds []string
	for k := range units {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var agree, total int
	for _, k := range kinds {
		c := units[k]
		agree += c[0]
		total += c[1]
		fmt.Printf("  %-7s %d of %d (%.4f)\n", k, c[0], c[1], frac(c[0], c[1]))
	}
	fmt.Printf("  %-7s %d of %d (%.4f)\n", "all", agree, total, frac(agree, total))
	fmt.Printf("(round, seat) command lists equal in order: %d of %d (%.4f)\n", listsAgree, lists, frac(listsAgree, lists))
	fmt.Printf("score per player, recorded games: mean %.1f median %.1f\n", mean(real), median(real))
	fmt.Printf("score per player, four clones:    mean %.1f median %.1f (mean ratio %.4f)\n", mean(clone), median(clone), mean(clone)/mean(real))
	fmt.Printf("four clones' traces equal to the recorded ones byte for byte: %d of %d\n", same, n)
	return nil
}

// bots4 are four DummyClones for a game of seed.
func bots4(seed int) [dominator.NumPlayers]dominator.Bot {
	var bots [dominator.NumPlayers]dominator.Bot
	for p := range bots {
		bots[p] = dominator.NewDummyClone(p, seed)
	}
	return bots
}

// compareUnits counts, per unit type, the agreement of one seat's list got
// with the Dummy's want, on the seat's view v (the seat is player 0).
func compareUnits(units map[string][2]int, v *dominator.State, got, want []dominator.Command) {
	dirs := func(l []dominator.Command) map[int]dominator.Dir {
		m := make(map[int]dominator.Dir, len(l))
		for _, c := range l {
			if _, ok := m[c.ID]; !ok { // the first command per unit counts
				m[c.ID] = c.Dir
			}
		}
		return m
	}
	g, w := dirs(got), dirs(want)
	ids := map[int]bool{}
	for _, l := range [][]int{v.Witches[0], v.Farmers[0], v.Knights[0]} {
		for _, id := range l {
			ids[id] = true
		}
	}
	for id := range g {
		ids[id] = true
	}
	for id := range w {
		ids[id] = true
	}
	for id := range ids {
		kind := "other"
		if id >= 0 && id < len(v.Units) {
			kind = v.Units[id].Type.String()
		}
		gd, gok := g[id]
		wd, wok := w[id]
		c := units[kind]
		if gok == wok && gd == wd {
			c[0]++
		}
		c[1]++
		units[kind] = c
	}
}

func frac(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
