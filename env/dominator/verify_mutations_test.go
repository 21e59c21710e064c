package dominator

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
	switch {
	case raceEnabled:
		return 8
	case testing.Short():
		return 25
	}
	return 60
}

// A mutation changes one value of a trace's text.
type mutation struct {
	kind     string // grid, round, land, total_score, unit, move id, move dir, move del, move add, header
	k        int    // round of the state or movements block; -1 for the header
	line     int    // 1-based line changed, removed or inserted before
	unit     int
	field    string // unit field
	pos      Pos    // grid cell
	old, new string // the line before and after
	oldMove  *Move  // the movement line before and after, if any
	newMove  *Move
}

func (m mutation) String() string {
	return fmt.Sprintf("%s %s (state/round %d, line %d): %q -> %q", m.kind, m.field, m.k, m.line, m.old, m.new)
}

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
		p := Pos{rng.IntN(cfg.Rows), rng.IntN(cfg.Cols)}
		m := mutation{kind: "grid", k: k, pos: p, line: tr.gridLine(k, p.I)}
		row := []byte(out[m.line-1])
		chars := strings.ReplaceAll("X.0123", string(row[p.J]), "")
		row[p.J] = chars[rng.IntN(len(chars))]
		return set(m, string(row))
	case kind < 5:
		m := mutation{kind: "round", k: k, line: tr.stateFieldLine(k, 0)}
		return set(m, fmt.Sprintf("round %d", k+delta()))
	case kind < 6:
		f := 1 + rng.IntN(2)
		m := mutation{kind: [3]string{"", "land", "total_score"}[f], k: k, line: tr.stateFieldLine(k, f)}
		fields := strings.Fields(out[m.line-1])
		i := 1 + rng.IntN(NumPlayers)
		var v int
		fmt.Sscan(fields[i], &v)
		fields[i] = fmt.Sprint(v + delta())
		return set(m, strings.Join(fields, " "))
	case kind < 12:
		id := rng.IntN(cfg.NumUnits())
		f := rng.IntN(5)
		m := mutation{kind: "unit", k: k, unit: id, line: tr.unitLine(k, id), field: append([]string{"type"}, unitFields[:]...)[f]}
		fields := strings.Fields(out[m.line-1])
		if f == 0 {
			chars := strings.ReplaceAll("fkw", fields[0], "")
			fields[0] = string(chars[rng.IntN(2)])
		} else {
			var v int
			fmt.Sscan(fields[f], &v)
			nv := v + delta()
			switch {
			case f == 1:
				nv = (v + 1 + rng.IntN(3)) % NumPlayers
			case rng.IntN(4) == 0:
				if nv = rng.IntN(cfg.Rows+2) - 1; nv == v {
					nv = v + 1
				}
			}
			fields[f] = fmt.Sprint(nv)
		}
		return set(m, strings.Join(fields, " "))
	case kind < 19 && cfg.NbRounds > 0:
		r := rng.IntN(cfg.NbRounds)
		moves := tr.Moves[r]
		x := rng.IntN(len(moves) + 1)
		m := mutation{k: r + 1, line: tr.MovesLine(r) + 1 + x}
		op := rng.IntN(4)
		if x == len(moves) {
			op = 3 // only an insertion can go before "-1"
		}
		if op < 3 {
			old := moves[x]
			m.oldMove = &old
		}
		nm := Move{ID: rng.IntN(cfg.NumUnits() + 3), Dir: Dir(rng.IntN(int(None)))}
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

// traceDied reports whether unit id died during round r, as the trace
// shows it: its player changes.
func traceDied(tr *Trace, r, id int) bool {
	if id < 0 || id >= len(tr.States[r].Units) || r+1 >= len(tr.States) {
		return false
	}
	return tr.States[r].Units[id].Player != tr.States[r+1].Units[id].Player
}

// traceAttacked reports whether a printed knight move of round r targets
// the cell unit id stood on, or unit id itself attacked.
func traceAttacked(tr *Trace, r, id int) bool {
	if id < 0 || id >= len(tr.States[r].Units) || r >= len(tr.Moves) {
		return false
	}
	s := &tr.States[r]
	for _, m := range tr.Moves[r] {
		if m.ID < 0 || m.ID >= len(s.Units) || s.Units[m.ID].Type != Knight {
			continue
		}
		if s.Units[m.ID].Pos.Add(m.Dir) == s.Units[id].Pos {
			return true
		}
	}
	return false
}

// undetectable names the documented class of mutations that no check
// without commands can reject, because the mutated trace is itself a
// possible game (see docs/rules/dominator.md), or returns "".
func undetectable(tr *Trace, m mutation) string {
	k := m.k
	switch m.kind {
	case "unit":
		id := m.unit
		u := &tr.States[k].Units[id]
		switch {
		case m.field == "health" && k >= 1 && traceAttacked(tr, k-1, id) && !traceDied(tr, k-1, id):
			return "hidden damage of an attack"
		case (m.field == "i" || m.field == "j") && k >= 1 && traceDied(tr, k-1, id) && u.Type == Knight:
			return "cell a reborn knight was drawn"
		case (m.field == "i" || m.field == "j") && k >= 1 && traceDied(tr, k-1, id):
			return "cell a reborn farmer was drawn (already of its colour)"
		case m.field == "player" && k >= 1 && traceDied(tr, k-1, id):
			return "team a spell gave"
		}
	case "move id", "move dir", "move del", "move add":
		k-- // the state the movements start from
		for _, mv := range []*Move{m.oldMove, m.newMove} {
			if mv == nil || mv.ID >= len(tr.States[k].Units) {
				continue
			}
			ids := []int{mv.ID}
			s := &tr.States[k]
			p := s.Units[mv.ID].Pos.Add(mv.Dir)
			for id := range s.Units {
				if s.Units[id].Pos == p {
					ids = append(ids, id)
				}
			}
			for _, id := range ids {
				if traceDied(tr, k, id) || traceAttacked(tr, k, id) {
					return "move whose effect a death or hidden damage hides"
				}
			}
		}
	}
	return ""
}

// truncateMutated cuts the mutated trace text after the state where the
// mutation must be detected (a game with fewer rounds has the same first
// states), to keep the test fast.
func truncateMutated(tr *Trace, m mutation, lines []string) string {
	if m.kind == "header" || m.k+1 > tr.Config.NbRounds {
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
	out[6] = fmt.Sprintf("nb_rounds      %d", rounds)
	return strings.Join(out, "\n") + "\n"
}

// TestVerifyMutations changes one value of reference traces at random and
// checks that verify, without commands, rejects the copy at the round of
// the change or the next one, unless the copy is itself a possible game.
func TestVerifyMutations(t *testing.T) {
	n := mutationsPerTrace(t)
	for i, name := range []string{
		"dominator_s1_Demo-Demo-Demo-Demo.res.gz",
		"dominator_s4_Dummy-Demo-Null-Demo.res.gz",
		"default_s41_Dummy-Dummy-Dummy-Dummy.res.gz",
		"default_s40_Chaos-Chaos-Chaos-Chaos.res.gz",
		"fixed3_s26_Demo-Dummy-Demo-Chaos.res.gz",
		"crowd3_s5_Chaos-Demo-Dummy-Chaos.res.gz",
		"weak_s7_Chaos-Demo-Dummy-Chaos.res.gz",
		"manywitch_s7_Chaos-Demo-Dummy-Chaos.res.gz",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc := refTraceNamed(t, name)
			raw := coursetest.ReadGz(t, tc.path)
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			// Header lines: the seed and the settings, except those a
			// trace need not show (docs/rules/dominator.md).
			header := []int{3}
			for i, key := range configKeys {
				switch key {
				case "farmers_regen", "knights_regen", "damage_min", "damage_max":
					continue
				}
				header = append(header, 6+i)
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
