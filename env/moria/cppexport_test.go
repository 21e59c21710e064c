package moria

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppexport"
	"jgym/internal/race"
	"jgym/policy"
)

// exportedModel writes the C++ player of the ONNX model raw under dir,
// with target t, and returns its file and the Go model.
func exportedModel(t *testing.T, dir, name string, tg cppexport.Target, raw []byte) (string, *policy.Model) {
	t.Helper()
	m := parseModel(t, raw)
	src, err := cppexport.Export(raw, tg, cppexport.Options{Name: name, Source: "tiny.onnx"})
	if err != nil {
		t.Fatal(err)
	}
	return writeBot(t, dir, name, string(src)), m
}

// The exported player (the test policy through CppTarget, compiled with
// jgym's kit and run in the sandbox) and the Go policy bot play the same
// games: the traces are equal byte for byte, in every seat, and with two
// seats of the player in one game.
func TestCppExportPlaysAsPolicyBot(t *testing.T) {
	needCpp(t)
	dir := t.TempDir()
	src, m := exportedModel(t, dir, "Tiny", exportTarget(), tinyPolicyTargets(100, 4))
	out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
		"-I", kitDir, src).CombinedOutput()
	if err != nil {
		t.Fatalf("the exported file does not compile cleanly: %v\n%s", err, out)
	}
	prog := compiled(t, src, cppOpts())
	games := []struct {
		seed  int
		seats []int
	}{{1, []int{0}}, {2, []int{1}}, {3, []int{2}}, {4, []int{3}}, {5, []int{0, 2}}}
	rounds := 200
	if race.Enabled {
		games, rounds = games[:2], 20
	}
	cfg := withRounds(DefaultConfig(), rounds)
	for _, g := range games {
		var names [NumPlayers]string
		var cpp, gob [NumPlayers]Bot
		for p := range names {
			names[p] = "Demo"
			cpp[p], gob[p] = NewDemo(p, g.seed), NewDemo(p, g.seed)
		}
		for _, p := range g.seats {
			names[p] = "Tiny"
			b := Def.NewCppBot(prog, p, g.seed)
			defer b.Close()
			cpp[p], gob[p] = b, Def.NewPolicyBot(m, p)
		}
		want, orders := playCounting(t, cfg, g.seed, names, gob, g.seats)
		got, _ := playCounting(t, cfg, g.seed, names, cpp, g.seats)
		if !bytes.Equal(want, got) {
			t.Errorf("seed %d, seats %v: the exported player's trace differs from the policy bot's: %s", g.seed, g.seats, coursetest.FirstDiff(want, got))
			continue
		}
		if orders < rounds {
			t.Errorf("seed %d: %d orders in %d rounds: the comparison proves little", g.seed, orders, rounds)
		}
		t.Logf("seed %d, seats %v: %d rounds, %d orders, traces equal", g.seed, g.seats, rounds, orders)
	}
}

// playCounting plays a game and returns its trace and the number of
// orders the given seats gave.
func playCounting(t *testing.T, cfg Config, seed int, names [NumPlayers]string, bots [NumPlayers]Bot, seats []int) ([]byte, int) {
	t.Helper()
	m, err := Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	n := 0
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, p := range seats {
			n += len(m.Orders(p))
		}
	}
	return buf.Bytes(), n
}

// dumpAct writes, after the orders, the network's inputs and logits to
// stderr on one line (floats as their bits in hex).
const dumpAct = `
{
  ostringstream o;
  o << "jgym-dump " << round();
  for (int k = 0; k < 7 * 3600; ++k) o << ' ' << in_board_[k];
  o << " |";
  for (int k = 0; k < U * 10; ++k) o << ' ' << in_units_[k];
  o << " |";
  for (int k = 0; k < 24; ++k) {
    unsigned int x;
    memcpy(&x, &in_globals_[k], 4);
    o << ' ' << hex << x << dec;
  }
  o << " |";
  for (int k = 0; k < U * 9; ++k) o << ' ' << int(in_mask_[k]);
  o << " |";
  for (int k = 0; k < U * 9; ++k) {
    unsigned int x;
    memcpy(&x, &logits[k], 4);
    o << ' ' << hex << x << dec;
  }
  o << " |";
  for (int k = 0; k < U * 33; ++k) o << ' ' << int(in_targets_[k]);
  cerr << o.str() << endl;
}
`

// goDump is what the dump variant of the exported player writes for
// state s and seat me: the Go encoder's tensors (relabelled by
// OrderOpponentsByScore for a model whose opponent_order is score) and
// the Go interpreter's logits; moved reports that the relabelling changed
// the tensors.
func goDump(t *testing.T, m *policy.Model, s *State, me int) (dump string, moved bool) {
	u := m.NumSlots
	var ob Observer
	obs := [][]byte{make([]byte, BoardBytes), make([]byte, u*UnitFeatures), make([]byte, 4*NumGlobals), make([]byte, u*NumDirs),
		make([]byte, u*TargetFeatures)}
	ob.Board(s, me, obs[0])
	ob.Units(s, me, obs[1])
	ob.Globals(s, me, obs[2])
	ob.Mask(s, me, obs[3])
	ob.Targets(s, me, obs[4])
	if m.OpponentOrder == policy.OpponentsByScore {
		before := bytes.Clone(obs[2])
		OrderOpponentsByScore(obs[0], obs[1], obs[2])
		moved = !bytes.Equal(before, obs[2])
	}
	logits, err := m.Logits(nil, obs[:len(m.Signature.Inputs)])
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	b = fmt.Appendf(b, "jgym-dump %d", s.Round)
	for _, x := range obs[0] {
		b = fmt.Appendf(b, " %d", x)
	}
	b = append(b, " |"...)
	for _, x := range obs[1] {
		b = fmt.Appendf(b, " %d", x)
	}
	b = append(b, " |"...)
	for k := 0; k < NumGlobals; k++ {
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(binary.LittleEndian.Uint32(obs[2][4*k:])), 16)
	}
	b = append(b, " |"...)
	for _, x := range obs[3] {
		b = fmt.Appendf(b, " %d", x)
	}
	b = append(b, " |"...)
	for _, x := range logits {
		b = append(b, ' ')
		b = strconv.AppendUint(b, uint64(math.Float32bits(x)), 16)
	}
	b = append(b, " |"...)
	for _, x := range obs[4] {
		b = fmt.Appendf(b, " %d", x)
	}
	return string(b), moved
}

// dumpSpectator runs the dump variant on every state without using its
// orders, records what it should write, and lets inner give the seat's
// orders.
type dumpSpectator struct {
	t     *testing.T
	cpp   *CppBot
	m     *policy.Model
	me    int
	inner Bot
	want  []string
	moved int // rounds whose tensors the opponents' order changed
}

func (sp *dumpSpectator) Play(s *State, o *Orders) {
	d, moved := goDump(sp.t, sp.m, s, sp.me)
	sp.want = append(sp.want, d)
	if moved {
		sp.moved++
	}
	scratch := *Def.NewOrders()
	scratch.Reset(len(s.Units))
	sp.cpp.Play(s, &scratch)
	if sp.inner != nil {
		sp.inner.Play(s, o)
	}
}

func (sp *dumpSpectator) Err() error { return sp.cpp.Err() }

// The C++ encoder of CppTarget is the twin of Observer: a variant of the
// exported player that writes its inputs and logits every round gives the
// Go encoder's five tensors (targets included: the debug variant skips
// none), element for element, and the Go interpreter's
// logits, bit for bit, in a default game against Demos and in a crowded
// game with orcs, abysses and stale troll ids (testdata/moria/aborts,
// 140 unit slots). With a model whose opponent_order is score, in a game
// with Balin at the table, the inputs after order_opponents() are the Go
// encoder's relabelled by OrderOpponentsByScore.
func TestCppExportEncoderIsObserversTwin(t *testing.T) {
	needCpp(t)
	aborts := filepath.Join(traceRoot(), "..", "aborts")
	crowded := loadConfigFile(t, filepath.Join(aborts, "crowded.cnf"))
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, filepath.Join(aborts, "moria_s460_Brawl-Brawl-Brawl-Brawl_crowded.cmd.gz"))))
	if err != nil {
		t.Fatal(err)
	}
	rounds := 100
	if race.Enabled {
		rounds = 10
	}
	withBalin := func(p int) Bot {
		if p == 1 {
			return NewBalin(p, 9)
		}
		return NewDemo(p, 9)
	}
	tests := []struct {
		name     string
		cfg      Config
		seed     int
		seat     int
		inner    func(p int) Bot
		abort    bool
		opponent string // the model's opponent_order
	}{
		{"default", withRounds(DefaultConfig(), rounds), 8, 3, func(p int) Bot { return NewDemo(p, 8) }, false, ""},
		{"crowded", crowded, 460, 0, func(p int) Bot { return replayBot{log, p} }, true, ""},
		{"score", withRounds(DefaultConfig(), rounds), 9, 2, withBalin, false, policy.OpponentsByScore},
	}
	dir := t.TempDir()
	tg := exportTarget()
	tg.Act += dumpAct
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "Dump" + strconv.Itoa(NumSlots(&tc.cfg))
			raw := tinyPolicyTargets(NumSlots(&tc.cfg), 9)
			if tc.opponent != "" {
				name += "Opp"
				raw = coursetest.WithMetadata(raw, policy.KeyOpponentOrder, tc.opponent)
			}
			src, m := exportedModel(t, dir, name, tg, raw)
			var stderr syncBuffer
			opts := cppOpts()
			opts.Stderr, opts.StderrLimit = &stderr, 1
			sp := &dumpSpectator{t: t, cpp: Def.NewCppBot(compiled(t, src, opts), tc.seat, tc.seed), m: m, me: tc.seat, inner: tc.inner(tc.seat)}
			var bots [NumPlayers]Bot
			for p := range bots {
				bots[p] = tc.inner(p)
			}
			bots[tc.seat] = sp
			_, err := playTrace(tc.cfg, tc.seed, [4]string{"A", "B", "C", "D"}, bots)
			if tc.abort != (err != nil) {
				t.Fatalf("the game ended with %v (abort expected: %v)", err, tc.abort)
			}
			sp.cpp.Close()
			var got []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(line, "jgym-dump ") {
					got = append(got, line)
				}
			}
			if len(got) != len(sp.want) {
				t.Fatalf("%d rounds dumped, %d played", len(got), len(sp.want))
			}
			sections := []string{"board", "units", "globals", "action_mask", "logits", "targets"}
			for r := range got {
				if got[r] == sp.want[r] {
					continue
				}
				g, w := strings.Split(got[r], " |"), strings.Split(sp.want[r], " |")
				for k := range w {
					if k < len(g) && g[k] == w[k] {
						continue
					}
					gf, wf := strings.Fields(g[min(k, len(g)-1)]), strings.Fields(w[k])
					i := 0
					for i < len(gf) && i < len(wf) && gf[i] == wf[i] {
						i++
					}
					t.Fatalf("round %d: %s differs at element %d: C++ %q, Go %q", r, sections[k], i-2*b2i(k == 0),
						strings.Join(gf[i:min(i+3, len(gf))], " "), strings.Join(wf[i:min(i+3, len(wf))], " "))
				}
			}
			if tc.opponent != "" && sp.moved < len(got)/4 {
				t.Errorf("the opponents' order changed the tensors in %d of %d rounds: the test proves little", sp.moved, len(got))
			}
			t.Logf("%d rounds: inputs and %d logits per round equal; the opponents relabelled in %d", len(got), m.NumSlots*NumDirs, sp.moved)
		})
	}
}

// The kit's names cannot name an exported player, and the exported file
// includes the kit's Player.hh only.
func TestCppTargetNames(t *testing.T) {
	tg := exportTarget()
	for _, name := range []string{"Balrog", "Dwarf", "Abyss", "None", "Pos"} {
		if err := tg.CheckName(name); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	src, err := cppexport.Export(tinyPolicy(100, 4), tg, cppexport.Options{Name: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "#include") && line != `#include "Player.hh"` {
			t.Errorf("the exported file has %q", line)
		}
	}
	if !bytes.Contains(src, []byte("moria-obs-1, 100 unit slots")) {
		t.Error("the header does not name moria-obs-1 and 100 slots")
	}
}

// exportTarget is the target jgym export-cpp uses: CppTarget with the
// signature of Moria's policies.
func exportTarget() cppexport.Target {
	tg, _ := Def.Export()
	return tg
}
