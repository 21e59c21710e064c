package gametest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/env"
	"jgym/game"
)

// testEnv checks the game as an env.Game.
func testEnv[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	t.Run("Setup", func(t *testing.T) { testSetup(t, d) })
	t.Run("LearnerPlaysDemo", func(t *testing.T) { testLearnerPlaysBot(t, d, "Demo") })
	t.Run("FailingBot", func(t *testing.T) { testFailingBot(t, d) })
	t.Run("Determinism", func(t *testing.T) { testDeterminism(t, d) })
	t.Run("Tensors", func(t *testing.T) { testTensors(t, d, o) })
	t.Run("Decode", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for range 40 {
			act := make([]byte, 1+rng.IntN(400))
			for i := range act {
				act[i] = byte(rng.IntN(256))
			}
			var ord []byte
			if rng.IntN(2) == 0 {
				ord = make([]byte, rng.IntN(400))
				for i := range ord {
					ord[i] = byte(rng.IntN(256))
				}
			}
			CheckStep(t, d, act, ord)
		}
	})
}

// newInstance makes an instance of the setup on the game's env, closed
// with the test.
func newInstance[C game.Config, G, S any, D game.Dir](t testing.TB, d *game.Def[C, G, S, D], s env.Setup) (env.Instance, env.Factory) {
	t.Helper()
	f, err := d.Host().NewFactory(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	in, err := f.NewInstance()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in, f
}

// testSetup checks the setups the env refuses and the spec it serves.
func testSetup[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D]) {
	h := d.Host()
	for _, c := range []struct {
		name string
		s    env.Setup
		want error
	}{
		{"three seats", env.Setup{Seats: []string{"", "Demo", "Demo"}}, env.ErrBadSetup},
		{"no learner", env.Setup{Seats: []string{"Demo", "Demo", "Demo", "Null"}}, env.ErrBadSetup},
		{"unknown bot", env.Setup{Seats: []string{"", "Nobody", "Demo", "Null"}}, env.ErrUnknownBot},
		{"prefix without loader", env.Setup{Seats: []string{"", "cpp:AIx.cc", "Demo", "Null"}}, env.ErrUnknownBot},
		{"bad config", env.Setup{Seats: []string{"", "", "", ""}, Config: d.Name + " garbage\nnb_players 5"}, env.ErrBadSetup},
		{"bad reward", env.Setup{Seats: []string{"", "", "", ""}, Reward: 9}, env.ErrBadSetup},
		{"unknown opponent order", env.Setup{Seats: []string{"", "", "", ""}, OpponentOrder: "alphabet"}, env.ErrBadSetup},
		{"unknown action order", env.Setup{Seats: []string{"", "", "", ""}, ActionOrder: "random"}, env.ErrBadSetup},
		{"unknown credit weight", env.Setup{Seats: []string{"", "", "", ""}, UnitRewards: true,
			CreditWeights: map[string]float64{"luck": 1}}, env.ErrBadSetup},
	} {
		if _, err := h.NewFactory(c.s); !errors.Is(err, c.want) {
			t.Errorf("%s: NewFactory(%+v) = %v, want %v", c.name, c.s, err, c.want)
		}
	}
	cfg := d.DefaultConfig()
	want, _ := d.EnvSpec(&cfg)
	if !reflect.DeepEqual(h.Spec(), want) {
		t.Errorf("game spec = %+v, want %+v", h.Spec(), want)
	}
	// A factory's spec lists no opt-in tensors: they are in its
	// observation, when the setup names them, or not at all.
	want.OptIn = nil
	// A factory's spec has the per-unit credit tensor only when the setup
	// asks for it; the game's lists it when the game offers it.
	if d.Credit != nil {
		_, f := newInstance(t, d, env.Setup{Seats: []string{"", "Demo", "Demo", "Demo"}, UnitRewards: true})
		if got := f.Spec(); !reflect.DeepEqual(got, want) {
			t.Errorf("factory spec with unit rewards = %+v, want %+v", got, want)
		}
	}
	plain := want
	plain.UnitReward = env.TensorSpec{}
	_, f := newInstance(t, d, env.Setup{Seats: []string{"", "Demo", "Demo", "Demo"}})
	if got := f.Spec(); !reflect.DeepEqual(got, plain) {
		t.Errorf("factory spec = %+v, want %+v", got, plain)
	}
}

// testLearnerPlaysBot drives seat 1 with the actions bot would give, in
// its order, and checks the game (trace, rewards, scores) is a match of
// four such bots: decoding, ordering and seating reproduce the engine.
func testLearnerPlaysBot[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], bot string) {
	const seed = 12
	in, f := newInstance(t, d, env.Setup{Seats: []string{bot, "", bot, bot}})
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
	factory, err := d.Bots.Lookup(bot)
	if err != nil {
		t.Fatal(err)
	}
	var bots [game.NumSeats]game.Bot[S, D]
	for p := range bots {
		bots[p] = factory(p, seed)
	}
	m, err := d.NewMatch(d.DefaultConfig(), seed, [game.NumSeats]string{bot, "Learner", bot, bot}, bots)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	m.WriteTrace(&want)
	shadow := factory(1, seed)
	spec := f.Spec()
	u := spec.Action.Shape[0]
	reward := make([]float32, 1)
	out := env.NewOut(spec, 1)
	var scratch S
	var sum float32
	start := m.Scores()[1]
	orders := d.NewOrders()
	for !m.Done() {
		s := d.MatchOf(in).State()
		orders.Reset(d.NumUnits(s))
		d.PlayBot(shadow, s, 1, &scratch, orders)
		dirs, order := asAction(orders.List(), u, d.None)
		term, err := in.Step(dirs, order, reward)
		if err != nil {
			t.Fatal(err)
		}
		sum += reward[0]
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		if term != m.Done() {
			t.Fatalf("round %d: terminated %v, match done %v", m.Round(), term, m.Done())
		}
	}
	in.Observe(out)
	if got, want := sum, float32(m.Scores()[1]-start); got != want {
		t.Errorf("sum of score-delta rewards = %v, want the score's change %v", got, want)
	}
	for p, s := range m.Scores() {
		if out.Scores[p] != int32(s) {
			t.Errorf("Scores[%d] = %d, want %d", p, out.Scores[p], s)
		}
	}
	if int(out.Round[0]) != m.Round() || out.Seats[0] != 1 {
		t.Errorf("round, seat = %d, %d, want %d, 1", out.Round[0], out.Seats[0], m.Round())
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the env's trace differs from the match's: %s", coursetest.FirstDiff(want.Bytes(), got.Bytes()))
	}
}

// asAction turns a command list into one learner's action and order
// tensors: each commanded slot's direction, issued in list order.
func asAction[D game.Dir](cmds []game.Command[D], u int, none D) (dirs, order []byte) {
	dirs = make([]byte, u)
	order = make([]byte, 2*u)
	for i := range dirs {
		dirs[i] = byte(int8(none))
	}
	for k, c := range cmds {
		if c.ID >= 0 && c.ID < u {
			dirs[c.ID] = byte(int8(c.Dir))
			binary.LittleEndian.PutUint16(order[2*c.ID:], uint16(k))
		}
	}
	return dirs, order
}

// failingBot plays nothing and reports an error from its fourth round on,
// as a crashed C++ bot does.
type failingBot[S any, D game.Dir] struct{ rounds int }

func (b *failingBot[S, D]) Play(*S, *game.Orders[D]) { b.rounds++ }
func (b *failingBot[S, D]) Err() error {
	if b.rounds > 3 {
		return errors.New("bot process exited")
	}
	return nil
}

// testFailingBot checks that a bot's failure fails the step, naming the
// seat.
func testFailingBot[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D]) {
	in, f := newInstance(t, d, env.Setup{Seats: []string{"", "Demo", "Demo", "Demo"}})
	if err := in.Reset(5); err != nil {
		t.Fatal(err)
	}
	d.MatchOf(in).Bots[2] = &failingBot[S, D]{}
	act := make([]byte, f.Spec().Action.Bytes())
	for i := range act {
		act[i] = byte(int8(d.None))
	}
	reward := make([]float32, 1)
	for r := range 3 {
		if _, err := in.Step(act, nil, reward); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
	}
	_, err := in.Step(act, nil, reward)
	if err == nil || !strings.Contains(err.Error(), "player 2") || !strings.Contains(err.Error(), "bot process exited") {
		t.Fatalf("round 4: err %v, want the seat-2 bot's failure", err)
	}
	if _, again := in.Step(act, nil, reward); again == nil {
		t.Error("a game that failed steps on")
	}
}

// testDeterminism plays two instances of one seed with the same random
// actions and checks their observations, rewards and scores are equal,
// and within the spec's bounds.
func testDeterminism[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D]) {
	setup := env.Setup{Seats: []string{"", "Demo", "", d.StrongBot}}
	a, f := newInstance(t, d, setup)
	b, _ := newInstance(t, d, setup)
	spec := f.Spec()
	for _, in := range []env.Instance{a, b} {
		if err := in.Reset(77); err != nil {
			t.Fatal(err)
		}
	}
	oa, ob := env.NewOut(spec, 2), env.NewOut(spec, 2)
	ra, rb := make([]float32, 2), make([]float32, 2)
	rng := rand.New(rand.NewPCG(3, 4))
	act := make([]byte, 2*spec.Action.Bytes())
	for r := 0; r < 30 && r < spec.NumRounds; r++ {
		a.Observe(oa)
		b.Observe(ob)
		if !reflect.DeepEqual(oa, ob) {
			t.Fatalf("round %d: two instances of one seed observe differently", r)
		}
		checkBounds(t, spec, oa)
		sampleMasked(rng, spec, oa, act)
		da, ea := a.Step(act, nil, ra)
		db, eb := b.Step(act, nil, rb)
		if ea != nil || eb != nil {
			t.Fatalf("round %d: %v, %v", r, ea, eb)
		}
		if da != db || !slices64Equal(ra, rb) {
			t.Fatalf("round %d: done %v/%v, rewards %v/%v", r, da, db, ra, rb)
		}
	}
}

func slices64Equal(a, b []float32) bool { return reflect.DeepEqual(a, b) }

// sampleMasked writes into act a random legal direction per unit slot of
// each learner, from the action_mask.
func sampleMasked(rng *rand.Rand, spec env.Spec, o *env.Out, act []byte) {
	k := -1
	for i, ts := range spec.Observation {
		if ts.Name == "action_mask" {
			k = i
		}
	}
	mask := o.Obs[k]
	n := spec.NumActions
	for slot := range act {
		var legal []int
		for a := 0; a < n; a++ {
			if mask[slot*n+a] != 0 {
				legal = append(legal, a)
			}
		}
		act[slot] = 0
		if len(legal) > 0 {
			act[slot] = byte(legal[rng.IntN(len(legal))])
		}
	}
}

// checkBounds checks that every observation value is within its tensor's
// declared bounds.
func checkBounds(t *testing.T, spec env.Spec, o *env.Out) {
	t.Helper()
	for i, ts := range spec.Observation {
		b := o.Obs[i]
		for j := 0; j < len(b); j += ts.Dtype.Size() {
			var v float64
			switch ts.Dtype {
			case env.Uint8, env.Bool:
				v = float64(b[j])
			case env.Int8:
				v = float64(int8(b[j]))
			case env.Int16:
				v = float64(int16(binary.LittleEndian.Uint16(b[j:])))
			case env.Int32:
				v = float64(int32(binary.LittleEndian.Uint32(b[j:])))
			case env.Float32:
				v = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[j:])))
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%s[%d] = %v", ts.Name, j/4, v)
				}
			default:
				continue
			}
			if v < ts.Low || v > ts.High {
				t.Fatalf("%s element %d = %v, outside [%v, %v]", ts.Name, j/ts.Dtype.Size(), v, ts.Low, ts.High)
			}
		}
	}
}

// CheckStep decodes arbitrary action and order bytes for the learners of
// a fresh game and steps it: every command must be for a unit of the
// seat, in a legal direction other than None, in increasing order value
// (ties by slot), and the step must not fail. Fuzz targets call it.
func CheckStep[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], act, order []byte) {
	t.Helper()
	in, f := newInstance(t, d, env.Setup{Seats: []string{"Null", "", "Null", ""}})
	if err := in.Reset(9); err != nil {
		t.Fatal(err)
	}
	u := f.Spec().Action.Shape[0]
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
	out := env.NewOut(f.Spec(), 2)
	in.Observe(out)
	s := d.MatchOf(in).State()
	for l, p := range out.Seats {
		p := int(p)
		var ord []byte
		if o != nil {
			ord = o[2*l*u : 2*(l+1)*u]
		}
		orders := d.NewOrders()
		orders.Reset(d.NumUnits(s))
		d.Decode(s, p, a[l*u:(l+1)*u], ord, orders)
		last := int64(math.MinInt64)
		for _, c := range orders.List() {
			if d.Owner(s, c.ID) != p || c.Dir == d.None || !d.Legal(s, p, c.ID, c.Dir) || int8(a[l*u+c.ID]) != int8(c.Dir) {
				t.Fatalf("learner %d (player %d): command %v for a unit of player %d", l, p, c, d.Owner(s, c.ID))
			}
			key := int64(c.ID)
			if ord != nil {
				key += int64(int16(binary.LittleEndian.Uint16(ord[2*c.ID:]))) << 32
			}
			if key < last {
				t.Fatalf("learner %d: command %v out of order", l, c)
			}
			last = key
		}
	}
	if _, err := in.Step(a, o, make([]float32, 2)); err != nil {
		t.Fatal(err)
	}
}
