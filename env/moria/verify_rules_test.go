package moria

import (
	"errors"
	"testing"
)

// TestVerifyRejects changes one value of a reference trace in ways chosen to
// exercise each rule check, and checks where the divergence is reported.
func TestVerifyRejects(t *testing.T) {
	orig, _ := loadRefTrace(t, refTraceNamed(t, "moria_s1_Dummy-Demo-Null-Demo.res.gz"))
	n := orig.Config.FirstOrc()
	// The first round where a dwarf or wizard dies, and where its clan's
	// first printed move is.
	reborn, rebornUnit := -1, -1
	for r := 1; r < len(orig.States) && reborn < 0; r++ {
		for id := 0; id < n; id++ {
			if orig.States[r].Units[id].Player != orig.States[r-1].Units[id].Player && onRing(orig.States[r].Units[id].Pos) {
				reborn, rebornUnit = r, id
				break
			}
		}
	}
	if reborn < 0 {
		t.Fatal("no rebirth in the trace")
	}
	inside := Pos{-1, -1}
	for idx, ch := range orig.States[reborn].Grid {
		p := PosOf(idx)
		if ch == 'C' && !onRing(p) && traceUnitAt(&orig.States[reborn], p) < 0 && Manh(p, orig.States[reborn].Units[124].Pos) > 6 {
			inside = p
			break
		}
	}
	balrogLine := func(tr *Trace, r int) *Move { return &tr.Moves[r-1][len(tr.Moves[r-1])-1] }
	for _, c := range []struct {
		name      string
		edit      func(tr *Trace)
		wantRound int
		wantUnit  int
		wantField string
	}{
		{"clan move printed with None", func(tr *Trace) { tr.Moves[0][0].Dir = None }, 1, tr0(orig), "movement"},
		{"Balrog leaves its candidates", func(tr *Trace) { m := balrogLine(tr, 3); m.Dir = (m.Dir + 4) % 8 }, 3, 124, "movement"},
		{"a troll's line missing", func(tr *Trace) {
			ms := tr.Moves[1]
			tr.Moves[1] = append(ms[:len(ms)-2:len(ms)-2], ms[len(ms)-1])
		}, 2, 124, "movement"},
		{"initial Balrog moved", func(tr *Trace) { tr.States[0].Units[124].Pos.I++ }, 0, 124, "pos"},
		{"reborn inside Moria while the ring has room", func(tr *Trace) { tr.States[reborn].Units[rebornUnit].Pos = inside },
			reborn, rebornUnit, "pos"},
		{"killed unit keeps its clan", func(tr *Trace) {
			tr.States[reborn].Units[rebornUnit].Player = tr.States[reborn-1].Units[rebornUnit].Player
		}, reborn, rebornUnit, "player"},
		{"round number", func(tr *Trace) { tr.States[7].Round = 8 }, 7, -1, "round"},
		{"nb_treasures", func(tr *Trace) { tr.States[9].NbTreasures[2]++ }, 9, -1, "nb_treasures"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := cloneTrace(orig)
			c.edit(tr)
			err := Verify(tr, nil)
			var d *Divergence
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a *Divergence", err)
			}
			if d.Round != c.wantRound || d.Unit != c.wantUnit || d.Field != c.wantField {
				t.Errorf("got round %d unit %d field %q (%v), want round %d unit %d field %q",
					d.Round, d.Unit, d.Field, d, c.wantRound, c.wantUnit, c.wantField)
			}
		})
	}
}

// tr0 returns the unit of the first printed move of round 1.
func tr0(tr *Trace) int { return tr.Moves[0][0].ID }

func cloneTrace(tr *Trace) *Trace {
	c := *tr
	c.States = make([]TraceState, len(tr.States))
	for k := range tr.States {
		c.States[k] = tr.States[k]
		c.States[k].Units = append([]Unit(nil), tr.States[k].Units...)
	}
	c.Moves = make([][]Move, len(tr.Moves))
	for r := range tr.Moves {
		c.Moves[r] = append([]Move(nil), tr.Moves[r]...)
	}
	return &c
}
