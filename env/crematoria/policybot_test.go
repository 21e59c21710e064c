package crematoria_test

import (
	"context"
	"errors"
	"math"
	"os"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/env/crematoria"
	"jgym/env/crematoria/riddick"
	"jgym/policy"
)

func exampleBot(t testing.TB) *policy.Model {
	t.Helper()
	m, err := policy.Load(exampleModel, crematoria.Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The policy bot commands, in slot order, the argmax of its logits for
// every unit it owns (None left out), and only legal moves.
func TestPolicyBotPlaysArgmaxInSlotOrder(t *testing.T) {
	m := exampleBot(t)
	g, err := crematoria.New(crematoria.DefaultConfig(), 3)
	if err != nil {
		t.Fatal(err)
	}
	const me = 2
	bot := crematoria.Def.NewPolicyBot(m, me)
	o := *crematoria.Def.NewOrders()
	o.Reset(len(g.Units))
	bot.Play(&g.State, &o)
	if bot.Err() != nil {
		t.Fatal(bot.Err())
	}
	best := policy.Argmax(bot.Logits(), m.NumSlots, crematoria.NumDirs)
	var want []crematoria.Command
	for id, d := range best {
		if g.Units[id].Player == me && crematoria.Dir(d) != crematoria.None {
			want = append(want, crematoria.Command{ID: id, Dir: crematoria.Dir(d)})
		}
	}
	got := o.List()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d commands, want %d", len(got), len(want))
	}
	for k, c := range got {
		if c != want[k] {
			t.Errorf("command %d = %+v, want %+v", k, c, want[k])
		}
		u := g.Units[c.ID]
		if !crematoria.CanMove(&g.State, &u, c.Dir) {
			t.Errorf("unit %d: %v is not legal", c.ID, c.Dir)
		}
	}
}

// A model of 80 slots refuses a game of another number of units.
func TestPolicyBotRejectsOtherSlotCount(t *testing.T) {
	m := exampleBot(t)
	cfg := crematoria.DefaultConfig()
	cfg.NbPioneers--
	g, err := crematoria.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	bot := crematoria.Def.NewPolicyBot(m, 0)
	o := *crematoria.Def.NewOrders()
	o.Reset(len(g.Units))
	bot.Play(&g.State, &o)
	if !errors.Is(bot.Err(), policy.ErrSignature) || len(o.List()) != 0 {
		t.Errorf("Play with %d slots on an 80-slot model: err %v, %d orders", crematoria.NumSlots(&cfg), bot.Err(), len(o.List()))
	}
}

// A policy seat plays a match through its factory.
func TestMatchWithPolicyBot(t *testing.T) {
	f := crematoria.Def.PolicyFactory(exampleBot(t))
	var bots [crematoria.NumPlayers]crematoria.Bot
	for p := range bots {
		if p == 1 {
			bots[p] = f(p, 7)
		} else {
			bots[p] = crematoria.NewDemo(p, 7)
		}
	}
	match, err := crematoria.Def.NewMatch(crematoria.DefaultConfig(), 7, [4]string{"Demo", "ppo", "Demo", "Demo"}, bots)
	if err != nil {
		t.Fatal(err)
	}
	for r := 0; r < 5; r++ {
		if err := match.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	if err := bots[1].(*crematoria.PolicyBot).Err(); err != nil {
		t.Fatal(err)
	}
}

// The exported example model is a Crematoria policy (trained on
// crematoria-obs-1: its bot feeds it that version's four tensors).
func TestPolicySignature(t *testing.T) {
	sig := crematoria.Def.PolicySignature()
	if sig.ObservationVersion != crematoria.ObservationVersion || sig.Actions != crematoria.NumDirs || len(sig.Inputs) != 6 {
		t.Fatalf("Def.PolicySignature() = %+v", sig)
	}
	if len(sig.Older) != 2 || sig.Older[0].ObservationVersion != crematoria.ObservationVersion2 || len(sig.Older[0].Inputs) != 5 ||
		sig.Older[1].ObservationVersion != crematoria.ObservationVersion1 || len(sig.Older[1].Inputs) != 4 {
		t.Fatalf("Def.PolicySignature().Older = %+v", sig.Older)
	}
	if _, err := os.Stat(exampleModel); err != nil {
		t.Fatal(err)
	}
	if m := exampleBot(t); m.NumSlots != 80 || m.Signature.ObservationVersion != crematoria.ObservationVersion1 {
		t.Errorf("NumSlots = %d, version %q; want 80, %q", m.NumSlots, m.Signature.ObservationVersion, crematoria.ObservationVersion1)
	}
}

// scoreTwin plays a seat with the bot of a model whose opponent_order is
// score and checks, every round, that its logits are those of the same
// weights without the key on the tensors relabelled by
// OrderOpponentsByScore, and counts the rounds where the two decide
// differently.
type scoreTwin struct {
	t           *testing.T
	bot         *crematoria.PolicyBot // opponent_order score
	seat        *crematoria.PolicyBot // the same weights, by seat
	plain       *policy.Model
	me          int
	ob          crematoria.Observer
	rounds, dif int
}

func (w *scoreTwin) Play(s *crematoria.State, o *crematoria.Orders) {
	w.bot.Play(s, o)
	u := w.plain.NumSlots
	obs := [][]byte{make([]byte, crematoria.BoardBytes), make([]byte, u*crematoria.UnitFeatures),
		make([]byte, 4*crematoria.NumGlobals), make([]byte, u*crematoria.NumDirs)}
	w.ob.Board(s, w.me, obs[0])
	w.ob.Units(s, w.me, obs[1])
	w.ob.Globals(s, w.me, obs[2])
	w.ob.Mask(s, w.me, obs[3])
	crematoria.OrderOpponentsByScore(obs[0], obs[1], obs[2])
	want, err := w.plain.Logits(nil, obs)
	if err != nil {
		w.t.Fatal(err)
	}
	got := w.bot.Logits()
	for k := range want {
		if math.Float32bits(got[k]) != math.Float32bits(want[k]) {
			w.t.Fatalf("round %d: logit %d = %g, want %g (the plain model on the relabelled tensors)", s.Round, k, got[k], want[k])
		}
	}
	mine, err := w.seat.Decide(s, w.me)
	if err != nil {
		w.t.Fatal(err)
	}
	theirs, _ := w.bot.Decide(s, w.me)
	w.rounds++
	if !slices.Equal(mine, theirs) {
		w.dif++
	}
}

// A model whose opponent_order is score feeds its network the opponents
// relabelled by score: its logits are the plain model's on the relabelled
// tensors, and with Riddick at the table (scores that differ) it decides
// otherwise than the same weights by seat in some rounds.
func TestPolicyBotOrdersOpponentsByScore(t *testing.T) {
	raw, err := os.ReadFile(exampleModel)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := policy.Parse(raw, crematoria.Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	m, err := policy.Parse(coursetest.WithMetadata(raw, policy.KeyOpponentOrder, policy.OpponentsByScore), crematoria.Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if plain.OpponentOrder != policy.OpponentsBySeat || m.OpponentOrder != policy.OpponentsByScore {
		t.Fatalf("OpponentOrder = %q and %q, want %q and %q", plain.OpponentOrder, m.OpponentOrder, policy.OpponentsBySeat, policy.OpponentsByScore)
	}
	const seed, me = 5, 2
	w := &scoreTwin{t: t, bot: crematoria.Def.NewPolicyBot(m, me), seat: crematoria.Def.NewPolicyBot(plain, me), plain: plain, me: me}
	bots := [crematoria.NumPlayers]crematoria.Bot{riddick.New(0, seed), crematoria.NewDemo(1, seed), w, crematoria.NewDemo(3, seed)}
	cfg := crematoria.DefaultConfig()
	cfg.NbRounds = 120
	match, err := crematoria.Def.NewMatch(cfg, seed, [4]string{"Riddick", "Demo", "ppo", "Demo"}, bots)
	if err != nil {
		t.Fatal(err)
	}
	if err := match.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rounds, %d decided otherwise than by seat", w.rounds, w.dif)
	if w.dif == 0 {
		t.Errorf("in %d rounds the model by score decided as the model by seat: the relabelling is not live", w.rounds)
	}
}
