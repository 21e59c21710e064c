package gametest

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"

	"jgym/env"
	"jgym/game"
)

// CreditCase says how to check a game's per-unit credit (Def.Credit).
type CreditCase[G, S any] struct {
	// Fixture is the game's credit fixture: games recorded with the
	// numpy credit the trainer had before the credit moved into Go
	// (testdata/credit/GAME.json.gz, python-client/tests/fixtures/
	// record_credit.py).
	Fixture string
	// Pure are the weights (by name; the others keep their defaults)
	// under which the credit only splits the score: each unit earns what
	// the game's scoring pays for what it did, and no shaping is added.
	Pure map[string]float64
	// Remainder is the part of player p's score change in the round g
	// just played (before: the state at its start) that no unit earned,
	// computed by the test from the two states and named term by term.
	Remainder func(before *S, g G, p int) int
	// Seats are the bots of the games whose scores are split (default:
	// Demo, the strong bot, Demo, the strong bot).
	Seats [game.NumSeats]string
	// Seeds are those games' seeds (default 1, 2).
	Seeds []int
}

// fixturePython names the trainer's weights as the Go credit names them.
var fixturePython = map[string]string{
	"gem_value": "gem_value", "capture_reward": "capture", "steal_reward": "steal", "loss_penalty": "loss",
}

// creditFixture is the JSON of a credit fixture.
type creditFixture struct {
	Game       string             `json:"game"`
	Commit     string             `json:"commit"`
	Weights    map[string]float64 `json:"weights"`
	AltWeights map[string]float64 `json:"alt_weights"`
	Games      []struct {
		Seed   int64    `json:"seed"`
		Seats  []string `json:"seats"`
		Config string   `json:"config"`
		// Rounds hold, per learner (in seat order), its seat, action,
		// credits and slots owned after the round.
		Rounds []struct {
			Seat       []int       `json:"seat"`
			Action     [][]int     `json:"action"`
			Scores     []int       `json:"scores"`
			Rewards    [][]float64 `json:"rewards"`
			MineAfter  [][]int     `json:"mine_after"`
			AltRewards [][]float64 `json:"alt_rewards"`
			Done       bool        `json:"done"`
		} `json:"rounds"`
	} `json:"games"`
}

// Credit checks a game's per-unit credit, in two subtests:
//
//   - Fixture: the fixture's games, replayed through the env with the
//     recorded actions of their learners (the same scores each round, the
//     learners' seats and which slots each owns after each round as
//     recorded), give the recorded credit exactly (float32 equality) for
//     every round, learner and slot, with the default weights (the
//     trainer's defaults) and with the fixture's other weights: the env's
//     unit rewards with one set (the other weights in the first game, the
//     defaults in the others), Credit called on the same rounds with the
//     other.
//   - Score: in games of bots, for every seat and round, the units'
//     credits under the Pure weights plus the remainder Credit returns
//     add up to the seat's score change (within float32 rounding of the
//     credits' sum), and that remainder is c.Remainder's.
func Credit[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], c CreditCase[G, S]) {
	t.Run("Fixture", func(t *testing.T) { testCreditFixture(t, d, c) })
	t.Run("Score", func(t *testing.T) { testCreditScore(t, d, c) })
}

func readCreditFixture(t *testing.T, path string) *creditFixture {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var fx creditFixture
	if err := json.NewDecoder(z).Decode(&fx); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &fx
}

// goWeights are the fixture's weights that the game's credit has, by its
// names.
func goWeights[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], py map[string]float64) map[string]float64 {
	t.Helper()
	w := map[string]float64{}
	for name, v := range py {
		goName, ok := fixturePython[name]
		if !ok {
			t.Fatalf("fixture weight %q has no Go name", name)
		}
		if slices.ContainsFunc(d.CreditWeights, func(cw env.Weight) bool { return cw.Name == goName }) {
			w[goName] = v
		}
	}
	return w
}

func testCreditFixture[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], c CreditCase[G, S]) {
	fx := readCreditFixture(t, c.Fixture)
	if fx.Game != d.EnvID {
		t.Fatalf("%s is a fixture of %s, not %s", c.Fixture, fx.Game, d.EnvID)
	}
	// The defaults are the trainer's: the first pass sets no weight.
	defaults := goWeights(t, d, fx.Weights)
	for _, cw := range d.CreditWeights {
		if v, ok := defaults[cw.Name]; ok && v != cw.Default {
			t.Errorf("weight %s defaults to %v, the trainer's to %v", cw.Name, cw.Default, v)
		}
	}
	// Each game is replayed once through the env, whose credit uses one
	// set of weights (the other weights for the first game, the defaults
	// for the others); Credit called on the same rounds gives the other.
	sets := [2]map[string]float64{nil, goWeights(t, d, fx.AltWeights)}
	var before S
	nonzero, rounds := 0, 0
	for k, gm := range fx.Games {
		viaEnv := 0
		if k == 0 {
			viaEnv = 1
		}
		direct := weightsOf(d, sets[1-viaEnv])
		s := env.Setup{Config: gm.Config, Seats: gm.Seats, UnitRewards: true, CreditWeights: sets[viaEnv]}
		in, f := newInstance(t, d, s)
		spec := f.Spec()
		u, l := spec.UnitReward.NumElems(), f.Learners()
		if u == 0 || spec.Action.NumElems() != u {
			t.Fatalf("unit reward spec %v for an action of %d slots", spec.UnitReward, spec.Action.NumElems())
		}
		if err := in.Reset(gm.Seed); err != nil {
			t.Fatal(err)
		}
		m := d.MatchOf(in)
		out := env.NewOut(spec, l)
		action := make([]byte, l*spec.Action.Bytes())
		var got [2][]float32
		got[0], got[1] = make([]float32, l*u), make([]float32, l*u)
		reward := make([]float32, l)
		bad := 0
		for r, rd := range gm.Rounds {
			in.Observe(out)
			if len(rd.Seat) != l || len(rd.Action) != l || len(rd.Rewards) != l || len(rd.AltRewards) != l || len(rd.MineAfter) != l {
				t.Fatalf("game %d round %d: the fixture's learners are not the setup's %d", k, r, l)
			}
			for i, seat := range rd.Seat {
				if int(out.Seats[i]) != seat {
					t.Fatalf("game %d round %d: learner %d in seat %d, recorded %d", k, r, i, out.Seats[i], seat)
				}
				if len(rd.Action[i]) != u || len(rd.Rewards[i]) != u || len(rd.AltRewards[i]) != u || len(rd.MineAfter[i]) != u {
					t.Fatalf("game %d round %d learner %d: %d actions, %d credits for %d slots", k, r, i, len(rd.Action[i]), len(rd.Rewards[i]), u)
				}
				for id, a := range rd.Action[i] {
					action[i*u+id] = byte(int8(a))
				}
			}
			d.CopyState(&before, m.State())
			done, err := in.Step(action, nil, reward)
			if err != nil {
				t.Fatalf("game %d round %d: %v", k, r, err)
			}
			in.(env.UnitRewarder).UnitRewards(got[viaEnv])
			clear(got[1-viaEnv])
			for i, seat := range rd.Seat {
				d.Credit(&before, m.Game, seat, direct, got[1-viaEnv][i*u:(i+1)*u])
			}
			if sc := m.Scores(); !slices.Equal(sc[:], rd.Scores) {
				t.Fatalf("game %d round %d: scores %v, recorded %v (not the recorded game)", k, r, sc, rd.Scores)
			}
			if done != rd.Done {
				t.Fatalf("game %d round %d: done %v, recorded %v", k, r, done, rd.Done)
			}
			st := m.State()
			for i, seat := range rd.Seat {
				for id := range u {
					if mine := d.Owner(st, id) == seat; mine != (rd.MineAfter[i][id] == 1) {
						t.Fatalf("game %d round %d seat %d slot %d: its own %v after the round, recorded %v", k, r, seat, id, mine, !mine)
					}
				}
				for set, want := range [2][]float64{rd.Rewards[i], rd.AltRewards[i]} {
					how := "Credit"
					if set == viaEnv {
						how = "the env"
					}
					for id, w := range want {
						if g := got[set][i*u+id]; g != float32(w) {
							if bad++; bad <= 5 {
								t.Errorf("game %d round %d seat %d slot %d, weights %v (%s): credit %v, the trainer's %v", k, r, seat, id, sets[set], how, g, w)
							}
						}
						if w != 0 {
							nonzero++
						}
					}
				}
			}
			rounds++
		}
		if bad > 0 {
			t.Errorf("game %d: %d credits differ", k, bad)
		}
	}
	if nonzero == 0 {
		t.Fatalf("the fixture credits nothing: it tests nothing")
	}
	t.Logf("%s: %d games, %d rounds, 2 sets of weights: %d non-zero credits, all equal", c.Fixture, len(fx.Games), rounds, nonzero)
}

// weightsOf returns the credit's weights in the order of Def.CreditWeights:
// those set by name, the defaults for the others.
func weightsOf[C game.Config, G, S any, D game.Dir](d *game.Def[C, G, S, D], set map[string]float64) []float64 {
	w := make([]float64, len(d.CreditWeights))
	for i, cw := range d.CreditWeights {
		w[i] = cw.Default
		if v, ok := set[cw.Name]; ok {
			w[i] = v
		}
	}
	return w
}

func testCreditScore[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], c CreditCase[G, S]) {
	seats := c.Seats
	if seats == ([game.NumSeats]string{}) {
		seats = [game.NumSeats]string{"Demo", d.StrongBot, "Demo", d.StrongBot}
	}
	seeds := c.Seeds
	if seeds == nil {
		seeds = []int{1, 2}
	}
	cfg := d.DefaultConfig()
	spec, err := d.EnvSpec(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := weightsOf(d, c.Pure)
	dst := make([]float32, spec.Action.NumElems())
	var before S
	credited, rest, rounds := 0, 0, 0
	for _, seed := range seeds {
		m, err := d.NewBotMatch(cfg, seed, seats)
		if err != nil {
			t.Fatal(err)
		}
		for !m.Done() {
			d.CopyState(&before, m.State())
			sc0 := m.Scores()
			if err := m.PlayRound(); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			sc1 := m.Scores()
			for p := range game.NumSeats {
				clear(dst)
				rem := d.Credit(&before, m.Game, p, w, dst)
				sum := 0.0
				for _, x := range dst {
					sum += float64(x)
				}
				delta := sc1[p] - sc0[p]
				if diff := sum + float64(rem) - float64(delta); math.Abs(diff) > 1e-3+1e-6*math.Abs(float64(delta)) {
					t.Fatalf("seed %d round %d player %d: credits %v + remainder %v != score change %d", seed, m.Round(), p, sum, rem, delta)
				}
				if want := c.Remainder(&before, m.Game, p); float64(rem) != float64(want) {
					t.Fatalf("seed %d round %d player %d: remainder %v, what no unit earned %d", seed, m.Round(), p, rem, want)
				}
				if sum != 0 {
					credited++
				}
				if rem != 0 {
					rest++
				}
			}
			rounds++
		}
	}
	if credited == 0 || rest == 0 {
		t.Fatalf("%d rounds: %d seat-rounds with credits, %d with a remainder: the games test nothing", rounds, credited, rest)
	}
	t.Logf("%d rounds: %d seat-rounds with credits, %d with a remainder", rounds, credited, rest)
}
