package crematoria

import (
	"bytes"
	"errors"
	"testing"
)

// TestVerifyRejects changes one value of a reference trace in ways chosen to
// exercise each rule check, and checks where the divergence is reported.
func TestVerifyRejects(t *testing.T) {
	tc := refTraceNamed(t, "crematoria_s14_Dummy-Demo-Null-Demo.res.gz")
	orig, _ := loadRefTrace(t, tc)
	f := findTraceEvents(orig)
	if f.hitRound < 0 || f.rebornRound < 0 || f.arrivalRound < 0 || f.moveRound < 0 || f.gemRound < 0 {
		t.Fatalf("the trace lacks a situation to test: %+v", f)
	}
	gem := func(i int) Pos { return Pos{i, (NightStart(f.gemRound) + 40) % Cols, 1} }
	for _, c := range []struct {
		name      string
		edit      func(tr *Trace) // changes one value
		wantRound int
		wantUnit  int
		wantField string
	}{
		{"damage below the Furyan range", func(tr *Trace) { tr.States[f.hitRound+1].Units[f.hitUnit].Health += 1 + f.hitSlack },
			f.hitRound + 1, f.hitUnit, "health"},
		{"reborn next to a Pioneer", func(tr *Trace) { tr.States[f.rebornRound+1].Units[f.rebornUnit].Pos = f.rebornBad },
			f.rebornRound + 1, f.rebornUnit, "pos"},
		{"reborn unit with its old group", func(tr *Trace) {
			tr.States[f.rebornRound+1].Units[f.rebornUnit].Player = tr.States[f.rebornRound].Units[f.rebornUnit].Player
		}, f.rebornRound + 1, f.rebornUnit, "group"},
		{"necromonger arrives outside the new-night columns", func(tr *Trace) { tr.States[f.arrivalRound+1].Units[f.arrivalUnit].Pos.J += 5 },
			f.arrivalRound + 1, f.arrivalUnit, "pos"},
		{"hellhound leaves its candidates", func(tr *Trace) {
			m := &tr.Moves[0][len(tr.Moves[0])-1]
			m.Dir = (m.Dir + 4) % 8
		}, 0, 92, "movement"},
		{"player move printed with None", func(tr *Trace) { tr.Moves[f.moveRound][0].Dir = None },
			f.moveRound, firstMoveID(orig, f.moveRound), "movement"},
		{"initial hellhound moved", func(tr *Trace) { tr.States[0].Units[90].Pos.I++ }, 0, 90, "pos"},
		{"initial cave turned to Rock", func(tr *Trace) { tr.States[0].Grid[f.cave.Index()] = 'R' }, 0, -1, "grid " + f.cave.String()},
		{"two new gems", func(tr *Trace) {
			tr.States[f.gemRound+1].Grid[gem(f.gemRow).Index()] = 'G'
			tr.States[f.gemRound+1].Grid[gem(f.gemRow+1).Index()] = 'G'
		}, f.gemRound + 1, -1, "grid " + gem(f.gemRow+1).String()},
		{"round number", func(tr *Trace) { tr.States[7].Round = 8 }, 7, -1, "round"},
		{"nb_gems", func(tr *Trace) { tr.States[9].NbGems[2]++ }, 9, -1, "nb_gems"},
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

func firstMoveID(tr *Trace, r int) int { return tr.Moves[r][0].ID }

// traceEvents locates situations of a trace for TestVerifyRejects.
type traceEvents struct {
	hitRound, hitUnit, hitSlack int // a unit hurt by exactly one Furyan attack
	rebornRound, rebornUnit     int // a unit reborn at the end of a round
	rebornBad                   Pos // a cave next to a Pioneer in that state
	arrivalRound, arrivalUnit   int
	moveRound                   int // a round with a player move
	cave                        Pos // an unowned cave of the first state
	gemRound, gemRow            int // a round creating no gem, with rows gemRow and gemRow+1 free in the new-night column
}

func findTraceEvents(tr *Trace) traceEvents {
	var f traceEvents
	f.hitRound, f.rebornRound, f.arrivalRound, f.moveRound, f.gemRound = -1, -1, -1, -1, -1
	cfg := tr.Config
	f.cave = PosOf(bytes.IndexByte(tr.States[0].Grid[:], 'C'))
	N := NumPlayers * (cfg.NbFuryans + cfg.NbPioneers)
	for r := 0; r < cfg.NbRounds; r++ {
		s, n := &tr.States[r], &tr.States[r+1]
		if f.moveRound < 0 && len(tr.Moves[r]) > 0 && tr.Moves[r][0].ID < N {
			f.moveRound = r
		}
		if n1 := (NightStart(r) + 40) % Cols; f.gemRound < 0 && r > 0 {
			var night []byte
			for i := 0; i < Rows; i++ {
				night = append(night, n.Grid[Pos{i, n1, 1}.Index()], n.Grid[Pos{i, n1 + 1, 1}.Index()])
			}
			if !bytes.Contains(night, []byte("G")) {
				if i := bytes.Index(night, []byte("OOOO")); i >= 0 && i%2 == 0 {
					f.gemRound, f.gemRow = r, i/2
				}
			}
		}
		// Attacks of the round by target: only Furyans attack other groups.
		attackers := map[int]int{}
		for _, m := range tr.Moves[r] {
			if m.ID < N && s.Units[m.ID].Type == Furyan {
				t := s.Units[m.ID].Pos.Add(m.Dir)
				for id := 0; id < N; id++ {
					if s.Units[id].Pos == t && s.Units[id].Player != s.Units[m.ID].Player {
						attackers[id]++
					}
				}
			}
		}
		for id := 0; id < len(s.Units); id++ {
			u, v := &s.Units[id], &n.Units[id]
			switch {
			case id < N && u.Player == v.Player && attackers[id] == 1 && f.hitRound < 0 &&
				u.Health-(v.Health-HealthRecovery) >= MinDamageFuryan && u.Health-(v.Health-HealthRecovery) <= MaxDamageFuryan:
				f.hitRound, f.hitUnit = r, id
				f.hitSlack = u.Health - (v.Health - HealthRecovery) - MinDamageFuryan
			case id < N && u.Player != v.Player && f.rebornRound < 0:
				for _, w := range n.Units[:N] {
					if w.Pos.K != 0 || w.Type != Pioneer || s.Units[w.ID].Player != w.Player {
						continue // not a Pioneer that stood there before the respawn
					}
					if p := w.Pos.Add(Right); cellOfChar(n.Grid[p.Index()]).Type == Cave && traceUnitAt(n, p) < 0 {
						f.rebornRound, f.rebornUnit, f.rebornBad = r, id, p
						break
					}
				}
			case u.Type == Necromonger && u.Health == 0 && v.Health > 0 && f.arrivalRound < 0:
				f.arrivalRound, f.arrivalUnit = r, id
			}
		}
	}
	return f
}

func traceUnitAt(s *TraceState, p Pos) int {
	for id := range s.Units {
		if s.Units[id].Pos == p {
			return id
		}
	}
	return -1
}

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
