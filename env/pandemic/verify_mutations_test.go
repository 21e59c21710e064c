package pandemic

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jgym/course/coursetest"
)

// mutationsPerTrace is the number of random mutations TestVerifyMutations
// tries per trace; JGYM_MUTATIONS overrides it for longer local runs (the
// checks were run with 60 per trace, 3,780 mutations).
func mutationsPerTrace(t *testing.T) int {
	if s := os.Getenv("JGYM_MUTATIONS"); s != "" {
		var n int
		if _, err := fmt.Sscan(s, &n); err == nil {
			return n
		}
	}
	if testing.Short() {
		return 2
	}
	return 5
}

// A mutation changes one value of a trace's text.
type mutation struct {
	kind     string // grid, mask, round, score, owner, unit player/pos/health, command id/dir/del/add, header
	k        int    // state (or commands block of round k); -1 for the header
	line     int    // 1-based line changed, removed or inserted before
	old, new string // the line before and after
}

func (m mutation) String() string {
	return fmt.Sprintf("%s (round %d, line %d): %q -> %q", m.kind, m.k, m.line, m.old, m.new)
}

// randomMutation changes one value of the trace text, always to a
// different value written as the engine writes values.
func randomMutation(rng *rand.Rand, tr *Trace, lines []string) (mutation, []string) {
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
	replaceField := func(line string, i int, f func(int) int) string {
		fields := strings.Split(line, " ")
		var v int
		fmt.Sscan(fields[i], &v)
		fields[i] = fmt.Sprint(f(v))
		return strings.Join(fields, " ")
	}
	k := rng.IntN(len(tr.States))
	ts := &tr.States[k]
	switch kind := rng.IntN(24); {
	case kind < 5:
		i, j := rng.IntN(cfg.Rows), rng.IntN(cfg.Cols)
		m := mutation{kind: "grid", k: k, line: ts.line.grid + i}
		row := []byte(out[m.line-1])
		col := len(row) - cfg.Cols + j
		t, v, _ := cellOfChar(row[col])
		nv := 0
		if t == Wall {
			t = Grass
		} else {
			nv = (v + 1 + rng.IntN(MaxVirus(t))) % (MaxVirus(t) + 1)
		}
		row[col] = CellChar(t, nv)
		return set(m, string(row))
	case kind < 6 && len(ts.Masks) > 0:
		x := rng.IntN(len(ts.Masks))
		m := mutation{kind: "mask", k: k, line: ts.line.masks + 1 + x}
		return set(m, replaceField(out[m.line-1], rng.IntN(2), func(v int) int { return v + delta() }))
	case kind < 7:
		m := mutation{kind: "round", k: k, line: ts.line.round}
		return set(m, fmt.Sprintf("round %d", k+delta()))
	case kind < 8:
		m := mutation{kind: "score", k: k, line: ts.line.round + 1}
		return set(m, replaceField(out[m.line-1], 1+rng.IntN(NumPlayers), func(v int) int { return v + delta() }))
	case kind < 9 && len(ts.CityOwner) > 0:
		m := mutation{kind: "owner", k: k, line: ts.line.cityOwners}
		return set(m, replaceField(out[m.line-1], 1+rng.IntN(len(ts.CityOwner)), func(v int) int { return (v+2+rng.IntN(4))%5 - 1 }))
	case kind < 15:
		id := rng.IntN(cfg.NumUnits())
		f := rng.IntN(4)
		m := mutation{kind: [4]string{"unit player", "unit pos", "unit pos", "unit health"}[f], k: k, line: ts.line.units + id}
		return set(m, replaceField(out[m.line-1], f, func(v int) int {
			if f == 0 {
				return (v + 1 + rng.IntN(3)) % 4
			}
			return v + delta()
		}))
	case kind < 22 && len(tr.Commands) > 0:
		r := rng.IntN(len(tr.Commands))
		moves := tr.Commands[r]
		x := rng.IntN(len(moves) + 1)
		m := mutation{k: r + 1, line: tr.cmdLines[r] + 1 + x}
		op := rng.IntN(4)
		if x == len(moves) {
			op = 3 // only an insertion can go before "-1"
		}
		nm := Move{ID: rng.IntN(cfg.NumUnits()), Dir: Dir(rng.IntN(4))}
		switch op {
		case 0:
			m.kind = "command id"
			nm.Dir = moves[x].Dir
			if nm.ID == moves[x].ID {
				nm.ID = (nm.ID + 1) % cfg.NumUnits()
			}
		case 1:
			m.kind = "command dir"
			nm.ID = moves[x].ID
			nm.Dir = (moves[x].Dir + 1 + Dir(rng.IntN(3))) % 4
		case 2:
			m.kind = "command del"
			m.old = out[m.line-1]
			out = append(out[:m.line-1], out[m.line:]...)
			return m, out
		case 3:
			m.kind = "command add"
			m.new = fmt.Sprintf("%d %c", nm.ID, nm.Dir.Char())
			out = append(out[:m.line-1], append([]string{m.new}, out[m.line-1:]...)...)
			return m, out
		}
		return set(m, fmt.Sprintf("%d %c", nm.ID, nm.Dir.Char()))
	default:
		m := mutation{kind: "header", k: -1, line: 3 + 3 + rng.IntN(NumSettings)}
		if rng.IntN(4) == 0 {
			m.line = 3
		}
		line := out[m.line-1]
		i := strings.LastIndexByte(line, ' ') + 1
		var v float64
		fmt.Sscan(line[i:], &v)
		nv := v + float64(delta())
		if nv < 0 {
			nv = v + 1
		}
		return set(m, line[:i]+FormatDouble(nv))
	}
}

// mayPass names the documented classes of mutations that the check without
// commands cannot always reject, because the mutated trace may itself be a
// possible game (see docs/rules/pandemic.md, "Verifying traces"), or "".
func mayPass(tr *Trace, m mutation) string {
	last := len(tr.States) - 1
	switch m.kind {
	case "header":
		switch {
		case m.line >= 6+9:
			return "infection_factor and mask_protection only change probabilities"
		case m.line == 6+6 && !everOwned(tr, true):
			return "bonus_per_city_cell when no city is ever owned"
		case m.line == 6+7 && !everOwned(tr, false):
			return "bonus_per_path_cell when no path is ever owned"
		case m.line == 6+8 && !everOwned(tr, true):
			return "factor_connected_component when no city is ever owned"
		}
	case "grid":
		return "a virus value next to a unit that may or may not be infected"
	case "unit health":
		return "health drops within the virus damage or the failed attacks a unit may have taken"
	case "unit pos", "unit player":
		if m.k == last {
			return "a unit of the last state may have died of the virus and respawned"
		}
		return "a unit may have died of the virus and respawned"
	case "command del", "command add", "command id", "command dir":
		return "a changed command may be compensated by a death"
	case "mask":
		if m.k == last {
			return "the new mask of the last state may lie on any free grass cell"
		}
		return "a new mask may lie on any free grass cell"
	}
	return ""
}

// everOwned reports whether a city (or a path) has an owner in some state.
func everOwned(tr *Trace, cities bool) bool {
	for k := range tr.States {
		owners := tr.States[k].PathOwner
		if cities {
			owners = tr.States[k].CityOwner
		}
		for _, o := range owners {
			if o >= 0 {
				return true
			}
		}
	}
	return false
}

func TestVerifyMutations(t *testing.T) {
	n := mutationsPerTrace(t)
	for ti, tc := range traceCases(t) {
		if !sampled(ti) {
			continue
		}
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			t.Parallel()
			checkMutations(t, tc, n, uint64(ti))
		})
	}
}

// checkMutations applies n random mutations to a reference trace: replay
// with the command log must reject each one, the check against the rules
// each one outside the documented classes.
func checkMutations(t *testing.T, tc traceCase, n int, seed uint64) {
	var total, caughtRules, exempt int
	kinds := map[string][2]int{}
	{
		raw := coursetest.ReadGz(t, tc.path)
		tr, log := loadRefTrace(t, tc)
		lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
		rng := rand.New(rand.NewPCG(seed, 7))
		for x := 0; x < n; x++ {
			m, out := randomMutation(rng, tr, lines)
			text := strings.Join(out, "\n") + "\n"
			if text == string(raw) {
				continue
			}
			total++
			mt, err := ParseTrace(strings.NewReader(text))
			if err != nil {
				caughtRules++
				continue // the parser rejects it
			}
			if err := Verify(mt, log); err == nil && (m.kind != "header" || mayPass(tr, m) == "") {
				t.Errorf("%s: replay accepts %v", filepath.Base(tc.path), m)
			} else if err != nil {
				var d *Divergence
				if !errors.As(err, &d) && !errors.Is(err, ErrIncompleteTrace) && !strings.Contains(err.Error(), "aborts") {
					t.Errorf("%s: %v: replay error %v is not a *Divergence", filepath.Base(tc.path), m, err)
				}
			}
			c := kinds[m.kind]
			c[1]++
			if err := Verify(mt, nil); err != nil {
				caughtRules++
				c[0]++
			} else if why := mayPass(tr, m); why != "" {
				exempt++
			} else {
				t.Errorf("%s: rules accept %v", filepath.Base(tc.path), m)
			}
			kinds[m.kind] = c
		}
	}
	t.Logf("%d mutations: the parser or the rules check rejects %d, accepts %d of documented classes", total, caughtRules, exempt)
	for k, c := range kinds {
		t.Logf("  %-12s rejected %d of %d parsed", k, c[0], c[1])
	}
}
