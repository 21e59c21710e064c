package cppexport_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"jgym/cppexport"
	"jgym/game"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/env/crematoria"
	"jgym/env/crematoria/riddick"
	"jgym/policy"
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
					cpp[p] = crematoria.Def.NewCppBot(b.prog, p, g.seed)
					gob[p] = crematoria.Def.NewPolicyBot(b.model, p)
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
// computes from the same state: the tensors its network reads (the
// encoder's, with the opponents relabelled for a model by score) and its
// logits.
type recorder struct {
	inner crematoria.Bot
	// driver, when set, plays the seat instead: inner still sees every
	// state and decides, but its orders are dropped (a Riddick drives
	// the units up to the surface, where the sun_paths' escape is).
	driver crematoria.Bot
	scrap  crematoria.Orders
	m      *policy.Model
	me     int
	ob     crematoria.Observer
	rounds []goRound
}

type goRound struct {
	round                    int
	board, units, glob, mask []byte
	paths, sun               []byte
	logits                   []float32
	reordered                bool // the opponents by score were not by seat
}

func (r *recorder) Play(s *crematoria.State, o *crematoria.Orders) {
	u := r.m.NumSlots
	g := goRound{round: s.Round,
		board: make([]byte, crematoria.BoardBytes), units: make([]byte, u*crematoria.UnitFeatures),
		glob: make([]byte, 4*crematoria.NumGlobals), mask: make([]byte, u*crematoria.NumDirs),
		paths: make([]byte, u*crematoria.PathColumns), sun: make([]byte, u*crematoria.SunColumns)}
	r.ob.Board(s, r.me, g.board)
	r.ob.Units(s, r.me, g.units)
	r.ob.Globals(s, r.me, g.glob)
	r.ob.Mask(s, r.me, g.mask)
	r.ob.Paths(s, r.me, g.paths)
	r.ob.SunPaths(s, r.me, g.sun)
	if r.m.OpponentOrder == policy.OpponentsByScore {
		seat := bytes.Clone(g.glob)
		crematoria.OrderOpponentsByScore(g.board, g.units, g.glob)
		g.reordered = !bytes.Equal(g.glob, seat)
	}
	// The model's version's tensors: crematoria-obs-1 models take the
	// first four, crematoria-obs-2 models the first five.
	lg, err := r.m.Logits(nil, [][]byte{g.board, g.units, g.glob, g.mask, g.paths, g.sun}[:len(r.m.Signature.Inputs)])
	if err != nil {
		panic(err)
	}
	g.logits = append([]float32(nil), lg...)
	r.rounds = append(r.rounds, g)
	if r.driver == nil {
		r.inner.Play(s, o)
		return
	}
	r.scrap.Reset(len(s.Units))
	r.inner.Play(s, &r.scrap)
	r.driver.Play(s, o)
}

func (r *recorder) Err() error {
	if be, ok := r.inner.(game.BotErr); ok {
		return be.Err()
	}
	return nil
}

// dumpRound is one line of the debug variant's stderr.
type dumpRound struct {
	round                    int
	board, units, glob, mask []byte
	paths, sun               []byte
	logits                   []byte // float bits, big-endian hex order
}

// The player dumps every input of the game's signature (crematoria-obs-3),
// also for a model of an older version, which reads the first four or five.
var dumpRE = regexp.MustCompile(`^jgym-dump (\d+) board ([0-9a-f]+) units ([0-9a-f]+) globals ([0-9a-f]+) action_mask ([0-9a-f]+) paths ([0-9a-f]+) sun_paths ([0-9a-f]+) logits ([0-9a-f]+)$`)

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
		for k, dst := range []*[]byte{&d.board, &d.units, &d.glob, &d.mask, &d.paths, &d.sun, &d.logits} {
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
// interpreter compute from the same states: the five observation tensors
// must be equal element for element and the logits bit for bit.
func TestInputsAndLogitsMatchGo(t *testing.T) {
	rounds, games := 120, []seatGame{{11, 0, false, false}, {12, 1, true, false}, {13, 2, false, false}, {14, 3, true, false}}
	switch {
	case raceEnabled:
		rounds, games = 40, games[1:2]
	case testing.Short():
		rounds = 40
	}
	testInputsAndLogits(t, models(t), rounds, games)
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
	testInputsAndLogits(t, models(t), rounds, []seatGame{{21, 1, true, false}}, "-O3", "-march=native")
}

// TestPlainV4StaysExact compiles the exported player with jgym_v4 as the
// plain struct that compilers without g++'s vector extension get
// (-DJGYM_PLAIN_V4): its logits too equal the Go bot's bit for bit.
func TestPlainV4StaysExact(t *testing.T) {
	rounds := 30
	switch {
	case raceEnabled:
		rounds = 8
	case testing.Short():
		rounds = 15
	}
	testInputsAndLogits(t, models(t), rounds, []seatGame{{22, 2, true, false}}, "-DJGYM_PLAIN_V4")
}

// seatGame is a game with the player under test in one seat, its units
// moved by a Riddick when riddick is set, and Demos elsewhere, but for a
// Riddick in the seat across the table when rival is set.
type seatGame struct {
	seed, seat     int
	riddick, rival bool
}

func testInputsAndLogits(t *testing.T, ms []testModel, rounds int, games []seatGame, flags ...string) {
	for _, tm := range ms {
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
				if g.rival {
					p := (g.seat + 2) % 4
					names[p], bots[p] = "Riddick", riddick.New(p, g.seed)
				}
				bot := crematoria.Def.NewCppBot(b.prog, g.seat, g.seed)
				rec := &recorder{inner: bot, m: b.model, me: g.seat}
				if g.riddick {
					rec.driver = riddick.New(g.seat, g.seed)
				}
				names[g.seat], bots[g.seat] = tm.name, rec
				play(t, shortConfig(rounds), g.seed, names, bots)
				bot.Close() // waits for the process, and so for its stderr
				dumps := parseDump(t, stderr.Bytes())
				if len(dumps) != len(rec.rounds) {
					t.Fatalf("seed %d: %d rounds dumped, %d played", g.seed, len(dumps), len(rec.rounds))
				}
				worst, surface, trips, reordered := 0, 0, 0, 0
				for i, d := range dumps {
					w := rec.rounds[i]
					if d.round != w.round {
						t.Fatalf("dump %d is round %d, want %d", i, d.round, w.round)
					}
					if w.reordered {
						reordered++
					}
					for _, c := range []struct {
						name      string
						got, want []byte
					}{{"board", d.board, w.board}, {"units", d.units, w.units}, {"mask", d.mask, w.mask}, {"paths", d.paths, w.paths}, {"sun_paths", d.sun, w.sun}} {
						if !bytes.Equal(c.got, c.want) {
							t.Fatalf("seed %d seat %d round %d: %s differs at byte %d", g.seed, g.seat, d.round, c.name, diffAt(c.got, c.want))
						}
					}
					// What the sun_paths compared held: units of mine on the
					// surface (escape columns), gems within reach.
					n := crematoria.NumDirs
					for id := 0; id < u; id++ {
						if w.units[id*crematoria.UnitFeatures] == 0 { // not mine
							continue
						}
						row := w.sun[id*crematoria.SunColumns : (id+1)*crematoria.SunColumns]
						if bytes.ContainsRune(row[:n], 1) || bytes.ContainsRune(row[2*n:3*n], 1) {
							surface++
						}
						if bytes.ContainsRune(row[3*n:4*n], 0) {
							trips++
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
				t.Logf("seed %d seat %d: %d rounds, observations and %d logits per round equal bit for bit; sun_paths of %d units on the surface, %d with a gem within reach",
					g.seed, g.seat, len(dumps), u*crematoria.NumDirs, surface, trips)
				if g.riddick && rounds >= 40 && (surface == 0 || trips == 0) {
					t.Errorf("seed %d: the sun_paths compared had %d units on the surface and %d gems within reach", g.seed, surface, trips)
				}
				if b.model.OpponentOrder == policy.OpponentsByScore {
					t.Logf("seed %d: the opponents by score were not by seat in %d rounds", g.seed, reordered)
					if rounds >= 40 && reordered == 0 {
						t.Errorf("seed %d: the opponents by score were by seat in every round: the comparison proves little", g.seed)
					}
				}
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

func TestExportErrors(t *testing.T) {
	raw, err := os.ReadFile("testdata/small.onnx")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"", "2fast", "Mine-2", "ThirteenChars", "Player", "None", "class", "jgymX", "a__b"} {
		if _, err := cppexport.Export(raw, crematoriaTarget, cppexport.Options{Name: name}); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	for _, name := range []string{"Mine", "ppo_v2", "TwelveChars_"} {
		if err := crematoriaTarget.CheckName(name); err != nil {
			t.Errorf("name %q refused: %v", name, err)
		}
	}
	if _, err := cppexport.Export([]byte("not a model"), crematoriaTarget, cppexport.Options{Name: "Mine"}); err == nil {
		t.Error("garbage accepted")
	}
	// An operator the interpreter runs but the exporter would not know.
	saved := cppexport.Emitters["Where"]
	delete(cppexport.Emitters, "Where")
	_, err = cppexport.Export(raw, crematoriaTarget, cppexport.Options{Name: "Mine"})
	cppexport.Emitters["Where"] = saved
	if !errors.Is(err, cppexport.ErrUnsupported) || !strings.Contains(err.Error(), "operator Where") {
		t.Errorf("without Where: err = %v, want cppexport.ErrUnsupported naming Where", err)
	}
	// The output is deterministic.
	a, err := cppexport.Export(raw, crematoriaTarget, cppexport.Options{Name: "Mine", Source: "x.onnx"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := cppexport.Export(raw, crematoriaTarget, cppexport.Options{Name: "Mine", Source: "x.onnx"})
	if !bytes.Equal(a, b) {
		t.Error("two exports of the same model differ")
	}
}

// TestSkipsUnusedTensors: an exported player defines the skip macro of
// each tensor of the game's signature its network does not take (an
// older version's model: paths and sun_paths; the same with a metadata
// tensors naming its four), and none when it takes them all.
func TestSkipsUnusedTensors(t *testing.T) {
	raw, err := os.ReadFile("testdata/small.onnx")
	if err != nil {
		t.Fatal(err)
	}
	named := coursetest.WithMetadata(raw, policy.KeyTensors, "board,units,globals,action_mask")
	recipe, err := os.ReadFile("../python-client/examples/models/crematoria_recipe.onnx")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		model []byte
		want  []string
	}{
		{"obs-1", raw, []string{"paths", "sun_paths"}},
		{"obs-1 with tensors", named, []string{"paths", "sun_paths"}},
		{"recipe", recipe, nil},
	} {
		cc, err := cppexport.Export(c.model, crematoriaTarget, cppexport.Options{Name: "Mine"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, name := range []string{"board", "units", "globals", "action_mask", "paths", "sun_paths"} {
			if bytes.Contains(cc, []byte("\n#define "+cppexport.SkipMacro(name)+" 1\n")) {
				got = append(got, name)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: skips %v, want %v", c.name, got, c.want)
		}
	}
}
