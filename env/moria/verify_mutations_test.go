package moria

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

// mutationsPerTrace is the number of random mutations TestVerifyMutations
// tries per trace; JGYM_MUTATIONS overrides it for longer local runs.
func mutationsPerTrace(t *testing.T) int {
	if s := os.Getenv("JGYM_MUTATIONS"); s != "" {
		var n int
		if _, err := fmt.Sscan(s, &n); err == nil {
			return n
		}
	}
	if testing.Short() {
		return 20
	}
	return 40
}

// A mutation changes one value of a trace's text.
type mutation struct {
	kind     string // grid, round, nb_cells, nb_treasures, unit, move id, move dir, move del, move add, header
	k        int    // state or movements round; -1 for the header
	line     int    // 1-based line changed, removed or inserted before
	unit     int
	field    string // unit field
	pos      Pos    // grid cell
	old, new string // the line before and after
	oldMove  *Move  // the movement line before and after, if any
	newMove  *Move
}

func (m mutation) String() string {
	return fmt.Sprintf("%s (state/round %d, line %d): %q -> %q", m.kind, m.k, m.line, m.old, m.new)
}

var mutUnitFields = [5]string{"type", "player", "i", "j", "health"}

// randomMutation changes one value of the trace text, always to a
// different value written as the engine writes values.
func randomMutation(rng *rand.Rand, tr *Trace, lines []string, header []int) (mutation, []string) {
	cfg := tr.Config
	out := append([]string(nil), lines...)
	delta := func() int {
		if d := rng.IntN(7) - 3; d != 0 {
			return d
		}
		return 4
	}
	set := func(m mutation, text string) (mutation, []string) {
		m.old, m.new = out[m.line-1], text
		out[m.line-1] = text
		return m, out
	}
	k := rng.IntN(cfg.NbRounds + 1)
	switch kind := rng.IntN(20); {
	case kind < 4:
		p := Pos{rng.IntN(Rows), rng.IntN(Cols)}
		m := mutation{kind: "grid", k: k, pos: p, line: tr.gridLine(k, p.I)}
		row := []byte(out[m.line-1])
		chars := "OCTAGR0123abcd"[:10+cfg.RockResistance-1]
		chars = strings.ReplaceAll(chars, string(row[p.J]), "")
		row[p.J] = chars[rng.IntN(len(chars))]
		return set(m, string(row))
	case kind < 5:
		m := mutation{kind: "round", k: k, line: tr.stateFieldLine(k, 0)}
		return set(m, fmt.Sprintf("round %d", k+delta()))
	case kind < 6:
		f := 1 + rng.IntN(2)
		m := mutation{kind: [3]string{"", "nb_cells", "nb_treasures"}[f], k: k, line: tr.stateFieldLine(k, f)}
		fields := strings.Fields(out[m.line-1])
		i := 1 + rng.IntN(NumPlayers)
		var v int
		fmt.Sscan(fields[i], &v)
		fields[i] = fmt.Sprint(v + delta())
		return set(m, strings.Join(fields, " "))
	case kind < 12:
		id := rng.IntN(cfg.NumUnits())
		f := rng.IntN(5)
		m := mutation{kind: "unit", k: k, unit: id, line: tr.unitLine(k, id), field: mutUnitFields[f]}
		fields := strings.Fields(out[m.line-1])
		if f == 0 {
			chars := strings.ReplaceAll("dwotb", fields[0], "")
			fields[0] = string(chars[rng.IntN(4)])
		} else {
			var v int
			fmt.Sscan(fields[f], &v)
			nv := v + delta()
			if rng.IntN(4) == 0 {
				if nv = rng.IntN(62) - 1; nv == v {
					nv = v + 1
				}
			}
			fields[f] = fmt.Sprint(nv)
		}
		return set(m, strings.Join(fields, " "))
	case kind < 19:
		r := 1 + rng.IntN(cfg.NbRounds)
		moves := tr.Moves[r-1]
		x := rng.IntN(len(moves) + 1)
		m := mutation{k: r, line: tr.MovesLine(r) + 1 + x}
		op := rng.IntN(4)
		if x == len(moves) {
			op = 3 // only an insertion can go before "-1"
		}
		if op < 3 {
			old := moves[x]
			m.oldMove = &old
		}
		nm := Move{ID: rng.IntN(cfg.NumUnits() + 3), Dir: Dir(rng.IntN(int(DirSize)))}
		switch op {
		case 0:
			m.kind = "move id"
			nm.Dir = moves[x].Dir
			if rng.IntN(2) == 0 {
				nm.ID = max(moves[x].ID+delta(), 0)
			}
			if nm.ID == moves[x].ID {
				nm.ID++
			}
		case 1:
			m.kind = "move dir"
			nm.ID = moves[x].ID
			nm.Dir = (moves[x].Dir + 1 + Dir(rng.IntN(int(DirSize)-1))) % DirSize
		case 2:
			m.kind = "move del"
			m.old = out[m.line-1]
			out = append(out[:m.line-1], out[m.line:]...)
			return m, out
		case 3:
			m.kind = "move add"
			m.newMove = &nm
			m.new = fmt.Sprintf("%d %c", nm.ID, nm.Dir.Char())
			out = append(out[:m.line-1], append([]string{m.new}, out[m.line-1:]...)...)
			return m, out
		}
		m.newMove = &nm
		return set(m, fmt.Sprintf("%d %c", nm.ID, nm.Dir.Char()))
	default:
		m := mutation{kind: "header", k: -1, line: header[rng.IntN(len(header))]}
		prefix, v := splitValue(out[m.line-1])
		nv := v + delta()
		if nv < 0 {
			nv = v + 1
		}
		return set(m, fmt.Sprintf("%s%d", prefix, nv))
	}
}

// splitValue splits "key   123" into "key   " and 123.
func splitValue(line string) (string, int) {
	i := strings.LastIndexByte(line, ' ') + 1
	var v int
	fmt.Sscan(line[i:], &v)
	return line[:i], v
}

// truncateMutated cuts the mutated trace text after the state where the
// mutation must be detected (a game with fewer rounds has the same first
// states), to keep the test fast.
func truncateMutated(tr *Trace, m mutation, lines []string) string {
	if m.kind == "header" || m.k+1 >= tr.Config.NbRounds {
		return strings.Join(lines, "\n") + "\n"
	}
	rounds := m.k + 1
	end := tr.unitLine(rounds, tr.Config.NumUnits()-1) + 1 // the state's last (empty) line
	switch m.kind {
	case "move add":
		end++
	case "move del":
		end--
	}
	out := append([]string(nil), lines[:end]...)
	out[6] = fmt.Sprintf("nb_rounds          %d", rounds)
	return strings.Join(out, "\n") + "\n"
}

// TestVerifyMutations changes one value of reference traces at random and
// checks that verify, without commands, rejects the copy at the round of the
// change or the next one, unless the copy is itself a possible game.
func TestVerifyMutations(t *testing.T) {
	n := mutationsPerTrace(t)
	for i, name := range []string{
		"moria_s1_Demo-Demo-Demo-Demo.res.gz",
		"moria_s4_Dummy-Demo-Null-Demo.res.gz",
		"moria_s9_Demo-Null-Demo-Null.res.gz",
		"moria_s6_Null-Null-Null-Null.res.gz",
		"brawl", // far more attacks, deaths and captures
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var raw []byte
			if name == "brawl" {
				cfg := DefaultConfig()
				cfg.NbRounds, cfg.RockResistance = 60, 2
				var err error
				if raw, _, err = playBrawl(cfg, 3, true); err != nil {
					t.Fatal(err)
				}
			} else {
				raw = coursetest.ReadGz(t, refTraceNamed(t, name).path)
			}
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			// Header lines: the seed and the settings, except
			// treasure_value, which no state shows.
			header := []int{3}
			for i, key := range configKeys {
				if key != "treasure_value" {
					header = append(header, 6+i)
				}
			}
			lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
			rng := rand.New(rand.NewPCG(uint64(i+1), 42))
			explained := map[string]int{}
			for range n {
				m, mut := randomMutation(rng, tr, lines, header)
				text := truncateMutated(tr, m, mut)
				mtr, err := ParseTrace(strings.NewReader(text))
				if err == nil {
					err = Verify(mtr, nil)
				}
				var d *Divergence
				var pe *ParseError
				round := -2
				switch {
				case err == nil:
					if class := undetectable(tr, m); class != "" {
						explained[class]++
						continue
					}
					t.Errorf("%v: accepted, want rejected", m)
					continue
				case errors.As(err, &d):
					round = d.Round
				case errors.As(err, &pe):
					round = pe.Round
				case errors.Is(err, ErrTruncated) && m.kind == "header":
					continue // a larger nb_rounds: the trace now ends early
				default:
					t.Errorf("%v: got %v, want a *Divergence or a *ParseError", m, err)
					continue
				}
				if m.k >= 0 && round != m.k && round != m.k+1 {
					t.Errorf("%v: rejected at round %d, want %d or %d: %v", m, round, m.k, m.k+1, err)
				}
			}
			t.Logf("%d mutations; accepted as possible games: %v", n, explained)
		})
	}
}

// traceDied reports whether unit id died in round r (from 1), as the
// trace shows it: a dwarf or wizard changes clan, a living orc's slot is
// empty or refilled with full health, a troll is reborn on the ring.
func traceDied(tr *Trace, r, id int) bool {
	if r < 1 || r >= len(tr.States) || id < 0 || id >= len(tr.States[r].Units) {
		return false
	}
	u, v := &tr.States[r-1].Units[id], &tr.States[r].Units[id]
	switch u.Type {
	case Dwarf, Wizard:
		return u.Player != v.Player
	case Orc:
		return u.Health > 0 && (v.Health == 0 || v.Health == OrcHealth)
	case Troll:
		return onRing(v.Pos) && !onRing(u.Pos) || v.Health == TrollHealth && u.Health < TrollHealth
	}
	return false
}

// traceDamaged reports whether unit id survived round r with less health
// than it had.
func traceDamaged(tr *Trace, r, id int) bool {
	if r < 1 || r >= len(tr.States) || id < 0 || id >= len(tr.States[r].Units) || traceDied(tr, r, id) {
		return false
	}
	u, v := &tr.States[r-1].Units[id], &tr.States[r].Units[id]
	return u.Health > 0 && v.Health > 0 && v.Health < u.Health
}

// traceHealed reports whether dwarf or wizard id of state s has full
// health next to a wizard of its clan, as healing leaves it.
func traceHealed(s *TraceState, id int) bool {
	u := &s.Units[id]
	if (u.Type != Dwarf && u.Type != Wizard) || u.Health != u.Type.MaxHealth() {
		return false
	}
	for d := Bottom; d < None; d += 2 {
		if w := traceUnitAt(s, u.Pos.Add(d)); w >= 0 && s.Units[w].Type == Wizard && s.Units[w].Player == u.Player {
			return true
		}
	}
	return false
}

// traceDigs reports whether any rock of the trace is hit: a rock letter
// shows hits left, or a rock turns into a cave or an abyss.
func traceDigs(tr *Trace) bool {
	rocks := bytes.Count(tr.States[0].Grid[:], []byte("R"))
	for k := range tr.States {
		g := tr.States[k].Grid[:]
		if bytes.Count(g, []byte("R")) != rocks || bytes.ContainsFunc(g, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
			return true
		}
	}
	return false
}

// traceUnitAt returns the unit standing at p in state s, or -1.
func traceUnitAt(s *TraceState, p Pos) int {
	for id := range s.Units {
		if s.Units[id].Pos == p && s.Units[id].Type != Balrog {
			return id
		}
	}
	return -1
}

// undetectable names the documented class of mutations that no check
// without commands can reject, because the mutated trace is itself a
// possible game (docs/rules/moria.md), or returns "".
func undetectable(tr *Trace, m mutation) string {
	last := len(tr.States) - 1
	k := m.k
	switch m.kind {
	case "header":
		if strings.HasPrefix(m.old, "rock_resistance") && !traceDigs(tr) {
			return "rock_resistance of a game where no rock is hit"
		}
	case "unit":
		id := m.unit
		if m.field == "health" && k >= 1 && traceDamaged(tr, k, id) &&
			(k == last || traceDamaged(tr, k+1, id) || traceDied(tr, k+1, id)) {
			return "damage split between two rounds"
		}
	case "move id", "move dir", "move del", "move add":
		// An attack's damage is hidden: when its victim dies or is hurt
		// anyway, or a wizard heals it, another attack explains the same
		// state.
		for _, mv := range []*Move{m.oldMove, m.newMove} {
			if mv == nil || mv.ID >= len(tr.States[k-1].Units) {
				continue
			}
			ids := []int{mv.ID}
			if t := tr.States[k-1].Units[mv.ID].Pos.Add(mv.Dir); t.OnBoard() {
				ids = append(ids, traceUnitAt(&tr.States[k-1], t), traceUnitAt(&tr.States[k], t))
			}
			for _, id := range ids {
				if id < 0 {
					continue
				}
				healed := traceHealed(&tr.States[k], id)
				if traceDied(tr, k, id) || traceDamaged(tr, k, id) || healed && mv.ID != id {
					return "attack whose effect a death, other damage or healing hides"
				}
			}
		}
	}
	return ""
}
