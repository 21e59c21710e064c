package dominator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/env"
)

// newInstance makes an instance of the setup and returns it with its
// table.
func newInstance(t *testing.T, s env.Setup) (env.Instance, *table, env.Factory) {
	t.Helper()
	return coursetest.NewInstance[*table](t, NewEnv(), s)
}

func TestNewFactoryErrors(t *testing.T) {
	e := NewEnv()
	for _, c := range []struct {
		name string
		s    env.Setup
		want error
	}{
		{"three seats", env.Setup{Seats: []string{"", "Demo", "Demo"}}, env.ErrBadSetup},
		{"no learner", env.Setup{Seats: []string{"Demo", "Demo", "Demo", "Null"}}, env.ErrBadSetup},
		{"unknown bot", env.Setup{Seats: []string{"", "Nobody", "Demo", "Null"}}, env.ErrUnknownBot},
		{"bad config", env.Setup{Seats: []string{"", "", "", ""}, Config: "Dominator 4.0\nnb_players 5"}, env.ErrBadSetup},
		{"bad reward", env.Setup{Seats: []string{"", "", "", ""}, Reward: 9}, env.ErrBadSetup},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.NewFactory(c.s)
			if !errors.Is(err, c.want) {
				t.Fatalf("NewFactory(%+v) = %v, want %v", c.s, err, c.want)
			}
		})
	}
}

func TestSpec(t *testing.T) {
	sp := NewEnv().Spec()
	got := map[string][]int{}
	for _, ts := range sp.Observation {
		got[ts.Name] = ts.Shape
	}
	want := map[string][]int{"board": {6, 37, 37}, "units": {128, 8}, "globals": {18},
		"action_mask": {128, 9}, "move_mask": {128, 9}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("observation shapes = %v, want %v", got, want)
	}
	if got, want := sp.ObservationBytes(), 6*37*37+128*8+4*18+2*128*9; got != want {
		t.Errorf("ObservationBytes() = %d, want %d", got, want)
	}
	if sp.Action.Dtype != env.Int8 || sp.ActionOrder.Dtype != env.Int16 || sp.NumActions != 9 || sp.NumRounds != 200 {
		t.Errorf("action spec = %+v / %+v / %d / %d rounds", sp.Action, sp.ActionOrder, sp.NumActions, sp.NumRounds)
	}
	if sp.ID != "Dominator-v0" || sp.ObservationVersion != "dominator-obs-1" {
		t.Errorf("id, version = %q, %q", sp.ID, sp.ObservationVersion)
	}
	small, err := NewEnv().NewFactory(env.Setup{Seats: []string{"", "", "", ""}, Config: mustShippedText("generator3")})
	if err != nil {
		t.Fatal(err)
	}
	if got := small.Spec().Observation[0].Shape; !reflect.DeepEqual(got, []int{6, 37, 37}) {
		t.Errorf("generator3 board shape = %v", got)
	}
}

// TestDecode checks that actions become orders: only legal slots of the
// seat, None and illegal directions dropped, in increasing order value,
// ties by slot.
func TestDecode(t *testing.T) {
	in, tb, _ := newInstance(t, env.Setup{Seats: []string{"Null", "", "Null", "Null"}})
	if err := in.Reset(4); err != nil {
		t.Fatal(err)
	}
	s := &tb.m.State
	u := NumSlots(tb.cfg)
	dirs := make([]byte, u)
	for i := range dirs {
		dirs[i] = byte(None)
	}
	// Player 1 owns 32..63: witch 32, knight 34, farmers 44 and 45.
	dirs[32], dirs[34], dirs[44], dirs[45] = byte(Right), byte(TL), byte(Top), byte(BR)
	dirs[0] = byte(Top) // not player 1's
	dirs[46] = 0xfd     // -3 as int8: out of range
	order := make([]byte, 2*u)
	put := func(id int, v int16) { binary.LittleEndian.PutUint16(order[2*id:], uint16(v)) }
	put(32, 3)
	put(34, -1)
	put(44, 3)
	put(0, -5)
	for _, c := range []struct {
		name  string
		order []byte
		want  []Command
	}{
		{"slot order", nil, []Command{{32, Right}, {34, TL}, {44, Top}}},
		{"given order", order, []Command{{34, TL}, {32, Right}, {44, Top}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var o Orders
			o.Reset(len(s.Units))
			var dc Decoder
			dc.Decode(s, 1, dirs, c.order, &o)
			if got := o.List(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Decode = %v, want %v", got, c.want)
			}
		})
	}
}

// demoAsActions runs a Demo bot on player p's view and turns its orders
// into an action and an order tensor for one learner.
func demoAsActions(d Bot, s *State, p, u int) (dirs, order []byte) {
	var o Orders
	o.Reset(len(s.Units))
	var view State
	s.View(p, &view)
	d.Play(&view, &o)
	dirs = make([]byte, u)
	order = make([]byte, 2*u)
	for i := range dirs {
		dirs[i] = byte(None)
	}
	for k, c := range o.List() {
		if c.ID >= 0 && c.ID < u {
			dirs[c.ID] = byte(c.Dir)
			binary.LittleEndian.PutUint16(order[2*c.ID:], uint16(k))
		}
	}
	return dirs, order
}

// TestLearnerReproducesMatch drives seat 1 with the actions a Demo bot
// would give, in its order, and checks the game equals a Match of four
// Demos: decoding, ordering and seating reproduce the engine exactly.
func TestLearnerReproducesMatch(t *testing.T) {
	const seed = 12
	in, tb, f := newInstance(t, env.Setup{Seats: []string{"Demo", "", "Demo", "Demo"}})
	var got bytes.Buffer
	in.(env.Tracer).SetTrace(func(episode int, s int64) (io.WriteCloser, error) {
		if episode != 0 || s != seed {
			t.Errorf("trace opened for episode %d seed %d, want 0 and %d", episode, s, seed)
		}
		return coursetest.NopCloser{Writer: &got}, nil
	})
	if err := in.Reset(seed); err != nil {
		t.Fatal(err)
	}
	var bots [NumPlayers]Bot
	for p := range bots {
		bots[p] = NewDemo(p, seed)
	}
	m, err := NewMatchWithBots(DefaultConfig(), seed, [NumPlayers]string{"Demo", "Learner", "Demo", "Demo"}, bots)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	m.WriteTrace(&want)
	shadow := NewDemo(1, seed)
	u := NumSlots(tb.cfg)
	reward := make([]float32, 1)
	out := env.NewOut(f.Spec(), 1)
	var sum float32
	for !m.Done() {
		dirs, order := demoAsActions(shadow, &tb.m.State, 1, u)
		term, err := in.Step(dirs, order, reward)
		if err != nil {
			t.Fatal(err)
		}
		sum += reward[0]
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		if term != m.Done() {
			t.Fatalf("round %d: terminated %v, match done %v", m.Round, term, m.Done())
		}
		if !reflect.DeepEqual(tb.m.Grid, m.Grid) || !reflect.DeepEqual(tb.m.Units, m.Units) {
			t.Fatalf("round %d: env game differs from the match", m.Round)
		}
	}
	in.Observe(out)
	if got, want := sum, float32(m.TotalScore[1]-20); got != want {
		t.Errorf("sum of score-delta rewards = %v, want final total - 20 = %v", got, want)
	}
	for p := 0; p < NumPlayers; p++ {
		if got, want := out.Scores[p], int32(m.TotalScore[p]); got != want {
			t.Errorf("Scores[%d] = %d, want %d", p, got, want)
		}
	}
	if out.Round[0] != 200 || out.Seats[0] != 1 {
		t.Errorf("round, seat = %d, %d, want 200, 1", out.Round[0], out.Seats[0])
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the env's trace (%d bytes) differs from the match's (%d bytes): %s", got.Len(), want.Len(), coursetest.FirstDiff(want.Bytes(), got.Bytes()))
	}
}

// FuzzStep feeds arbitrary action and order bytes to two learners: the
// decoder must never panic nor issue a command the engine would drop,
// whatever the client sends.
func FuzzStep(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 10, 9, 8}, []byte{1, 0, 255, 255})
	f.Add([]byte{255, 128, 11, 127}, []byte(nil))
	f.Fuzz(func(t *testing.T, act, order []byte) {
		in, tb, ef := newInstance(t, env.Setup{Seats: []string{"Null", "", "Demo", ""}})
		if err := in.Reset(9); err != nil {
			t.Fatal(err)
		}
		u := NumSlots(tb.cfg)
		a := make([]byte, 2*u)
		for i := range a {
			if len(act) > 0 {
				a[i] = act[i%len(act)]
			}
		}
		var o []byte
		if order != nil {
			o = make([]byte, 4*u)
			for i := range o {
				if len(order) > 0 {
					o[i] = order[i%len(order)]
				}
			}
		}
		out := env.NewOut(ef.Spec(), 2)
		in.Observe(out)
		for l, p := range out.Seats {
			p := int(p)
			var ord []byte
			if o != nil {
				ord = o[2*l*u : 2*(l+1)*u]
			}
			var orders Orders
			orders.Reset(len(tb.m.Units))
			var dc Decoder
			dc.Decode(&tb.m.State, p, a[l*u:(l+1)*u], ord, &orders)
			for _, c := range orders.List() {
				if !Legal(&tb.m.State, p, c.ID, c.Dir) || c.Dir == None {
					t.Fatalf("learner %d (player %d): command %v the engine drops", l, p, c)
				}
			}
		}
		for range 3 {
			if _, err := in.Step(a, o, make([]float32, 2)); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// failingBot plays nothing and reports an error from round 3 on, as a
// crashed C++ bot does.
type failingBot struct{ round int }

func (b *failingBot) Play(v *State, o *Orders) { b.round = v.Round }
func (b *failingBot) Err() error {
	if b.round >= 3 {
		return errors.New("bot process exited")
	}
	return nil
}

func TestFailingBotFailsTheStep(t *testing.T) {
	in, tb, _ := newInstance(t, env.Setup{Seats: []string{"", "Demo", "Demo", "Demo"}})
	if err := in.Reset(5); err != nil {
		t.Fatal(err)
	}
	tb.m.Bots[2] = &failingBot{}
	act := make([]byte, NumSlots(tb.cfg))
	for i := range act {
		act[i] = byte(None)
	}
	reward := make([]float32, 1)
	for r := 0; r < 3; r++ {
		if _, err := in.Step(act, nil, reward); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
	}
	_, err := in.Step(act, nil, reward)
	if err == nil || !strings.Contains(err.Error(), "player 2") || !strings.Contains(err.Error(), "bot process exited") {
		t.Fatalf("round 3: err %v, want the player-2 bot's failure", err)
	}
}

// TestEnvRegistry registers Dominator next to nothing else and plays a
// whole episode through the env contract only.
func TestEnvRegistry(t *testing.T) {
	reg, err := env.NewRegistry(NewEnv())
	if err != nil {
		t.Fatal(err)
	}
	g, err := reg.Lookup(EnvID)
	if err != nil {
		t.Fatal(err)
	}
	f, err := g.NewFactory(env.Setup{Seats: []string{"", "Khan", "Demo", "Null"}, Reward: env.Relative})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inst, err := f.NewInstance()
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	if err := inst.Reset(3); err != nil {
		t.Fatal(err)
	}
	sp := f.Spec()
	out := env.NewOut(sp, 1)
	action := make([]byte, sp.Action.Bytes())
	reward := make([]float32, 1)
	rounds := 0
	for done := false; !done; rounds++ {
		inst.Observe(out)
		mask := out.Obs[4] // move_mask: pick the first working move of each slot
		for id := range action {
			action[id] = byte(None)
			for d := 0; d < NumDirs-1; d++ {
				if mask[id*NumDirs+d] == 1 {
					action[id] = byte(d)
					break
				}
			}
		}
		if done, err = inst.Step(action, nil, reward); err != nil {
			t.Fatal(err)
		}
	}
	if rounds != 200 {
		t.Errorf("episode of %d rounds, want 200", rounds)
	}
}

// TestTraceAcrossResets records two episodes, the first cut short by a
// Reset: the first trace must be a prefix of a whole game's, the second a
// whole game that verifies.
func TestTraceAcrossResets(t *testing.T) {
	in, _, f := newInstance(t, env.Setup{Seats: []string{"Demo", "", "Null", "Demo"}})
	traces := map[int]*bytes.Buffer{}
	in.(env.Tracer).SetTrace(func(episode int, seed int64) (io.WriteCloser, error) {
		traces[episode] = &bytes.Buffer{}
		return coursetest.NopCloser{Writer: traces[episode]}, nil
	})
	act := make([]byte, f.Spec().Action.Bytes())
	for i := range act {
		act[i] = byte(Top)
	}
	reward := make([]float32, 1)
	if err := in.Reset(1); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := in.Step(act, nil, reward); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.Reset(2); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		var err error
		if done, err = in.Step(act, nil, reward); err != nil {
			t.Fatal(err)
		}
	}
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	if len(traces) != 2 {
		t.Fatalf("%d traces, want 2", len(traces))
	}
	if n := strings.Count(traces[0].String(), "\nmovements\n"); n != 5 {
		t.Errorf("first trace has %d rounds, want 5", n)
	}
	tr, err := ParseTrace(traces[1])
	if err != nil {
		t.Fatal(err)
	}
	if tr.Names != [NumPlayers]string{"Demo", "Learner", "Null", "Demo"} || tr.Seed != 2 {
		t.Errorf("second trace: names %v seed %d", tr.Names, tr.Seed)
	}
	if err := Verify(tr, nil); err != nil {
		t.Errorf("second trace does not verify: %v", err)
	}
}
