package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"jgym/game"
)

// clones is one game's measure: the replay loop, the counts and the
// figures are written once here over the game's definition; the game
// gives only its unit kinds.
type clones[C game.Config, G any, S any, D game.Dir] struct {
	def *game.Def[C, G, S, D]
	// kinds names the unit kinds that units lists, in its order.
	kinds []string
	// units is the unit-kind hook: the unit ids of seat p in the real
	// state s, one list per kind. A unit that either list commands and the
	// seat does not own counts as "other".
	units func(s *S, p int) [][]int
}

// measure runs the measure on the games of four Dummies in dir with seeds
// from..to, files GAME_s<seed>_Dummy-Dummy-Dummy-Dummy.{res,cmd}.gz, and
// prints its figures. Every seat's DummyClone is given the true state
// before each round (the game replayed from the command file; the clone's
// memory is fed the true history in the same way) and plays on it as a
// Match asks it (on its view, for a game with one); its list is compared
// with the recorded one.
func (c *clones[C, G, S, D]) measure(dir string, from, to int) error {
	d := c.def
	name := strings.ToLower(d.Name)
	agree := map[string][2]int{} // per unit kind: agreeing, total
	var lists, listsAgree, seats, seatsAgree, traces int
	var real, clone []float64
	for seed := from; seed <= to; seed++ {
		base := filepath.Join(dir, fmt.Sprintf("%s_s%d_Dummy-Dummy-Dummy-Dummy", name, seed))
		traceBytes, err := readGz(base + ".res.gz")
		if err != nil {
			return err
		}
		cmdBytes, err := readGz(base + ".cmd.gz")
		if err != nil {
			return err
		}
		// The verifier's rounds give the trace's configuration (with its
		// map source) and names.
		rs, err := d.Replay(traceBytes, nil)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		cfg, names := *rs.Config(), rs.Names()
		log, err := d.ParseCommandLog(bytes.NewReader(cmdBytes))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		// Agreement on the true states.
		g, err := d.New(cfg, seed)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		bots, err := dummyClones(d, seed)
		if err != nil {
			return err
		}
		seatOK := [game.NumSeats]bool{true, true, true, true}
		o := d.NewOrders()
		var scratch S
		for r := range log.Rounds {
			if !log.Complete(r) {
				return fmt.Errorf("seed %d round %d: the command file is incomplete", seed, r)
			}
			want := log.Round(r)
			s := d.State(g)
			for p, b := range bots {
				o.Reset(d.NumUnits(s))
				d.PlayBot(b, s, p, &scratch, o)
				got := o.List()
				lists++
				if slices.Equal(got, want[p]) {
					listsAgree++
				} else {
					seatOK[p] = false
				}
				c.compareUnits(agree, s, p, got, want[p])
			}
			// An error in the file's last round is the abort that ended
			// the recorded game.
			if err := d.Step(g, want); err != nil && r+1 < len(log.Rounds) {
				return fmt.Errorf("seed %d round %d: %w", seed, r, err)
			}
		}
		for _, ok := range seatOK {
			seats++
			if ok {
				seatsAgree++
			}
		}
		for _, s := range d.Scores(g) {
			real = append(real, float64(s))
		}
		// Four clones play the seed, named as the trace names the Dummies.
		if bots, err = dummyClones(d, seed); err != nil {
			return err
		}
		m, err := d.NewMatch(cfg, seed, names, bots)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		var out bytes.Buffer
		if err := m.WriteTrace(&out); err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
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
	fmt.Printf("%s DummyClone on %d games of four Dummies (seeds %d-%d)\n", name, n, from, to)
	var a, t int
	for _, c := range agree {
		a, t = a+c[0], t+c[1]
	}
	fmt.Printf("unit commands agreeing (same direction, or neither commands the unit): %d of %d (%.4f)\n", a, t, frac(a, t))
	if kinds := append(slices.Clone(c.kinds), "other"); len(agree) > 1 {
		for _, k := range kinds {
			if c, ok := agree[k]; ok {
				fmt.Printf("  %-7s %d of %d (%.4f)\n", k, c[0], c[1], frac(c[0], c[1]))
			}
		}
	}
	fmt.Printf("(round, seat) command lists equal in order: %d of %d (%.4f)\n", listsAgree, lists, frac(listsAgree, lists))
	fmt.Printf("seats equal to Dummy in every round: %d of %d\n", seatsAgree, seats)
	fmt.Printf("games of four clones equal to the recorded trace byte for byte: %d of %d\n", traces, n)
	fmt.Printf("score per player, recorded games: mean %.1f median %.1f\n", mean(real), median(real))
	fmt.Printf("score per player, four clones:    mean %.1f median %.1f (mean ratio %.4f)\n", mean(clone), median(clone), mean(clone)/mean(real))
	return nil
}

// dummyClones are the four seats' DummyClones of a game of seed.
func dummyClones[C game.Config, G, S any, D game.Dir](d *game.Def[C, G, S, D], seed int) ([game.NumSeats]game.Bot[S, D], error) {
	var bots [game.NumSeats]game.Bot[S, D]
	f, err := d.Bots.Lookup("DummyClone")
	if err != nil {
		return bots, err
	}
	for p := range bots {
		bots[p] = f(p, seed)
	}
	return bots, nil
}

// compareUnits counts, per unit kind, the agreement of seat p's list got
// with the Dummy's want on the real state s: a unit counts once if the
// seat owns it or either list commands it, and agrees when both lists
// command it (the first command per unit counts) in the same direction or
// neither does.
func (c *clones[C, G, S, D]) compareUnits(agree map[string][2]int, s *S, p int, got, want []game.Command[D]) {
	kind := map[int]string{}
	for k, ids := range c.units(s, p) {
		for _, id := range ids {
			kind[id] = c.kinds[k]
		}
	}
	for _, l := range [][]game.Command[D]{got, want} {
		for _, cmd := range l {
			if _, ok := kind[cmd.ID]; !ok {
				kind[cmd.ID] = "other"
			}
		}
	}
	for id, k := range kind {
		gd, gok := dirOf(got, id)
		wd, wok := dirOf(want, id)
		n := agree[k]
		if gok == wok && gd == wd {
			n[0]++
		}
		n[1]++
		agree[k] = n
	}
}
