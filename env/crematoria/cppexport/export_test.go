package cppexport

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"jgym/env/crematoria"
	"jgym/env/crematoria/policy"
)

// TestTraceMatchesPolicyBot plays the exported player (cpp:AI<Name>.cc,
// compiled with jgym's kit and run as its own process) and the Go policy
// bot (policy:model.onnx) in the same seats of the same games against
// three Demos: the traces must be equal byte for byte.
func TestTraceMatchesPolicyBot(t *testing.T) {
	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) {
			b := compiled(t, tm, false, nil)
			type game struct {
				seed  int
				seats []int // seats of the player under test; Demo elsewhere
				cfg   crematoria.Config
			}
			games := []game{
				{1, []int{0}, crematoria.DefaultConfig()},
				{2, []int{1}, crematoria.DefaultConfig()},
				{3, []int{2}, crematoria.DefaultConfig()},
				{4, []int{3}, crematoria.DefaultConfig()},
				{5, []int{0, 2}, crematoria.DefaultConfig()}, // two instances in one game
			}
			switch {
			case raceEnabled:
				games = []game{{1, []int{0}, shortConfig(12)}, {2, []int{2, 3}, shortConfig(12)}}
			case testing.Short():
				games = []game{{1, []int{0}, shortConfig(30)}, {2, []int{3}, shortConfig(30)}}
			}
			for _, g := range games {
				var names [4]string
				var cpp, gob [4]crematoria.Bot
				for p := range names {
					names[p] = "Demo"
					cpp[p], gob[p] = crematoria.NewDemo(p, g.seed), crematoria.NewDemo(p, g.seed)
				}
				for _, p := range g.seats {
					names[p] = tm.name
					cpp[p] = b.prog.NewBot(p, g.seed)
					gob[p] = policy.NewBot(b.model, p)
				}
				want, orders := play(t, g.cfg, g.seed, names, gob)
				got, _ := play(t, g.cfg, g.seed, names, cpp)
				if !bytes.Equal(got, want) {
					t.Errorf("seed %d, seats %v: the trace of cpp:AI%s.cc differs from policy:%s's (line %d)",
						g.seed, g.seats, tm.name, tm.path, firstDiffLine(got, want))
					continue
				}
				n := 0
				for _, p := range g.seats {
					n += orders[p]
				}
				if n == 0 {
					t.Errorf("seed %d: the policy gave no orders: the comparison proves little", g.seed)
				}
				t.Logf("seed %d, seats %v: %d rounds, %d orders, traces equal (%d bytes)", g.seed, g.seats, g.cfg.NbRounds, n, len(want))
			}
		})
	}
}

func firstDiffLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range la {
		if i >= len(lb) || !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return len(la) + 1
}

// recorder wraps a bot and records, every round, what the Go policy bot
// computes from the same state: its observation and its logits.
type recorder struct {
	inner  crematoria.Bot
	m      *policy.Model
	me     int
	ob     crematoria.Observer
	rounds []goRound
}

type goRound struct {
	round                    int
	board, units, glob, mask []byte
	logits                   []float32
}

func (r *recorder) Play(s *crematoria.State, o *crematoria.Orders) {
	u := r.m.NumSlots
	g := goRound{round: s.Round,
		board: make([]byte, crematoria.BoardBytes), units: make([]byte, u*crematoria.UnitFeatures),
		glob: make([]byte, 4*crematoria.NumGlobals), mask: make([]byte, u*crematoria.NumDirs)}
	r.ob.Board(s, r.me, g.board)
	r.ob.Units(s, r.me, g.units)
	r.ob.Globals(s, r.me, g.glob)
	r.ob.Mask(s, r.me, g.mask)
	lg, err := r.m.Logits(nil, g.board, g.units, g.glob, g.mask)
	if err != nil {
		panic(err)
	}
	g.logits = append([]float32(nil), lg...)
	r.rounds = append(r.rounds, g)
	r.inner.Play(s, o)
}

func (r *recorder) Err() error {
	if be, ok := r.inner.(crematoria.BotErr); ok {
		return be.Err()
	}
	return nil
}

// dumpRound is one line of the debug variant's stderr.
type dumpRound struct {
	round                    int
	board, units, glob, mask []byte
	logits                   []byte // float bits, big-endian hex order
}

var dumpRE = regexp.MustCompile(`^jgym-dump (\d+) board ([0-9a-f]+) units ([0-9a-f]+) globals ([0-9a-f]+) mask ([0-9a-f]+) logits ([0-9a-f]+)$`)

func parseDump(t *testing.T, out []byte) []dumpRound {
	t.Helper()
	var rs []dumpRound
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "jgym-dump ") {
			continue
		}
		m := dumpRE.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("bad dump line %.100q", line)
		}
		var d dumpRound
		d.round, _ = strconv.Atoi(m[1])
		var err error
		for k, dst := range []*[]byte{&d.board, &d.units, &d.glob, &d.mask, &d.logits} {
			if *dst, err = hex.DecodeString(m[k+2]); err != nil {
				t.Fatal(err)
			}
		}
		rs = append(rs, d)
	}
	return rs
}

// be32 reads float bits written as 8 hex digits (most significant first).
func be32(b []byte, i int) uint32 {
	return uint32(b[4*i])<<24 | uint32(b[4*i+1])<<16 | uint32(b[4*i+2])<<8 | uint32(b[4*i+3])
}

// TestInputsAndLogitsMatchGo runs the debug variant of the exported player,
// which writes its network inputs and its logits to stderr every round, and
// compares them with what the Go encoder (crematoria.Observer) and the Go
// interpreter compute from the same states: the four observation tensors
// must be equal element for element and the logits bit for bit.
func TestInputsAndLogitsMatchGo(t *testing.T) {
	rounds, games := 120, []seatGame{{11, 0}, {12, 1}, {13, 2}, {14, 3}}
	switch {
	case raceEnabled:
		rounds, games = 12, games[:2]
	case testing.Short():
		rounds = 40
	}
	testInputsAndLogits(t, rounds, games)
}

// TestNativeFlagsStayExact compiles the exported player for the CPU at hand
// at -O3 (-march=native: fused multiply-add and wide vectors where the CPU
// has them): the file forbids contracting products and sums, so the logits
// stay equal to the Go bot's bit for bit.
func TestNativeFlagsStayExact(t *testing.T) {
	rounds := 60
	switch {
	case raceEnabled:
		rounds = 8
	case testing.Short():
		rounds = 20
	}
	testInputsAndLogits(t, rounds, []seatGame{{21, 1}}, "-O3", "-march=native")
}

// seatGame is a game with the player under test in one seat.
type seatGame struct{ seed, seat int }

func testInputsAndLogits(t *testing.T, rounds int, games []seatGame, flags ...string) {
	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) {
			var stderr syncBuffer
			b := compiled(t, tm, true, &stderr, flags...)
			u := b.model.NumSlots
			for _, g := range games {
				stderr.Reset()
				var names [4]string
				var bots [4]crematoria.Bot
				for p := range bots {
					names[p] = "Demo"
					bots[p] = crematoria.NewDemo(p, g.seed)
				}
				bot := b.prog.NewBot(g.seat, g.seed)
				rec := &recorder{inner: bot, m: b.model, me: g.seat}
				names[g.seat], bots[g.seat] = tm.name, rec
				play(t, shortConfig(rounds), g.seed, names, bots)
				bot.Close() // waits for the process, and so for its stderr
				dumps := parseDump(t, stderr.Bytes())
				if len(dumps) != len(rec.rounds) {
					t.Fatalf("seed %d: %d rounds dumped, %d played", g.seed, len(dumps), len(rec.rounds))
				}
				worst := 0
				for i, d := range dumps {
					w := rec.rounds[i]
					if d.round != w.round {
						t.Fatalf("dump %d is round %d, want %d", i, d.round, w.round)
					}
					for _, c := range []struct {
						name      string
						got, want []byte
					}{{"board", d.board, w.board}, {"units", d.units, w.units}, {"mask", d.mask, w.mask}} {
						if !bytes.Equal(c.got, c.want) {
							t.Fatalf("seed %d seat %d round %d: %s differs at byte %d", g.seed, g.seat, d.round, c.name, diffAt(c.got, c.want))
						}
					}
					for k := 0; k < crematoria.NumGlobals; k++ {
						if got, want := be32(d.glob, k), math.Float32bits(leFloat(w.glob, k)); got != want {
							t.Fatalf("seed %d round %d: globals[%d] = %g, want %g", g.seed, d.round, k, math.Float32frombits(got), math.Float32frombits(want))
						}
					}
					diffs := 0
					for k := 0; k < u*crematoria.NumDirs; k++ {
						if got, want := be32(d.logits, k), math.Float32bits(w.logits[k]); got != want {
							diffs++
							if diffs <= 3 {
								t.Errorf("seed %d round %d: logit[%d][%d] = %g (%08x), Go %g (%08x)", g.seed, d.round,
									k/crematoria.NumDirs, k%crematoria.NumDirs, math.Float32frombits(got), got, w.logits[k], want)
							}
						}
					}
					worst = max(worst, diffs)
				}
				if worst > 0 {
					t.Fatalf("seed %d: logits differ (up to %d per round)", g.seed, worst)
				}
				t.Logf("seed %d seat %d: %d rounds, observations and %d logits per round equal bit for bit", g.seed, g.seat, len(dumps), u*crematoria.NumDirs)
			}
		})
	}
}

func leFloat(b []byte, i int) float32 {
	return math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
}

func diffAt(a, b []byte) int {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return len(a)
}

// compileObject compiles a bot file against the kit into an object file
// with the flags given after the usual ones.
func compileObject(t *testing.T, src, obj string, flags ...string) {
	t.Helper()
	args := append([]string{"-std=c++11", "-O2", "-c", "-I", kitDir, "-o", obj, src}, flags...)
	out, err := exec.Command("g++", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("g++ %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if len(out) > 0 {
		t.Fatalf("g++ %s printed:\n%s", strings.Join(args, " "), out)
	}
}

var (
	objMu   sync.Mutex
	objects = map[string]string{}
)

// strictObject compiles the exported file of a model with every warning
// as an error, once per test binary, and returns the object file.
func strictObject(t *testing.T, tm testModel) string {
	t.Helper()
	b := compiled(t, tm, false, nil)
	objMu.Lock()
	defer objMu.Unlock()
	if obj, ok := objects[b.src]; ok {
		return obj
	}
	obj := strings.TrimSuffix(b.src, ".cc") + ".o"
	compileObject(t, b.src, obj, "-Wall", "-Wextra", "-Wpedantic", "-Werror")
	objects[b.src] = obj
	return obj
}

// TestCompilesWithoutWarnings compiles every exported file with
// g++ -std=c++11 -O2 -Wall -Wextra -Wpedantic -Werror.
func TestCompilesWithoutWarnings(t *testing.T) {
	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) { strictObject(t, tm) })
	}
}

// symbols returns the defined data symbols (nm types b, d, g, r, s, u, v
// in either case, but for the compiler's anonymous .LC constants) and the
// undefined symbols of an object file.
func symbols(t *testing.T, obj string) (data, undef map[string]bool) {
	t.Helper()
	out, err := exec.Command("nm", obj).Output()
	if err != nil {
		t.Fatalf("nm %s: %v", obj, err)
	}
	data, undef = map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "U":
			undef[f[1]] = true
		case len(f) == 2 && f[0] == "w":
			undef[f[1]] = true
		case len(f) == 3 && strings.Contains("bBdDgGrRsSuUvV", f[1]) && !strings.HasPrefix(f[2], ".LC"):
			data[f[2]] = true
		}
	}
	return data, undef
}

// allowedCalls are the functions the exported code may call beyond what
// the kit's own players call: memory, copies and the standard library's
// exceptions, nothing that touches a file, the clock or the system.
var allowedCalls = regexp.MustCompile(`^(memcpy|memmove|memset|_Znwm|_ZdlPv|_ZdlPvm|_ZSt17__throw_bad_alloc[v]?|_ZSt20__throw_length_error.*|_ZSt24__throw_out_of_range_fmt.*|_ZSt28__throw_bad_array_new_lengthv|_ZSt19__throw_logic_error.*)$`)

// kitTypeData are the vtables and type information of the kit's classes and
// of the player's own class (#), which any player may need.
var kitTypeData = regexp.MustCompile(`^_ZT[VIS](6Player|4Info|5State|8Settings|6Action|16Random_generator|#)$`)

// TestNoGlobals checks the rules of the course's judge on the object file
// of each exported player: it defines no data of its own (no global or
// static variable: every data symbol is one that the kit's Null or Demo
// player also has, such as typeinfo and vtables, besides the compiler's
// anonymous constants), and it calls nothing beyond what those players
// call, memory allocation and copies.
func TestNoGlobals(t *testing.T) {
	needGXX(t)
	if _, err := exec.LookPath("nm"); err != nil {
		t.Skip("nm not found")
	}
	dir := t.TempDir()
	baseData, baseUndef := map[string]bool{}, map[string]bool{}
	for _, name := range []string{"Null", "Demo"} {
		obj := filepath.Join(dir, name+".o")
		compileObject(t, filepath.Join(kitDir, "AI"+name+".cc"), obj)
		d, u := symbols(t, obj)
		for s := range d {
			baseData[strings.ReplaceAll(s, fmt.Sprint(len(name))+name, "#")] = true
		}
		for s := range u {
			baseUndef[s] = true
		}
	}
	// check returns what is wrong with the object of player name.
	check := func(obj, name string) (bad []string, ndata, nundef int) {
		data, undef := symbols(t, obj)
		if len(data) == 0 {
			t.Fatal("nm found no data symbol at all (typeinfo expected): is the check working?")
		}
		for s := range data {
			s2 := strings.ReplaceAll(s, fmt.Sprint(len(name))+name, "#")
			if !baseData[s2] && !kitTypeData.MatchString(s2) {
				bad = append(bad, "data symbol "+s+": the kit's players have none such (a global or static variable?)")
			}
		}
		for s := range undef {
			if !baseUndef[s] && !allowedCalls.MatchString(s) {
				bad = append(bad, "calls "+s+", which neither the kit's players nor the allowed list do")
			}
		}
		return bad, len(data), len(undef)
	}

	// The check catches globals, static locals, static members and calls.
	badSrc := filepath.Join(dir, "AIBad.cc")
	if err := os.WriteFile(badSrc, []byte(`#include "Player.hh"
#define PLAYER_NAME Bad
int counter;
struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }
  static int member;
  int next() { static int n = 0; return ++n; }
  virtual void play() { counter += next() + member; if (counter < 0) system("true"); }
};
int PLAYER_NAME::member = 1;
RegisterPlayer(PLAYER_NAME);
`), 0o644); err != nil {
		t.Fatal(err)
	}
	compileObject(t, badSrc, filepath.Join(dir, "Bad.o"))
	bad, _, _ := check(filepath.Join(dir, "Bad.o"), "Bad")
	for _, want := range []string{"counter", "_ZZN3Bad4nextEvE1n", "_ZN3Bad6memberE", "calls system"} {
		found := false
		for _, b := range bad {
			found = found || strings.Contains(b, want)
		}
		if !found {
			t.Errorf("the check misses %s in a bad player: %q", want, bad)
		}
	}

	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) {
			bad, ndata, nundef := check(strictObject(t, tm), tm.name)
			for _, b := range bad {
				t.Error(b)
			}
			if len(bad) == 0 {
				t.Logf("%d data symbols, all the kit's or the player's class's; %d undefined symbols, all allowed", ndata, nundef)
			}
		})
	}
}

// TestSourceRules checks the text of an exported file: one file, the
// kit's header only, no static data, no file or system call.
func TestSourceRules(t *testing.T) {
	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) {
			raw, err := os.ReadFile(tm.path)
			if err != nil {
				t.Fatal(err)
			}
			src, err := Export(raw, Options{Name: tm.name})
			if err != nil {
				t.Fatal(err)
			}
			text := string(src)
			var includes []string
			for _, line := range strings.Split(text, "\n") {
				l := strings.TrimSpace(line)
				if strings.HasPrefix(l, "#include") {
					includes = append(includes, l)
				}
				if strings.HasPrefix(l, "//") {
					continue
				}
				if strings.Contains(l, "static ") && !strings.HasPrefix(l, "static Player* factory()") && !strings.HasPrefix(l, "static void stamp(") {
					t.Errorf("static: %s", l)
				}
			}
			if len(includes) != 1 || includes[0] != `#include "Player.hh"` {
				t.Errorf("includes %q, want only Player.hh", includes)
			}
			code := regexp.MustCompile(`(?m)//.*$`).ReplaceAllString(text, "")
			forbidden := regexp.MustCompile(`\b(FILE|fopen|freopen|fstream|ifstream|ofstream|system|popen|fork|exec\w*|socket|getenv|time|clock|srand|rand|exit|_exit|abort|thread|mutex|asm|__asm__|goto|global|extern|volatile|cin|cout|printf|scanf|getchar|putchar)\b`)
			if m := forbidden.FindAllString(code, -1); len(m) > 0 {
				t.Errorf("forbidden names in the code: %q", m)
			}
			if !strings.Contains(code, "RegisterPlayer(PLAYER_NAME);") || !strings.Contains(code, "#define PLAYER_NAME "+tm.name) {
				t.Error("the player is not registered with RegisterPlayer(PLAYER_NAME)")
			}
		})
	}
}

func TestExportErrors(t *testing.T) {
	raw, err := os.ReadFile("testdata/small.onnx")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"", "2fast", "Mine-2", "ThirteenChars", "Player", "None", "class", "jgymX", "a__b"} {
		if _, err := Export(raw, Options{Name: name}); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	for _, name := range []string{"Mine", "ppo_v2", "TwelveChars_"} {
		if err := CheckName(name); err != nil {
			t.Errorf("name %q refused: %v", name, err)
		}
	}
	if _, err := Export([]byte("not a model"), Options{Name: "Mine"}); err == nil {
		t.Error("garbage accepted")
	}
	// An operator the interpreter runs but the exporter would not know.
	saved := emitters["Where"]
	delete(emitters, "Where")
	_, err = Export(raw, Options{Name: "Mine"})
	emitters["Where"] = saved
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "operator Where") {
		t.Errorf("without Where: err = %v, want ErrUnsupported naming Where", err)
	}
	// The output is deterministic.
	a, err := Export(raw, Options{Name: "Mine", Source: "x.onnx"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Export(raw, Options{Name: "Mine", Source: "x.onnx"})
	if !bytes.Equal(a, b) {
		t.Error("two exports of the same model differ")
	}
}
