package gametest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"jgym/course/coursetest"
	"jgym/env"
	"jgym/game"
)

// testStates checks saved states and trace starts: a game saved at a
// round and restored (into its own instance and into another) continues
// exactly as the original, observation for observation, reward for
// reward, credit and trace byte for byte; damaged, forged and foreign
// states are refused with env.ErrBadState; a game started from a round of
// every reference trace with a command file, at several rounds, played on
// with the file's commands gives the reference trace.
func testStates[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	t.Run("Continue", func(t *testing.T) {
		for _, k := range []int{0, 1, 9, 31} {
			testContinue(t, d, o, k)
		}
	})
	t.Run("BadStates", func(t *testing.T) { testBadStates(t, d) })
	t.Run("TraceStarts", func(t *testing.T) { testTraceStarts(t, d, o) })
	t.Run("Copy", func(t *testing.T) { testCopies(t, d, o) })
	t.Run("Rebuild", func(t *testing.T) { testRebuild(t, d, o) })
}

// bufTraces collects the traces an instance writes, one buffer per game.
type bufTraces struct{ bufs []*bytes.Buffer }

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

func (b *bufTraces) open(int, int64) (io.WriteCloser, error) {
	buf := new(bytes.Buffer)
	b.bufs = append(b.bufs, buf)
	return nopCloser{buf}, nil
}

// stateSetup is the setup of the saved-state tests: two learners, the
// Demo and the strong bot, shuffled seats, per-unit credit where the game
// has it.
func stateSetup[C game.Config, G, S any, D game.Dir](d *game.Def[C, G, S, D]) env.Setup {
	return env.Setup{Seats: []string{"", "Demo", "", d.StrongBot}, Shuffle: true, UnitRewards: d.Credit != nil}
}

// step is what one env step gave.
type step struct {
	obs    *env.Out
	reward []float32
	credit []float32
	done   bool
}

// playSteps plays n steps (or to the game's end) with actions drawn from
// rng over the action mask, returning what each gave.
func playSteps(t *testing.T, in env.Instance, spec env.Spec, l int, rng *rand.Rand, n int) []step {
	t.Helper()
	var out []step
	act := make([]byte, l*spec.Action.Bytes())
	for range n {
		o := env.NewOut(spec, l)
		in.Observe(o)
		sampleMasked(rng, spec, o, act)
		st := step{obs: o, reward: make([]float32, l)}
		done, err := in.Step(act, nil, st.reward)
		if err != nil {
			t.Fatal(err)
		}
		st.done = done
		if ur, ok := in.(env.UnitRewarder); ok && spec.UnitReward.Name != "" {
			st.credit = make([]float32, l*spec.UnitReward.Bytes()/4)
			ur.UnitRewards(st.credit)
		}
		out = append(out, st)
		if done {
			break
		}
	}
	return out
}

// testContinue saves a game at round k, plays on, restores it into the
// same instance and into a fresh one, plays the same actions and compares
// everything.
func testContinue[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options, k int) {
	setup := stateSetup(d)
	a, f := newInstance(t, d, setup)
	b, _ := newInstance(t, d, setup)
	spec, l := f.Spec(), f.Learners()
	if k >= spec.NumRounds {
		return
	}
	var ta, tb bufTraces
	a.(env.Tracer).SetTrace(ta.open)
	b.(env.Tracer).SetTrace(tb.open)
	if err := a.Reset(int64(40 + k)); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(k), 5))
	playSteps(t, a, spec, l, rng, k)
	state, err := a.(env.Saver).SaveState(nil)
	if err != nil {
		t.Fatalf("save at round %d: %v", k, err)
	}
	n := 40
	if !o.short && k == 9 {
		n = spec.NumRounds // to the end of the game
	}
	seed := uint64(1000 + k)
	want := playSteps(t, a, spec, l, rand.New(rand.NewPCG(seed, 6)), n)
	wantTrace := bytes.Clone(ta.bufs[0].Bytes())
	for _, c := range []struct {
		name string
		in   env.Instance
		tr   *bufTraces
	}{{"same instance", a, &ta}, {"other instance", b, &tb}} {
		if err := c.in.(env.Saver).RestoreState(state); err != nil {
			t.Fatalf("%s: restore at round %d: %v", c.name, k, err)
		}
		got := playSteps(t, c.in, spec, l, rand.New(rand.NewPCG(seed, 6)), n)
		if len(got) != len(want) {
			t.Fatalf("%s: restored at round %d: %d steps, want %d", c.name, k, len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%s: restored at round %d: step %d differs from the original's", c.name, k, k+i)
			}
		}
		if tr := c.tr.bufs[len(c.tr.bufs)-1].Bytes(); !bytes.Equal(tr, wantTrace) {
			t.Fatalf("%s: restored at round %d: the trace differs from the original's (%d and %d bytes)", c.name, k, len(tr), len(wantTrace))
		}
	}
}

// testBadStates checks that damaged, forged and foreign states are
// refused with env.ErrBadState, and that a refused state leaves an
// instance that a Reset or a good state brings back.
func testBadStates[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D]) {
	setup := stateSetup(d)
	a, f := newInstance(t, d, setup)
	spec, l := f.Spec(), f.Learners()
	if err := a.Reset(3); err != nil {
		t.Fatal(err)
	}
	playSteps(t, a, spec, l, rand.New(rand.NewPCG(1, 1)), 12)
	sv := a.(env.Saver)
	state, err := sv.SaveState(nil)
	if err != nil {
		t.Fatal(err)
	}
	other := setup
	other.Seats = []string{"", "Null", "", d.StrongBot}
	b, _ := newInstance(t, d, other)
	refuse := func(what string, in env.Instance, st []byte) {
		t.Helper()
		err := in.(env.Saver).RestoreState(st)
		if !errors.Is(err, env.ErrBadState) {
			t.Errorf("%s: restore gives %v, want ErrBadState", what, err)
		}
	}
	refuse("another setup's state", b, state)
	refuse("empty", a, nil)
	for _, n := range []int{1, 10, len(state) / 2, len(state) - 1} {
		refuse("truncated", a, state[:n])
	}
	for i := 0; i < len(state); i += max(1, len(state)/50) {
		st := bytes.Clone(state)
		st[i] ^= 0x10
		refuse("a flipped bit", a, st)
	}
	// Forged states with a good checksum: more rounds than recorded, a
	// changed command of a bot's seat, bytes after the end.
	reseal := func(body []byte) []byte {
		return binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
	}
	body := state[:len(state)-4]
	refuse("bytes after the end", a, reseal(append(bytes.Clone(body), 0)))
	const header = 4 + 8 + 8 + env.NumSeats
	forged := bytes.Clone(body)
	forged[header]++ // the number of rounds
	refuse("one round more", a, reseal(forged))
	rng := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		st := bytes.Clone(body)
		st[header+rng.IntN(len(st)-header)] = byte(rng.IntN(256))
		err := sv.RestoreState(reseal(st))
		if err != nil && !errors.Is(err, env.ErrBadState) {
			t.Fatalf("a forged state gives %v, want ErrBadState or a restored game", err)
		}
	}
	if err := sv.RestoreState(state); err != nil {
		t.Fatalf("the good state after forged ones: %v", err)
	}
	if err := a.Reset(4); err != nil {
		t.Fatal(err)
	}
	// Games that cannot be saved: no game yet, a seat whose bot's state a
	// state cannot hold (a C++ bot's, in its own process).
	fresh, _ := newInstance(t, d, setup)
	if _, err := fresh.(env.Saver).SaveState(nil); !errors.Is(err, env.ErrUnsaved) {
		t.Errorf("save before any reset: %v, want ErrUnsaved", err)
	}
	m, err := d.NewMatch(d.DefaultConfig(), 1, [game.NumSeats]string{"a", "b", "c", "d"},
		[game.NumSeats]game.Bot[S, D]{nil, unsavedBot[S, D]{}})
	if err != nil {
		t.Fatal(err)
	}
	m.Record()
	if _, err := m.AppendLog(nil); !errors.Is(err, env.ErrUnsaved) {
		t.Errorf("save with a bot that cannot be saved: %v, want ErrUnsaved", err)
	}
	if _, err := m.Clone([game.NumSeats]game.Bot[S, D]{}); !errors.Is(err, env.ErrUnsaved) {
		t.Errorf("clone with a bot that cannot be saved: %v, want ErrUnsaved", err)
	}
}

// unsavedBot is a bot whose state a saved state cannot hold.
type unsavedBot[S any, D game.Dir] struct{}

func (unsavedBot[S, D]) Play(*S, *game.Orders[D]) {}
func (unsavedBot[S, D]) Unsaved()                 {}

// testTraceStarts starts games from rounds of the reference traces with a
// command file and plays them on with the file's commands: the trace must
// be the reference. Through the env, a start at a round of one trace
// gives the reference's rounds in the instance's trace, and damaged
// starts are refused.
func testTraceStarts[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	trs := short(o, Traces(t, d, o.Traces), 4)
	n, envTested := 0, false
	for _, tr := range trs {
		if tr.Commands == "" || tr.Partial {
			continue
		}
		n++
		ref := coursetest.ReadGz(t, tr.Path)
		cmds := coursetest.ReadGz(t, tr.Commands)
		log, err := d.ParseCommandLog(bytes.NewReader(cmds))
		if err != nil {
			t.Fatal(err)
		}
		rounds := tr.Config.Rounds()
		// The rounds the game played (a game the course program aborted
		// ends before its last round).
		played := 0
		if m, err := d.NewMatch(tr.Config, tr.Seed, tr.Names, [game.NumSeats]game.Bot[S, D]{}); err == nil {
			for !m.Done() && log.Complete(m.Round()) && m.Step(log.Round(m.Round())) == nil {
				played++
			}
		}
		for _, k := range []int{0, 1, played / 3, played - 1, played} {
			if k < 0 {
				continue
			}
			m, names, err := d.StartFromTrace(tr.Config, ref, cmds, k, tr.Names, [game.NumSeats]game.Bot[S, D]{})
			if err != nil {
				t.Fatalf("%s at round %d: %v", filepath.Base(tr.Path), k, err)
			}
			if m.Round() != k || names != tr.Names {
				t.Fatalf("%s at round %d: round %d, names %v", filepath.Base(tr.Path), k, m.Round(), names)
			}
			var buf bytes.Buffer
			if err := m.WriteTraceFrom(&buf, names); err != nil {
				t.Fatal(err)
			}
			for !m.Done() {
				if err := m.Step(log.Round(m.Round())); err != nil {
					break // an abort: the trace ends there, as the reference
				}
			}
			if !bytes.Equal(buf.Bytes(), ref) {
				t.Fatalf("%s started at round %d and played on: the trace differs from the reference", filepath.Base(tr.Path), k)
			}
		}
		if !envTested && !tr.Configured && played == rounds {
			envTested = true
			testEnvTraceStart(t, d, ref, cmds, rounds)
		}
	}
	if n == 0 || !envTested {
		t.Error("no whole reference trace of the default configuration has a command file")
	}
}

// testEnvTraceStart starts an env instance from a round of a reference
// trace (default configuration): the instance's trace holds the
// reference's bytes to that round, the game plays on; damaged starts are
// refused.
func testEnvTraceStart[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], ref, cmds []byte, rounds int) {
	in, f := newInstance(t, d, stateSetup(d))
	spec, l := f.Spec(), f.Learners()
	var tb bufTraces
	in.(env.Tracer).SetTrace(tb.open)
	ts := in.(env.TraceStarter)
	k := rounds / 2
	if err := ts.ResetFromTrace(ref, cmds, k); err != nil {
		t.Fatalf("env start at round %d: %v", k, err)
	}
	o := env.NewOut(spec, l)
	in.Observe(o)
	if int(o.Round[0]) != k {
		t.Fatalf("env start at round %d: the observation says round %d", k, o.Round[0])
	}
	playSteps(t, in, spec, l, rand.New(rand.NewPCG(2, 2)), 3)
	got := tb.bufs[0].Bytes()
	// The reference's bytes to round k, then the env's own rounds.
	e, names, err := d.StartFromTrace(d.DefaultConfig(), ref, cmds, k, [game.NumSeats]string{"a", "b", "c", "d"}, [game.NumSeats]game.Bot[S, D]{})
	if err != nil {
		t.Fatal(err)
	}
	var prefix bytes.Buffer
	if err := e.WriteTraceFrom(&prefix, names); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(got, prefix.Bytes()) || !bytes.HasPrefix(ref, prefix.Bytes()) || len(got) <= prefix.Len() {
		t.Fatal("the env's trace of a trace start does not begin with the reference's rounds")
	}
	bad := []struct {
		what        string
		trace, cmds []byte
		round       int
	}{
		{"round past the end", ref, cmds, rounds + 1},
		{"negative round", ref, cmds, -1},
		{"a truncated trace", ref[:len(ref)/2], cmds, 1},
		{"garbage", []byte("not a trace\n"), cmds, 1},
		{"another game's commands", ref, []byte("0 0 1 99999 0\n"), k},
	}
	for _, c := range bad {
		if err := ts.ResetFromTrace(c.trace, c.cmds, c.round); !errors.Is(err, env.ErrBadState) {
			t.Errorf("%s: %v, want ErrBadState", c.what, err)
		}
	}
	// Without the command file: the position rebuilt from the trace.
	if err := ts.ResetFromTrace(ref, nil, k); err != nil {
		t.Fatalf("env start at round %d without commands: %v", k, err)
	}
	in.Observe(o)
	if int(o.Round[0]) != k {
		t.Fatalf("env start at round %d without commands: the observation says round %d", k, o.Round[0])
	}
	playSteps(t, in, spec, l, rand.New(rand.NewPCG(3, 3)), 3)
	if _, err := in.(env.Saver).SaveState(nil); !errors.Is(err, env.ErrUnsaved) {
		t.Errorf("save of a game rebuilt without commands: %v, want ErrUnsaved", err)
	}
	if err := ts.ResetFromTrace(ref, nil, rounds); !errors.Is(err, env.ErrBadState) {
		t.Errorf("a start without commands at the last round: %v, want ErrBadState", err)
	}
	if err := in.Reset(1); err != nil {
		t.Fatal(err)
	}
}

// BenchStates measures saved states at the middle of a game of the Demo
// and the strong bot (two learners playing random legal actions): the
// size of a state, SaveState, RestoreState (a replay of the rounds
// played, bots included), Match.Clone with new bots (the same replay) and
// without bots (the engine's replay alone), Match.Copy (the in-process
// copy of the engine and the bots) and Match.Copy with other bots (the
// engine alone, a search's copy).
func BenchStates[C game.Config, G, S any, D game.Dir](b *testing.B, d *game.Def[C, G, S, D]) {
	setup := env.Setup{Seats: []string{"", "Demo", "", d.StrongBot}}
	f, err := d.Host().NewFactory(setup)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	in, err := f.NewInstance()
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	if err := in.Reset(1); err != nil {
		b.Fatal(err)
	}
	spec, l := f.Spec(), f.Learners()
	rng := rand.New(rand.NewPCG(1, 2))
	act := make([]byte, l*spec.Action.Bytes())
	o, rew := env.NewOut(spec, l), make([]float32, l)
	k := spec.NumRounds / 2
	for range k {
		in.Observe(o)
		sampleMasked(rng, spec, o, act)
		if _, err := in.Step(act, nil, rew); err != nil {
			b.Fatal(err)
		}
	}
	sv := in.(env.Saver)
	state, err := sv.SaveState(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Save", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf, _ = sv.SaveState(buf[:0])
		}
		b.ReportMetric(float64(len(state)), "state-bytes")
		b.ReportMetric(float64(k), "rounds")
	})
	b.Run("Restore", func(b *testing.B) {
		for b.Loop() {
			if err := sv.RestoreState(state); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(k), "rounds")
	})
	m := d.MatchOf(in)
	b.Run("Clone", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			var bots [game.NumSeats]game.Bot[S, D]
			for p, bot := range m.Bots {
				if bot != nil {
					f, _ := d.Bots.Lookup(m.Names[p])
					bots[p] = f(p, m.Seed)
				}
			}
			if _, err := m.Clone(bots); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	b.Run("CloneEngine", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			if _, err := m.Clone([game.NumSeats]game.Bot[S, D]{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	b.Run("Copy", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cpuTime()
		for b.Loop() {
			if _, err := m.Copy(nil); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
	b.Run("CopyEngine", func(b *testing.B) {
		b.ReportAllocs()
		var none [game.NumSeats]game.Bot[S, D]
		cpu := cpuTime()
		for b.Loop() {
			if _, err := m.Copy(&none); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	})
}
