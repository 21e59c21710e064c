package moria

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
		{"bad config", env.Setup{Seats: []string{"", "", "", ""}, Config: "Moria 1.1\nnb_players 5"}, env.ErrBadSetup},
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
	want := map[string][]int{"board": {7, 60, 60}, "units": {100, 10}, "globals": {24}, "action_mask": {100, 9}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("observation shapes = %v, want %v", got, want)
	}
	if got, want := sp.ObservationBytes(), 25200+1000+96+900; got != want {
		t.Errorf("ObservationBytes() = %d, want %d", got, want)
	}
	if sp.ID != "Moria-v0" || sp.ObservationVersion != "moria-obs-1" || sp.NumRounds != 200 || sp.NumSeats != 4 {
		t.Errorf("spec = %q %q %d rounds %d seats", sp.ID, sp.ObservationVersion, sp.NumRounds, sp.NumSeats)
	}
	if sp.Action.Dtype != env.Int8 || sp.ActionOrder.Dtype != env.Int16 || sp.NumActions != 9 {
		t.Errorf("action spec = %+v / %+v / %d", sp.Action, sp.ActionOrder, sp.NumActions)
	}
	if names, _ := NewEnv().Bots(); !reflect.DeepEqual(names, []string{"Balin", "Demo", "Null"}) {
		t.Errorf("Bots() = %v, want [Balin Demo Null]", names)
	}
}

// TestDecode checks that actions become orders: only owned slots, None
// dropped, in increasing order value, ties by slot.
func TestDecode(t *testing.T) {
	g, err := New(DefaultConfig(), 4)
	if err != nil {
		t.Fatal(err)
	}
	u := NumSlots(&g.cfg)
	dirs := bytes.Repeat([]byte{byte(None)}, u)
	dirs[0], dirs[5], dirs[21], dirs[30], dirs[7] = byte(Right), byte(Bottom), byte(Top), byte(Top), 200
	order := make([]byte, 2*u)
	put := func(id int, v int16) { binary.LittleEndian.PutUint16(order[2*id:], uint16(v)) }
	put(0, 3)
	put(5, -1)
	put(21, 3)
	put(30, -5) // not mine: ignored whatever its order
	for _, c := range []struct {
		name  string
		order []byte
		want  []Command
	}{
		{"slot order", nil, []Command{{0, Right}, {5, Bottom}, {21, Top}}},
		{"given order", order, []Command{{5, Bottom}, {0, Right}, {21, Top}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var o Orders
			o.Reset(len(g.Units))
			DecodeActions(&g.State, 0, dirs, c.order, &o)
			if got := o.List(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("DecodeActions = %v, want %v", got, c.want)
			}
		})
	}
}

// botAsActions runs a bot and turns its orders into an action and an
// order tensor for one learner.
func botAsActions(b Bot, s *State, u int) (dirs, order []byte) {
	var o Orders
	o.Reset(len(s.Units))
	b.Play(s, &o)
	dirs = bytes.Repeat([]byte{byte(None)}, u)
	order = make([]byte, 2*u)
	for k, c := range o.List() {
		if c.ID >= 0 && c.ID < u && c.Dir != None {
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
	u := tb.slots
	reward := make([]float32, 1)
	out := env.NewOut(f.Spec(), 1)
	var sum float32
	for !m.Done() {
		dirs, order := botAsActions(shadow, &tb.g.State, u)
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
		if tb.g.Cells != m.Cells || !reflect.DeepEqual(tb.g.Units, m.Units) {
			t.Fatalf("round %d: env game differs from the match", m.Round)
		}
	}
	in.Observe(out)
	if got, want := sum, float32(m.Score(1)-20); got != want {
		t.Errorf("sum of score-delta rewards = %v, want final score - 20 = %v", got, want)
	}
	for p := 0; p < NumPlayers; p++ {
		if got, want := out.Scores[p], int32(m.Score(p)); got != want {
			t.Errorf("Scores[%d] = %d, want %d", p, got, want)
		}
	}
	if out.Round[0] != 200 || out.Seats[0] != 1 {
		t.Errorf("round, seat = %d, %d, want 200, 1", out.Round[0], out.Seats[0])
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the env's trace (%d bytes) differs from the match's (%d bytes)", got.Len(), want.Len())
	}
}

// FuzzStep feeds arbitrary action and order bytes to two learners: the
// decoder must never panic nor issue a command for a unit the seat does
// not own, whatever the client sends.
func FuzzStep(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 8, 9, 7}, []byte{1, 0, 255, 255})
	f.Add([]byte{255, 128, 11, 127}, []byte(nil))
	f.Fuzz(func(t *testing.T, act, order []byte) {
		in, tb, ef := newInstance(t, env.Setup{Seats: []string{"Null", "", "Balin", ""}})
		if err := in.Reset(9); err != nil {
			t.Fatal(err)
		}
		u := tb.slots
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
			orders.Reset(len(tb.g.Units))
			DecodeActions(&tb.g.State, p, a[l*u:(l+1)*u], ord, &orders)
			for _, c := range orders.List() {
				if tb.g.Units[c.ID].Player != p || !c.Dir.Valid() || c.Dir == None {
					t.Fatalf("learner %d (clan %d): command %v for a unit of clan %d", l, p, c, tb.g.Units[c.ID].Player)
				}
			}
		}
		if _, err := in.Step(a, o, make([]float32, 2)); err != nil {
			t.Fatal(err)
		}
	})
}

// failingBot plays nothing and reports an error from round 3 on, as a
// crashed bot in its own process does.
type failingBot struct{ round int }

func (b *failingBot) Play(s *State, o *Orders) { b.round = s.Round }
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
	tb.bots[2] = &failingBot{}
	act := bytes.Repeat([]byte{byte(None)}, tb.slots)
	reward := make([]float32, 1)
	for r := 0; r < 3; r++ {
		if _, err := in.Step(act, nil, reward); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
	}
	_, err := in.Step(act, nil, reward)
	if err == nil || !strings.Contains(err.Error(), "seat 2") || !strings.Contains(err.Error(), "bot process exited") {
		t.Fatalf("round 4: err %v, want the seat-2 bot's failure", err)
	}
}

// TestEnvRegistry registers the game next to nothing else and plays a few
// rounds through the env contract only.
func TestEnvRegistry(t *testing.T) {
	reg, err := env.NewRegistry(NewEnv())
	if err != nil {
		t.Fatal(err)
	}
	g, err := reg.Lookup(EnvID)
	if err != nil {
		t.Fatal(err)
	}
	f, err := g.NewFactory(env.Setup{Seats: []string{"", "Balin", "Demo", "Null"}, Reward: env.Relative})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := f.NewInstance()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := in.Reset(3); err != nil {
		t.Fatal(err)
	}
	out := env.NewOut(f.Spec(), 1)
	action := make([]byte, f.Spec().Action.Bytes())
	reward := make([]float32, 1)
	for r := 0; r < 5; r++ {
		if _, err := in.Step(action, nil, reward); err != nil { // all Bottom
			t.Fatal(err)
		}
		in.Observe(out)
	}
	if out.Round[0] != 5 || out.Seats[0] != 0 {
		t.Errorf("round %d seat %d, want 5 and 0", out.Round[0], out.Seats[0])
	}
}
