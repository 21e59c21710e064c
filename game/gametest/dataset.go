package gametest

import (
	"bytes"
	"slices"
	"testing"

	"jgym/dataset"
	"jgym/env"
	"jgym/game"
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
