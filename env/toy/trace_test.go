package toy

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"jgym/course"
	"jgym/game"
)

// smallTrace plays a game of smallConfig (Greedy and Demos, with
// captures) and returns its trace and command log.
func smallTrace(t *testing.T) ([]byte, *game.CommandLog[Dir]) {
	t.Helper()
	m, err := Def.NewBotMatch(smallConfig, 7, [NumPlayers]string{"Greedy", "Demo", "Greedy", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	m.WriteTrace(&b)
	m.Record()
	if err := m.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if m.State().Captures == [NumPlayers]int{} {
		t.Fatal("the small game has no capture")
	}
	return b.Bytes(), m.Log()
}

// The state block is the state's text form: every parsed state writes
// back the lines it was read from.
func TestStateTextRoundTrip(t *testing.T) {
	trace, _ := smallTrace(t)
	tr, err := ParseTrace(bytes.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.States) != smallConfig.NbRounds+1 || len(tr.Moves) != smallConfig.NbRounds || tr.Seed != 7 || tr.Config != smallConfig {
		t.Fatalf("parsed %d states, %d movement blocks, seed %d, config %+v", len(tr.States), len(tr.Moves), tr.Seed, tr.Config)
	}
	for r := range tr.States {
		block := appendState(nil, &tr.States[r])
		if !bytes.Contains(trace, block) {
			t.Fatalf("state %d writes %q, not in the trace", r, block)
		}
	}
}

// edit returns trace with the first occurrence of old replaced by new (the
// last with last).
func edit(t *testing.T, trace []byte, old, new string, last bool) []byte {
	t.Helper()
	i := bytes.Index(trace, []byte(old))
	if last {
		i = bytes.LastIndex(trace, []byte(old))
	}
	if i < 0 {
		t.Fatalf("no %q in the trace", old)
	}
	return append(append(append([]byte(nil), trace[:i]...), new...), trace[i+len(old):]...)
}

// The parser takes nothing but what TraceWriter writes.
func TestParseTraceStrict(t *testing.T) {
	trace, _ := smallTrace(t)
	tr, _ := ParseTrace(bytes.NewReader(trace))
	u := tr.States[1].Units
	cases := []struct{ name, old, new string }{
		{"version", "Toy 1\n", "Toy 2\n"},
		{"a setting out of range", "units 2\n", "units 9\n"},
		{"a setting missing", "walls 4\n", ""},
		{"negative seed", "seed 7\n", "seed -7\n"},
		{"three names", "names Greedy Demo Greedy Demo\n", "names Greedy Demo Greedy\n"},
		{"leading zero", "\nround 1\n", "\nround 01\n"},
		{"wrong round", "\nround 1\n", "\nround 2\n"},
		{"double space", "\ncaptures ", "\ncaptures  "},
		{"negative captures", "\ncaptures 0 0 0 0\n", "\ncaptures -1 0 0 0\n"},
		{"a cell of no one", "\nunits\n", "\nunits\n"},
		{"no end of movements", "\n-1\n\nround 1\n", "\n\nround 1\n"},
		{"bad direction", "\nmovements\n", "\nmovements\n0 x\n"},
		{"unit out of range", "\nmovements\n", "\nmovements\n8 u\n"},
		{"two units on a cell", "\nunits\n0 " + rc(u[0]) + "\n1 " + rc(u[1]) + "\n", "\nunits\n0 " + rc(u[0]) + "\n1 " + rc(u[0]) + "\n"},
		{"data after the end", "", ""},
		{"no final newline", "", ""},
	}
	for _, c := range cases {
		var mut []byte
		switch c.name {
		case "a cell of no one":
			i := bytes.Index(trace, []byte("\nround 2\n")) + len("\nround 2\n")
			i = bytes.IndexByte(trace[i:], '\n') + i + 1 // scores
			i = bytes.IndexByte(trace[i:], '\n') + i + 1 // captures
			mut = append([]byte(nil), trace...)
			mut[i] = 'e'
		case "data after the end":
			mut = append(append([]byte(nil), trace...), "\nmovements\n-1\n"...)
		case "no final newline":
			mut = trace[:len(trace)-1]
		default:
			mut = edit(t, trace, c.old, c.new, false)
		}
		if _, err := ParseTrace(bytes.NewReader(mut)); !errors.Is(err, course.ErrTrace) {
			t.Errorf("%s: ParseTrace = %v, want a course.ErrTrace", c.name, err)
		}
	}
	if _, err := ParseTrace(bytes.NewReader(trace)); err != nil {
		t.Errorf("the trace itself: %v", err)
	}
}

func rc(u Unit) string { return itoa(u.Row) + " " + itoa(u.Col) }

func itoa(n int) string { return strconv.Itoa(n) }

// Without commands, Verify checks the rules: a state that is not what the
// printed moves make of the one before, a move the rules do not allow, a
// map that is not the seed's and other settings than asked are
// divergences.
func TestVerifyRules(t *testing.T) {
	trace, log := smallTrace(t)
	tr, _ := ParseTrace(bytes.NewReader(trace))
	if err := Verify(trace, nil, nil); err != nil {
		t.Fatalf("Verify = %v", err)
	}
	// A free cell for a unit to stand on in the last state, and a wall.
	last := &tr.States[len(tr.States)-1]
	free := -1
	for i, v := range last.Grid {
		if v != Wall && last.At(i) < 0 && free < 0 {
			free = i
		}
	}
	cols := smallConfig.Cols
	lastUnit := "\n" + itoa(len(last.Units)-1) + " " + rc(last.Units[len(last.Units)-1]) + "\n"
	mustMove := firstMove(tr)
	cases := []struct {
		name  string
		trace []byte
		field string
	}{
		{"another seed", edit(t, trace, "seed 7\n", "seed 8\n", false), ""},
		{"a unit elsewhere", edit(t, trace, lastUnit, "\n"+itoa(len(last.Units)-1)+" "+itoa(free/cols)+" "+itoa(free%cols)+"\n", true), "position"},
		{"a score", edit(t, trace, "\nscores ", "\nscores 1", true), "scores"},
		{"a movement left out", edit(t, trace, "\nmovements\n"+moveText(mustMove), "\nmovements\n", false), ""},
		{"a second move of a unit", edit(t, trace, "\nmovements\n"+moveText(mustMove), "\nmovements\n"+moveText(mustMove)+moveText(mustMove), false), "movement"},
	}
	for _, c := range cases {
		err := Verify(c.trace, nil, nil)
		var d *course.Divergence
		if !errors.As(err, &d) || !strings.Contains(d.Field, c.field) {
			t.Errorf("%s: Verify = %v, want a divergence of %q", c.name, err, c.field)
		}
	}
	other := smallConfig
	other.Capture++
	var d *course.Divergence
	if err := Verify(trace, nil, &other); !errors.As(err, &d) || d.Field != "settings" {
		t.Errorf("Verify with other settings = %v", err)
	}
	if err := Verify(trace, log, &other); !errors.As(err, &d) || d.Field != "settings" {
		t.Errorf("Verify with commands and other settings = %v", err)
	}
}

// firstMove is the first printed movement of the trace.
func firstMove(tr *Trace) Command {
	for _, ms := range tr.Moves {
		if len(ms) > 0 {
			return ms[0]
		}
	}
	return Command{ID: -1}
}

func moveText(c Command) string { return itoa(c.ID) + " " + string(dirChars[c.Dir]) + "\n" }
