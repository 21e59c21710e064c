package gametest

import (
	"bytes"
	"io"
	"maps"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/dataset"
	"jgym/env"
	"jgym/game"
	"jgym/policy"
)

// testDataset replays a game of bots as a dataset: every seat's
// observation equals the env's encoding of the engine's own state, and a
// label is the direction the seat's player ordered for that unit (in its
// view). Then expert labels: the strong bot labelling its own game gives
// its orders.
func testDataset[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o Options) {
	cfg := d.DefaultConfig()
	names := [game.NumSeats]string{"Demo", d.StrongBot, "Demo", d.StrongBot}
	trace, obs, orders := playRecorded(t, d, cfg, 5, names)
	rep, err := d.Dataset().Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := rep.Spec()
	if want, _ := d.EnvSpec(&cfg); !equalSpecs(spec, want) {
		t.Fatalf("the replay's spec differs from the env's")
	}
	if got := rep.Names(); !slices.Equal(got, names[:]) {
		t.Errorf("Names() = %v, want %v", got, names)
	}
	if rep.Seed() != 5 {
		t.Errorf("Seed() = %d, want 5", rep.Seed())
	}
	_, estimates := rep.(dataset.Estimator)
	got := env.NewOut(spec, 1).Obs
	action := make([]byte, spec.Action.NumElems())
	rounds, labels := 0, 0
	for rep.Next() {
		r := rep.Round()
		if r != rounds || r >= len(obs) {
			t.Fatalf("Round() = %d, want %d of %d", r, rounds, len(obs))
		}
		for p := range game.NumSeats {
			rep.Observe(p, got)
			for i, ts := range spec.Observation {
				if !estimates && !bytes.Equal(obs[r][p][i], got[i]) {
					t.Fatalf("round %d seat %d %s: the replay's observation differs from the engine's", r, p, ts.Name)
				}
			}
			rep.Label(p, action)
			ordered := map[int]D{}
			for _, c := range orders[r][p] {
				ordered[c.ID] = c.Dir
			}
			for id, b := range action {
				dir := D(int8(b))
				if dir == d.None {
					continue
				}
				labels++
				if od, ok := ordered[id]; !ok || od != dir {
					t.Errorf("round %d seat %d slot %d: label %v, ordered %v (given: %v)", r, p, id, dir, od, ok)
				}
			}
		}
		rounds++
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	if rounds != len(obs) || labels == 0 {
		t.Errorf("rounds, labels = %d, %d; want %d, > 0", rounds, labels, len(obs))
	}
	t.Run("Expert", func(t *testing.T) { testExpert(t, d, trace, orders, names) })
	for _, o := range slices.Sorted(maps.Keys(d.OpponentOrders)) {
		t.Run("OpponentOrder="+o, func(t *testing.T) { testDatasetOpponents(t, d, o) })
	}
	t.Run("OpponentOrder=unknown", func(t *testing.T) {
		rep, err := d.Dataset().Open(trace, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.(dataset.OpponentOrderer).OrderOpponents("alphabet"); err == nil {
			t.Error(`OrderOpponents("alphabet") = nil, want an error`)
		}
	})
}

// testDatasetOpponents plays a game through the env with the option
// opponent_order o (a learner in seat 1 that gives no orders; after it
// Null, the strong bot and Demo, whose scores soon leave seat order) and
// replays the env's trace for a dataset in order o: every round, the
// learner's observation the dataset writes equals the env's, byte for
// byte, and the env's differs from the seat-order one in some rounds (or
// the test proves little). A game whose replay estimates features the traces do
// not print (dataset.Estimator) is held to the bytes where its seat-order
// replay equals the env's seat-order observation.
func testDatasetOpponents[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], o string) {
	const seed, learner = 9, 1
	seats := []string{"Demo", "", "Null", d.StrongBot}
	play := func(order string) (trace []byte, obs [][][]byte) {
		in, f := newInstance(t, d, env.Setup{Seats: seats, OpponentOrder: order})
		var buf bytes.Buffer
		in.(env.Tracer).SetTrace(func(int, int64) (io.WriteCloser, error) {
			return coursetest.NopCloser{Writer: &buf}, nil
		})
		if err := in.Reset(seed); err != nil {
			t.Fatal(err)
		}
		spec := f.Spec()
		act := bytes.Repeat([]byte{byte(int8(d.None))}, spec.Action.NumElems())
		reward := make([]float32, 1)
		for done := false; !done; {
			out := env.NewOut(spec, 1)
			in.Observe(out)
			obs = append(obs, out.Obs)
			var err error
			if done, err = in.Step(act, nil, reward); err != nil {
				t.Fatal(err)
			}
		}
		return buf.Bytes(), obs
	}
	trace, ordered := play(o)
	seatTrace, bySeat := play(policy.OpponentsBySeat)
	if !bytes.Equal(trace, seatTrace) {
		t.Fatalf("the opponents' order changed the game: %s", coursetest.FirstDiff(seatTrace, trace))
	}
	replay := func(order string) [][][]byte {
		rep, err := d.Dataset().Open(trace, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.(dataset.OpponentOrderer).OrderOpponents(order); err != nil {
			t.Fatal(err)
		}
		var obs [][][]byte
		for rep.Next() {
			got := env.NewOut(rep.Spec(), 1).Obs
			rep.Observe(learner, got)
			obs = append(obs, got)
		}
		if err := rep.Err(); err != nil {
			t.Fatal(err)
		}
		return obs
	}
	got, gotBySeat := replay(o), replay(policy.OpponentsBySeat)
	if len(got) != len(ordered) {
		t.Fatalf("the replay has %d rounds, the env played %d", len(got), len(ordered))
	}
	cfg := d.DefaultConfig()
	spec, _ := d.EnvSpec(&cfg)
	moved := 0
	for r := range ordered {
		differs := false
		for k, ts := range spec.Observation {
			want, seatEnv, seatRep := ordered[r][k], bySeat[r][k], gotBySeat[r][k]
			differs = differs || !bytes.Equal(want, seatEnv)
			for i := range want {
				if seatRep[i] == seatEnv[i] && got[r][k][i] != want[i] {
					t.Fatalf("round %d %s byte %d: the dataset's %d, the env's %d (opponent order %s)", r, ts.Name, i, got[r][k][i], want[i], o)
				}
			}
		}
		if differs {
			moved++
		}
	}
	t.Logf("%d rounds, the env's observation in order %s differs from seat order in %d", len(ordered), o, moved)
	if moved == 0 {
		t.Errorf("the opponents never reordered: the test proves nothing")
	}
}

// playRecorded plays a game of the named bots, writing its trace, and
// records each seat's observation before every round and the orders of
// each round.
func playRecorded[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], cfg C, seed int, names [game.NumSeats]string) (trace []byte, obs [][game.NumSeats][][]byte, orders [][game.NumSeats][]game.Command[D]) {
	t.Helper()
	m, err := d.NewBotMatch(cfg, seed, names)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	spec, _ := d.EnvSpec(&cfg)
	enc := d.NewEncoder()
	for !m.Done() {
		var round [game.NumSeats][][]byte
		for p := range round {
			round[p] = env.NewOut(spec, 1).Obs
			enc.Encode(m.State(), p, round[p])
		}
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		var cmds [game.NumSeats][]game.Command[D]
		for p := range cmds {
			cmds[p] = slices.Clone(m.Orders(p))
		}
		obs, orders = append(obs, round), append(orders, cmds)
	}
	return buf.Bytes(), obs, orders
}

// testExpert labels the recorded game with its strong bot as the expert:
// in the strong bot's seats the labels are exactly the orders it gave (its
// first command per unit it owned, in its view), so the bot saw the state
// it played; in the others they differ somewhere from what Demo ordered.
func testExpert[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], trace []byte, orders [][game.NumSeats][]game.Command[D], names [game.NumSeats]string) {
	rep, err := d.Dataset().Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	ex := rep.(dataset.Expert)
	if err := ex.UseExpert("cpp:AIx.cc"); err == nil {
		t.Fatal("UseExpert accepted a prefixed name")
	}
	if err := ex.UseExpert(d.StrongBot); err != nil {
		t.Fatal(err)
	}
	spec := rep.Spec()
	action := make([]byte, spec.Action.NumElems())
	again := make([]byte, len(action))
	want := make([]byte, len(action))
	differ := 0
	for rep.Next() {
		r := rep.Round()
		for p := range game.NumSeats {
			rep.Label(p, action)
			rep.Label(p, again)
			if !bytes.Equal(action, again) {
				t.Fatalf("round %d seat %d: a second Label differs", r, p)
			}
			for i := range want {
				want[i] = byte(int8(d.None))
			}
			for _, c := range orders[r][p] {
				if c.ID >= 0 && c.ID < len(want) {
					want[c.ID] = byte(int8(c.Dir))
				}
			}
			switch {
			case names[p] == d.StrongBot && !bytes.Equal(action, want):
				t.Fatalf("round %d seat %d: the expert's labels differ from its orders", r, p)
			case names[p] != d.StrongBot && !bytes.Equal(action, want):
				differ++
			}
		}
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	if differ == 0 {
		t.Error("in Demo's seats the expert's labels always equal Demo's orders")
	}
}

// equalSpecs reports whether two specs describe the same tensors.
func equalSpecs(a, b env.Spec) bool {
	if len(a.Observation) != len(b.Observation) || a.ObservationVersion != b.ObservationVersion {
		return false
	}
	for i := range a.Observation {
		if a.Observation[i].Name != b.Observation[i].Name || !slices.Equal(a.Observation[i].Shape, b.Observation[i].Shape) {
			return false
		}
	}
	return slices.Equal(a.Action.Shape, b.Action.Shape)
}
