package pandemic

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppexport"
	"jgym/internal/race"
	"jgym/policy"
)

// exportTarget is Pandemic's side of an exported player, with the policy
// signature the core gives it (Def.Export).
func exportTarget() cppexport.Target {
	t, _ := Def.Export()
	return t
}

// exported writes the C++ player of the export tests' policy for u slots
// (weights from seed) under dir, with target tg, and returns its file and
// the Go model.
func exported(t *testing.T, dir, name string, tg cppexport.Target, u int, seed uint64) (string, *policy.Model) {
	t.Helper()
	return exportedModel(t, dir, name, tg, exportPolicy(u, seed))
}

// exportedModel writes the C++ player of the ONNX model raw under dir,
// with target tg, and returns its file and the Go model.
func exportedModel(t *testing.T, dir, name string, tg cppexport.Target, raw []byte) (string, *policy.Model) {
	t.Helper()
	m, err := policy.Parse(raw, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	src, err := cppexport.Export(raw, tg, cppexport.Options{Name: name, Source: "tiny.onnx"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "AI"+name+".cc")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, m
}

// The exported player (the test policy through CppTarget, compiled with
// jgym's kit and run in the sandbox) and the Go policy bot play the same
// games against Demos: the traces are equal byte for byte, in every seat,
// and with two seats of the player in one game. The file compiles with
// g++ -std=c++11 -O2 -Wall -Wextra -Wpedantic -Werror.
func TestCppExportPlaysAsPolicyBot(t *testing.T) {
	needCpp(t)
	dir := t.TempDir()
	src, m := exportedModel(t, dir, "Tiny", exportTarget(), exportPolicyTargets(60, 1))
	out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c",
		"-I", kitDir, "-o", filepath.Join(dir, "AITiny.o"), src).CombinedOutput()
	if err != nil {
		t.Fatalf("the exported file does not compile cleanly: %v\n%s", err, out)
	}
	prog := compiled(t, src)
	games := []struct {
		seed  int
		seats []int
	}{{1, []int{0}}, {2, []int{1}}, {3, []int{2}}, {4, []int{3}}, {5, []int{0, 2}}}
	cfg := DefaultConfig()
	if race.Enabled {
		games, cfg.NbRounds = games[:2], 20
	}
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
		if orders < cfg.NbRounds {
			t.Errorf("seed %d: %d orders in %d rounds: the comparison proves little", g.seed, orders, cfg.NbRounds)
		}
		t.Logf("seed %d, seats %v: %d rounds, %d orders, traces equal", g.seed, g.seats, cfg.NbRounds, orders)
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

// A game on another board than the network's: the exported player warns
// once and gives no orders (it plays as Null), where the Go bot would stop
// the game.
func TestCppExportOtherBoard(t *testing.T) {
	needCpp(t)
	src, _ := exported(t, t.TempDir(), "Tiny", exportTarget(), 60, 1)
	cfg := DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.NbRounds = 40, 40, 20 // 15 units a player: 60 slots, as the network's
	b := Def.NewCppBot(compiled(t, src), 1, 3)
	defer b.Close()
	names := [4]string{"Demo", "Tiny", "Demo", "Demo"}
	got, err := playTrace(cfg, 3, names, [4]Bot{NewDemo(0, 3), b, NewDemo(2, 3), NewDemo(3, 3)})
	if err != nil {
		t.Fatal(err)
	}
	want, err := playTrace(cfg, 3, names, [4]Bot{NewDemo(0, 3), Null{}, NewDemo(2, 3), NewDemo(3, 3)})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("the player gave orders on a 40 x 40 board: %s", coursetest.FirstDiff(want, got))
	}
	b.Close()
	stderr, _ := b.Process().Stderr()
	const warning = "Tiny: this game has 0 unit slots, the network 60: no orders\n"
	if n := strings.Count(string(stderr), warning); n != 1 {
		t.Errorf("the warning %q appears %d times in the player's stderr:\n%s", warning, n, stderr)
	}
}

// dumpAct, added to the orders of the debug variant, writes the network's
// inputs and logits to stderr on one line: the integer tensors as one
// hex byte per element ("??" out of 0..255), the floats as the hex of
// their bits.
const dumpAct = `
{
  const char* hx = "0123456789abcdef";
  string s = "jgym-dump " + int_to_string(round());
  const long long* ints[2] = {in_board_, in_units_};
  const int lens[2] = {6 * ENC_ROWS * ENC_COLS, U * 13};
  for (int t = 0; t < 2; ++t) {
    s += ' ';
    for (int k = 0; k < lens[t]; ++k) {
      const long long v = ints[t][k];
      if (v < 0 || v > 255) {
        s += "??";
        continue;
      }
      s += hx[v >> 4];
      s += hx[v & 15];
    }
  }
  const float* floats[2] = {in_globals_, logits};
  const int flens[2] = {24, U * 5};
  for (int t = 0; t < 2; ++t) {
    s += ' ';
    for (int k = 0; k < flens[t]; ++k) {
      unsigned int b;
      memcpy(&b, &floats[t][k], 4);
      for (int q = 7; q >= 0; --q) s += hx[(b >> (4 * q)) & 15];
    }
    if (t == 0) {
      s += ' ';
      for (int k = 0; k < U * 5; ++k) {
        s += hx[in_mask_[k] >> 4];
        s += hx[in_mask_[k] & 15];
      }
    }
  }
  s += ' ';
  for (int k = 0; k < U * 35; ++k) {
    s += hx[in_targets_[k] >> 4];
    s += hx[in_targets_[k] & 15];
  }
  cerr << s << endl;
}
`

// goRound is what the Go encoder and interpreter give for one round.
type goRound struct {
	round                             int
	board, units, glob, mask, targets []byte
	logits                            []float32
}

// dumpSpectator runs the debug variant on every state without using its
// orders, records what the Go encoder and interpreter give for the same
// state, and lets inner give the seat's orders.
type dumpSpectator struct {
	t      *testing.T
	cpp    *CppBot
	m      *policy.Model
	me     int
	ob     Observer
	inner  Bot
	rounds []goRound
	moved  int // rounds whose tensors the opponents' order changed
}

func (sp *dumpSpectator) Play(s *State, o *Orders) {
	u := sp.m.NumSlots
	g := goRound{round: s.Round, board: make([]byte, BoardBytes(s.Cfg)), units: make([]byte, u*UnitFeatures),
		glob: make([]byte, 4*NumGlobals), mask: make([]byte, u*NumDirs), targets: make([]byte, u*TargetFeatures)}
	sp.ob.Board(s, sp.me, g.board)
	sp.ob.Units(s, sp.me, g.units)
	sp.ob.Globals(s, sp.me, g.glob)
	sp.ob.Mask(s, sp.me, g.mask)
	sp.ob.Targets(s, sp.me, g.targets)
	if len(sp.m.Signature.Inputs) < 5 {
		g.targets = nil // a network of pandemic-obs-1: its player skips the tensor
	}
	if sp.m.OpponentOrder == policy.OpponentsByScore {
		before := bytes.Clone(g.glob)
		OrderOpponentsByScore(g.board, g.units, g.glob)
		if !bytes.Equal(before, g.glob) {
			sp.moved++
		}
	}
	in := [][]byte{g.board, g.units, g.glob, g.mask, g.targets}
	lg, err := sp.m.Logits(nil, in[:len(sp.m.Signature.Inputs)])
	if err != nil {
		sp.t.Fatal(err)
	}
	g.logits = append([]float32(nil), lg...)
	sp.rounds = append(sp.rounds, g)
	scratch := *Def.NewOrders()
	scratch.Reset(len(s.Units))
	sp.cpp.Play(s, &scratch)
	sp.inner.Play(s, o)
}

func (sp *dumpSpectator) Err() error { return sp.cpp.Err() }

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The C++ encoder of CppTarget is the twin of Observer: a variant of the
// exported player that writes its inputs and logits every round gives the
// Go encoder's five tensors (the test policies take targets),
// element for element, and the Go interpreter's logits, bit for
// bit, in a default game against Demos and in the
// reference games on 70 x 70 boards (replayed from their commands: the
// virulent, fractional, FIXED and Chaos games, with their large scores,
// incomes, infections and masks), each seen from another seat. The
// player of the same weights whose opponent_order is score gives, after
// order_opponents(), the Go encoder's tensors relabelled by
// OrderOpponentsByScore, in two of those games.
func TestCppExportEncoderIsObserversTwin(t *testing.T) {
	needCpp(t)
	cases := map[string]traceCase{}
	for _, c := range traceCases(t) {
		cases[strings.TrimSuffix(filepath.Base(c.path), ".res.gz")] = c
	}
	tests := []struct {
		name  string // a reference game, or "" for a game against Demos
		seat  int
		score bool // the player by score
	}{
		{"", 2, false},
		{"pandemic_s201_Dummy-Demo-Null-Dummy", 3, false},
		{"pandemic_s301_Dummy-Demo-Dummy-Null", 1, false},
		{"pandemic_s701_Dummy-Demo-Null-Demo", 0, false},
		{"pandemic_s801_Chaos-Demo-Dummy-Chaos", 2, false},
		{"pandemic_s301_Dummy-Demo-Dummy-Null", 1, true},
		{"pandemic_s801_Chaos-Demo-Dummy-Chaos", 0, true},
	}
	if race.Enabled {
		tests = append(tests[:2:2], tests[5])
	}
	tg := exportTarget()
	tg.Act += dumpAct
	dir := t.TempDir()
	src, m := exportedModel(t, dir, "Dump", tg, exportPolicyTargets(60, 2))
	srcScore, mScore := exportedModel(t, dir, "DumpScore", tg,
		coursetest.WithMetadata(exportPolicyTargets(60, 2), policy.KeyOpponentOrder, policy.OpponentsByScore))
	for _, tc := range tests {
		name := tc.name
		if name == "" {
			name = "default_Demos"
		}
		src, m := src, m
		if tc.score {
			name += "_score"
			src, m = srcScore, mScore
		}
		t.Run(name, func(t *testing.T) {
			c := traceCase{seed: 8, cfg: DefaultConfig(), names: [4]string{"Demo", "Demo", "Demo", "Demo"}}
			var bots [NumPlayers]Bot
			if tc.name == "" {
				for p := range bots {
					bots[p] = NewDemo(p, c.seed)
				}
			} else {
				var ok bool
				if c, ok = cases[tc.name]; !ok || c.cmdPath == "" {
					t.Fatalf("no reference game %s with its commands", tc.name)
				}
				log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, c.cmdPath)))
				if err != nil {
					t.Fatal(err)
				}
				for p := range bots {
					bots[p] = replayBot{log, p}
				}
			}
			if NumSlots(&c.cfg) != 60 || c.cfg.Rows != 70 || c.cfg.Cols != 70 {
				t.Fatalf("not a game of the network's: %d x %d, %d slots", c.cfg.Rows, c.cfg.Cols, NumSlots(&c.cfg))
			}
			rounds := c.cfg.NbRounds
			if race.Enabled {
				rounds = 10
			}
			var stderr syncBuffer
			opts := cppOpts()
			opts.Stderr = &stderr
			sp := &dumpSpectator{t: t, cpp: Def.NewCppBot(compiledWith(t, src, opts), tc.seat, c.seed), m: m, me: tc.seat,
				inner: bots[tc.seat]}
			defer sp.cpp.Close()
			bots[tc.seat] = sp
			mt, err := Def.NewMatch(c.cfg, c.seed, c.names, bots)
			if err != nil {
				t.Fatal(err)
			}
			var trace bytes.Buffer
			mt.WriteTrace(&trace)
			for !mt.Done() && mt.Round() < rounds {
				if err := mt.PlayRound(); err != nil {
					t.Fatal(err)
				}
			}
			if c.path != "" && mt.Done() {
				if want := coursetest.ReadGz(t, c.path); !bytes.Equal(want, trace.Bytes()) {
					t.Fatalf("not the reference game: %s", coursetest.FirstDiff(want, trace.Bytes()))
				}
			}
			sp.cpp.Close() // waits for the last of its stderr
			var got []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(line, "jgym-dump ") {
					got = append(got, line)
				}
			}
			if len(got) != len(sp.rounds) {
				t.Fatalf("%d rounds dumped, %d played", len(got), len(sp.rounds))
			}
			for r := range got {
				if d := compareRound(got[r], &sp.rounds[r], c.cfg.Cols); d != "" {
					t.Fatalf("round %d: %s", sp.rounds[r].round, d)
				}
			}
			t.Logf("%d rounds seen from seat %d: the five inputs and %d logits equal every round", len(got), tc.seat, 60*NumDirs)
			if tc.score {
				t.Logf("the opponents relabelled in %d rounds", sp.moved)
				if sp.moved < len(got)/4 {
					t.Errorf("the opponents relabelled in %d of %d rounds: the test proves little", sp.moved, len(got))
				}
			}
		})
	}
}

// compareRound checks one dumped line against the Go round g; it returns
// a description of the first difference, or "".
func compareRound(line string, g *goRound, cols int) string {
	f := strings.Fields(line)
	if len(f) != 8 || f[0] != "jgym-dump" {
		return fmt.Sprintf("a dump line with %d fields", len(f))
	}
	if r, err := strconv.Atoi(f[1]); err != nil || r != g.round {
		return fmt.Sprintf("round %s dumped, %d played", f[1], g.round)
	}
	bytesOf := func(name, h string, want []byte, cols int) string {
		if len(h) != 2*len(want) {
			return fmt.Sprintf("%s: %d hex digits, want %d", name, len(h), 2*len(want))
		}
		for k := range want {
			b, err := hex.DecodeString(h[2*k : 2*k+2])
			if err == nil && b[0] == want[k] {
				continue
			}
			at := fmt.Sprintf("[%d][%d]", k/cols, k%cols)
			if name == "board" {
				n := len(want) / BoardPlanes
				at = fmt.Sprintf("[plane %d][%d][%d]", k/n, k%n/cols, k%cols)
			}
			return fmt.Sprintf("%s%s = C++ %q, Go %02x", name, at, h[2*k:2*k+2], want[k])
		}
		return ""
	}
	floatsOf := func(name, h string, want []uint32) string {
		if len(h) != 8*len(want) {
			return fmt.Sprintf("%s: %d hex digits, want %d", name, len(h), 8*len(want))
		}
		for k := range want {
			x, err := strconv.ParseUint(h[8*k:8*k+8], 16, 32)
			if err != nil || uint32(x) != want[k] {
				return fmt.Sprintf("%s[%d] = C++ %g (%s), Go %g (%08x)", name, k, math.Float32frombits(uint32(x)), h[8*k:8*k+8],
					math.Float32frombits(want[k]), want[k])
			}
		}
		return ""
	}
	glob := make([]uint32, NumGlobals)
	for k := range glob {
		glob[k] = binary.LittleEndian.Uint32(g.glob[4*k:])
	}
	logits := make([]uint32, len(g.logits))
	for k, x := range g.logits {
		logits[k] = math.Float32bits(x)
	}
	diffs := []string{
		bytesOf("board", f[2], g.board, cols), bytesOf("units", f[3], g.units, UnitFeatures), floatsOf("globals", f[4], glob),
		bytesOf("action_mask", f[5], g.mask, NumDirs), floatsOf("logits", f[6], logits),
	}
	if g.targets != nil {
		diffs = append(diffs, bytesOf("targets", f[7], g.targets, TargetFeatures))
	}
	for _, d := range diffs {
		if d != "" {
			return d
		}
	}
	return ""
}

// The kit's names cannot name an exported player, and the exported file
// includes the kit's Player.hh only.
func TestCppTargetNames(t *testing.T) {
	tg := exportTarget()
	for _, name := range []string{"Pos", "NONE", "CITY", "Path", "move", "round", "ENC_ROWS"} {
		if err := tg.CheckName(name); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	if err := tg.CheckName("Mine"); err != nil {
		t.Errorf("CheckName(Mine) = %v", err)
	}
	src, err := cppexport.Export(exportPolicy(60, 1), tg, cppexport.Options{Name: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "#include") && line != `#include "Player.hh"` {
			t.Errorf("the exported file has %q", line)
		}
	}
	if !bytes.Contains(src, []byte("pandemic-obs-1, 60 unit slots")) {
		t.Error("the header does not name pandemic-obs-1 and 60 slots")
	}
}
