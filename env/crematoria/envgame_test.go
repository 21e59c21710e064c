package crematoria

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
		{"bad config", env.Setup{Seats: []string{"", "", "", ""}, Config: "Crematoria 1.2\nnb_players 5"}, env.ErrBadSetup},
		{"bad reward", env.Setup{Seats: []string{"", "", "", ""}, Reward: 9}, env.ErrBadSetup},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.NewFactory(c.s)
			if !errors.Is(err, c.want) {
				t.Fatalf("NewFactory(%+v) = %v, want %v", c.s, err, c.want)
			}
			t.Log(err)
		})
	}
}

func TestSpec(t *testing.T) {
	sp := NewEnv().Spec()
	got := map[string][]int{}
	for _, ts := range sp.Observation {
		got[ts.Name] = ts.Shape
	}
	want := map[string][]int{"board": {3, 40, 80}, "units": {80, 8}, "globals": {16}, "action_mask": {80, 11}, "paths": {80, 132}, "sun_paths": {80, 44}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("observation shapes = %v, want %v", got, want)
	}
	if sp.ObservationBytes() != 9600+640+64+880+10560+3520 {
		t.Errorf("ObservationBytes() = %d, want %d", sp.ObservationBytes(), 9600+640+64+880+10560+3520)
	}
	if sp.Action.Dtype != env.Int8 || sp.ActionOrder.Dtype != env.Int16 || sp.NumActions != 11 {
		t.Errorf("action spec = %+v / %+v / %d", sp.Action, sp.ActionOrder, sp.NumActions)
	}
}

// TestDecode checks that actions become orders: only owned slots, None
// dropped, in increasing order value, ties by slot.
func TestDecode(t *testing.T) {
	in, tb, _ := newInstance(t, env.Setup{Seats: []string{"", "Null", "Null", "Null"}})
	if err := in.Reset(4); err != nil {
		t.Fatal(err)
	}
	u := tb.slots
	dirs := make([]byte, u)
	for i := range dirs {
		dirs[i] = byte(None)
	}
	dirs[0], dirs[5], dirs[6], dirs[20] = byte(Right), byte(Bottom), byte(Up), byte(Top)
	order := make([]byte, 2*u)
	put := func(id int, v int16) { binary.LittleEndian.PutUint16(order[2*id:], uint16(v)) }
	put(0, 3)
	put(5, -1)
	put(6, 3)
	put(20, -5) // not mine: ignored whatever its order
	for _, c := range []struct {
		name  string
		order []byte
		want  []Command
	}{
		{"slot order", nil, []Command{{0, Right}, {5, Bottom}, {6, Up}}},
		{"given order", order, []Command{{5, Bottom}, {0, Right}, {6, Up}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var o Orders
			o.Reset(len(tb.g.Units))
			tb.decode(0, dirs, c.order, &o)
			if got := o.List(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("decode = %v, want %v", got, c.want)
			}
		})
	}
}

// demoAsActions runs a Demo bot and turns its orders into an action and
// an order tensor for one learner.
func demoAsActions(d Bot, s *State, u int) (dirs, order []byte) {
	var o Orders
	o.Reset(len(s.Units))
	d.Play(s, &o)
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
	u := tb.slots
	reward := make([]float32, 1)
	out := env.NewOut(f.Spec(), 1)
	var sum float32
	for !m.Done() {
		dirs, order := demoAsActions(shadow, &tb.g.State, u)
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
	if got, want := sum, float32(m.Score(1)-15); got != want {
		t.Errorf("sum of score-delta rewards = %v, want final score - 15 = %v", got, want)
	}
	for g := 0; g < NumPlayers; g++ {
		if got, want := out.Scores[g], int32(m.Score(g)); got != want {
			t.Errorf("Scores[%d] = %d, want %d", g, got, want)
		}
	}
	if out.Round[0] != 120 || out.Seats[0] != 1 {
		t.Errorf("round, seat = %d, %d, want 120, 1", out.Round[0], out.Seats[0])
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the env's trace (%d bytes) differs from the match's (%d bytes)", got.Len(), want.Len())
	}
}

// FuzzStep feeds arbitrary action and order bytes to a learner: the
// decoder must never panic nor issue a command for a unit the seat does
// not own, whatever the client sends.
func FuzzStep(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 10, 9, 8}, []byte{1, 0, 255, 255})
	f.Add([]byte{255, 128, 11, 127}, []byte(nil))
	f.Fuzz(func(t *testing.T, act, order []byte) {
		in, tb, ef := newInstance(t, env.Setup{Seats: []string{"Null", "", "Null", ""}})
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
			tb.decode(p, a[l*u:(l+1)*u], ord, &orders)
			for _, c := range orders.List() {
				if tb.g.Units[c.ID].Player != p || !c.Dir.Valid() || c.Dir == None {
					t.Fatalf("learner %d (group %d): command %v for a unit of group %d", l, p, c, tb.g.Units[c.ID].Player)
				}
			}
		}
		if _, err := in.Step(a, o, make([]float32, 2)); err != nil {
			t.Fatal(err)
		}
	})
}

// failingBot plays nothing and reports an error from round 3 on, as a
// crashed C++ bot does.
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
	act := make([]byte, tb.slots)
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
	if err == nil || !strings.Contains(err.Error(), "seat 2") || !strings.Contains(err.Error(), "bot process exited") {
		t.Fatalf("round 3: err %v, want the seat-2 bot's failure", err)
	}
}
