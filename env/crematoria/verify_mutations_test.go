package crematoria

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
// tries per trace; JGYM_MUTATIONS overrides it for longer local runs (the
// checks were run with 4,000 per trace).
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
	kind     string // grid, round, nb_cells, nb_gems, unit, move id, move dir, move del, move add, header
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
		p := Pos{rng.IntN(Rows), rng.IntN(Cols), rng.IntN(Levels)}
		m := mutation{kind: "grid", k: k, pos: p, line: tr.gridLine(k, p)}
		row := []byte(out[m.line-1])
		chars := strings.ReplaceAll(gridChars[p.K], string(row[p.J]), "")
		row[p.J] = chars[rng.IntN(len(chars))]
		return set(m, string(row))
	case kind < 5:
		m := mutation{kind: "round", k: k, line: tr.stateFieldLine(k, 0)}
		return set(m, fmt.Sprintf("round %d", k+delta()))
	case kind < 6:
		f := 1 + rng.IntN(2)
		m := mutation{kind: [3]string{"", "nb_cells", "nb_gems"}[f], k: k, line: tr.stateFieldLine(k, f)}
		fields := strings.Fields(out[m.line-1])
		i := 1 + rng.IntN(NumPlayers)
		var v int
		fmt.Sscan(fields[i], &v)
		fields[i] = fmt.Sprint(v + delta())
		return set(m, strings.Join(fields, " "))
	case kind < 12:
		id := rng.IntN(cfg.NumUnits())
		f := rng.IntN(7)
		m := mutation{kind: "unit", k: k, unit: id, line: tr.unitLine(k, id), field: append([]string{"type"}, unitFields[:]...)[f]}
		fields := strings.Fields(out[m.line-1])
		if f == 0 {
			chars := strings.ReplaceAll("pfnh", fields[0], "")
			fields[0] = string(chars[rng.IntN(3)])
		} else {
			var v int
			fmt.Sscan(fields[f], &v)
			nv := v + delta()
			if rng.IntN(4) == 0 {
				if nv = rng.IntN(82) - 1; nv == v {
					nv = v + 1
				}
			}
			fields[f] = fmt.Sprint(nv)
		}
		return set(m, strings.Join(fields, " "))
	case kind < 19:
		r := rng.IntN(cfg.NbRounds)
		moves := tr.Moves[r]
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

// died reports whether unit id died during round r, as the trace shows it:
// a Pioneer or Furyan changes group, a landed necromonger disappears.
func traceDied(tr *Trace, r, id int) bool {
	if id < 0 || id >= len(tr.States[r].Units) {
		return false
	}
	u, v := &tr.States[r].Units[id], &tr.States[r+1].Units[id]
	switch u.Type {
	case Pioneer, Furyan:
		return u.Player != v.Player
	case Necromonger:
		return u.Health > 0 && u.Turns == 0 && !(v.Health > 0 && v.Turns == 0)
	}
	return false
}

// damaged reports whether unit id survived round r with less health than
// healing alone gives.
func traceDamaged(tr *Trace, r, id int) bool {
	if id < 0 || id >= len(tr.States[r].Units) || traceDied(tr, r, id) {
		return false
	}
	u, v := &tr.States[r].Units[id], &tr.States[r+1].Units[id]
	if u.Health <= 0 || u.Type == Hellhound || (u.Type == Necromonger && u.Turns != 0) {
		return false
	}
	return v.Health < min(u.Health+HealthRecovery, u.Type.MaxHealth())
}

// undetectable names the documented class of mutations that no check
// without commands can reject, because the mutated trace is itself a
// possible game (see docs/verify.md), or returns "".
func undetectable(tr *Trace, m mutation, fixedMap bool) string {
	last := tr.Config.NbRounds
	k := m.k
	switch m.kind {
	case "unit":
		id := m.unit
		switch {
		case m.field == "health" && k >= 1 && traceDamaged(tr, k-1, id) && (k == last || traceDamaged(tr, k, id) || traceDied(tr, k, id)):
			return "damage split between two rounds"
		case m.field == "group" && k >= 1 && tr.States[k].Units[id].Type == Furyan && traceDied(tr, k-1, id) && (k == last || traceDied(tr, k, id)):
			return "group of a Furyan killed in two rounds"
		case (m.field == "i" || m.field == "j" || m.field == "k") && k == last:
			u, prev := &tr.States[k].Units[id], &tr.States[k-1].Units[id]
			reborn := u.Type != Necromonger && u.Player != prev.Player
			arrived := u.Type == Necromonger && u.Turns == tr.Config.TurnsToLand && prev.Turns != u.Turns+1
			if reborn || arrived {
				return "random cell chosen in the last round"
			}
		}
	case "grid":
		gem := m.pos.K == 1 && m.old[m.pos.J] != 'E' && m.new[m.pos.J] != 'E'
		n1 := (NightStart(k-1) + 40) % Cols
		switch {
		case gem && k == last && (m.pos.J == n1 || m.pos.J == n1+1):
			return "gem of the last round"
		case gem && k == 0 && fixedMap && m.pos.J <= 1:
			return "initial gem of a FIXED map burnt in round 0"
		}
	case "move id", "move dir", "move del", "move add":
		for _, mv := range []*Move{m.oldMove, m.newMove} {
			if mv == nil || mv.ID >= len(tr.States[k].Units) {
				continue
			}
			ids := []int{mv.ID}
			if t := tr.States[k].Units[mv.ID].Pos.Add(mv.Dir); t.OnBoard() {
				ids = append(ids, traceUnitAt(&tr.States[k], t), traceUnitAt(&tr.States[k+1], t))
			}
			for _, id := range ids {
				if traceDied(tr, k, id) || traceDamaged(tr, k, id) {
					return "move whose effect a death or other damage hides"
				}
			}
		}
	}
	return ""
}

// truncateMutated cuts the mutated trace text after the state where the mutation
// must be detected (a game with fewer rounds has the same first states), to
// keep the test fast.
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
	out[6] = fmt.Sprintf("nb_rounds           %d", rounds)
	return strings.Join(out, "\n") + "\n"
}

// TestVerifyMutations changes one value of reference traces at random and
// checks that verify, without commands, rejects the copy at the round of the
// change or the next one, unless the copy is itself a possible game.
func TestVerifyMutations(t *testing.T) {
	n := mutationsPerTrace(t)
	for i, name := range []string{
		"crematoria_s1_Demo-Demo-Demo-Demo.res.gz",
		"crematoria_s14_Dummy-Demo-Null-Demo.res.gz",
		"crematoria_s9_Demo-Null-Demo-Dummy_fixed.res.gz",
		"crematoria_s3_Demo-Null-Demo-Demo_alt.res.gz",
		"brawl", // far more attacks, deaths and captures
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var raw []byte
			var fixedMap bool
			if name == "brawl" {
				cfg := DefaultConfig()
				cfg.NbRounds, cfg.NbFuryans, cfg.NbPioneers, cfg.TurnsToLand = 60, 10, 4, 1
				var err error
				if raw, _, err = playBrawl(cfg, 3, true); err != nil {
					t.Fatal(err)
				}
			} else {
				tc := refTraceNamed(t, name)
				raw, fixedMap = coursetest.ReadGz(t, tc.path), tc.cfg.Fixed != nil
			}
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			arrivals := false
			for _, s := range tr.States {
				for _, u := range s.Units {
					arrivals = arrivals || u.Turns > 0
				}
			}
			// Header lines: the seed and the settings, except those the
			// trace cannot show (docs/verify.md).
			header := []int{3}
			for i, key := range configKeys {
				if key == "gem_value" || (key == "nb_elevators" && fixedMap) || (key == "turns_to_land" && !arrivals) {
					continue
				}
				header = append(header, 6+i)
			}
			lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
			rng := rand.New(rand.NewPCG(uint64(i+1), 42))
			explained := map[string]int{}
			for range n {
				m, mut := randomMutation(rng, tr, lines, header)
				if strings.Join(mut, "\n") == strings.Join(lines, "\n") {
					t.Fatalf("mutation %v left the trace unchanged", m)
				}
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
					if class := undetectable(tr, m, fixedMap); class != "" {
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
