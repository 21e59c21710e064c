package cppexport_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppexport"
	"jgym/env/crematoria"
	"jgym/env/crematoria/riddick"
	"jgym/policy"
)

// TestExportOpponentOrder: a model whose opponent_order is score exports
// to the file of the same weights without the key plus exactly three
// things (a header line, the call of order_opponents after encode, the
// Target's member), and a Target that has no code for the order refuses
// the model.
func TestExportOpponentOrder(t *testing.T) {
	raw, err := os.ReadFile("testdata/small.onnx")
	if err != nil {
		t.Fatal(err)
	}
	opts := cppexport.Options{Name: "Mine", Source: "x.onnx"}
	plain, err := cppexport.Export(raw, crematoriaTarget, opts)
	if err != nil {
		t.Fatal(err)
	}
	byScore := coursetest.WithMetadata(raw, policy.KeyOpponentOrder, policy.OpponentsByScore)
	score, err := cppexport.Export(byScore, crematoriaTarget, opts)
	if err != nil {
		t.Fatal(err)
	}
	bySeat, err := cppexport.Export(coursetest.WithMetadata(raw, policy.KeyOpponentOrder, policy.OpponentsBySeat), crematoriaTarget, opts)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain), "order_opponents") || strings.Contains(string(bySeat), "order_opponents") {
		t.Error("a model by seat calls order_opponents")
	}
	member := crematoriaTarget.Opponents[policy.OpponentsByScore]
	if member == "" {
		t.Fatal("crematoria's target has no code for the opponents by score")
	}
	if !strings.Contains(string(score), "    encode();\n    order_opponents();\n") {
		t.Error("the player by score does not call order_opponents right after encode")
	}
	// Without the model's hash, the three additions and the only other
	// line that differs, the files are equal.
	strip := func(b []byte) string {
		s := strings.Replace(string(b), member, "", 1)
		var keep []string
		for _, l := range strings.SplitAfter(s, "\n") {
			if strings.Contains(l, "model sha256") || l == "//   opponent order      score\n" || l == "    order_opponents();\n" {
				continue
			}
			keep = append(keep, l)
		}
		return strings.Join(keep, "")
	}
	if got, want := strip(score), strip(plain); got != want {
		t.Errorf("the export by score is not the plain one with the opponents' code added: line %d differs", firstDiffLine([]byte(got), []byte(want)))
	}
	if strip(bySeat) != strip(plain) {
		t.Error("the export of opponent_order seat differs from the export without the key")
	}
	// A game whose player has no code for the order refuses it.
	tg := crematoriaTarget
	tg.Opponents = nil
	if _, err := cppexport.Export(byScore, tg, opts); !errors.Is(err, policy.ErrUnsupported) || !strings.Contains(err.Error(), `"score"`) {
		t.Errorf("a target without the order: err = %v, want ErrUnsupported naming it", err)
	}
}

// TestOpponentOrderScoreMatchesPolicyBot plays the exported player of the
// model by score and the Go policy bot of it in the same seats of the same
// games with Riddick at the table, so that the scores differ and the
// opponents are relabelled: the traces must be equal byte for byte. The
// same weights by seat play another game, or the relabelling proved
// nothing.
func TestOpponentOrderScoreMatchesPolicyBot(t *testing.T) {
	tm := testModel{"SmallScore", scoreModel(t)}
	b := compiled(t, tm, false, nil)
	raw, err := os.ReadFile("testdata/small.onnx")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := policy.Parse(raw, crematoria.Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	if b.model.OpponentOrder != policy.OpponentsByScore {
		t.Fatalf("%s: OpponentOrder = %q, want %q", tm.path, b.model.OpponentOrder, policy.OpponentsByScore)
	}
	type game struct {
		seed, seat int
		names      [4]string // Riddick or Demo; the seat is the player's
		cfg        crematoria.Config
	}
	games := []game{
		{31, 2, [4]string{"Riddick", "Demo", "", "Demo"}, crematoria.DefaultConfig()},
		{32, 0, [4]string{"", "Demo", "Riddick", "Riddick"}, crematoria.DefaultConfig()},
	}
	switch {
	case raceEnabled:
		games = []game{{31, 2, [4]string{"Riddick", "Demo", "", "Demo"}, shortConfig(12)}}
	case testing.Short():
		games[0].cfg, games[1].cfg = shortConfig(30), shortConfig(30)
	}
	for _, g := range games {
		seat := func(bot func(p int) crematoria.Bot) (names [4]string, bots [4]crematoria.Bot) {
			names = g.names
			for p, n := range names {
				switch {
				case p == g.seat:
					names[p], bots[p] = tm.name, bot(p)
				case n == "Riddick":
					bots[p] = riddick.New(p, g.seed)
				default:
					bots[p] = crematoria.NewDemo(p, g.seed)
				}
			}
			return names, bots
		}
		names, gob := seat(func(p int) crematoria.Bot { return crematoria.Def.NewPolicyBot(b.model, p) })
		want, orders := play(t, g.cfg, g.seed, names, gob)
		_, cpp := seat(func(p int) crematoria.Bot { return crematoria.Def.NewCppBot(b.prog, p, g.seed) })
		got, _ := play(t, g.cfg, g.seed, names, cpp)
		if !bytes.Equal(got, want) {
			t.Errorf("seed %d, seat %d: the trace of cpp:AI%s.cc differs from policy:%s's (line %d)",
				g.seed, g.seat, tm.name, tm.path, firstDiffLine(got, want))
			continue
		}
		if orders[g.seat] == 0 {
			t.Errorf("seed %d: the policy gave no orders: the comparison proves little", g.seed)
		}
		_, bySeat := seat(func(p int) crematoria.Bot { return crematoria.Def.NewPolicyBot(plain, p) })
		other, _ := play(t, g.cfg, g.seed, names, bySeat)
		if bytes.Equal(other, want) {
			t.Errorf("seed %d, seat %d: the same weights by seat play the same game: the relabelling is not live", g.seed, g.seat)
			continue
		}
		t.Logf("seed %d, seat %d: %d rounds, %d orders, traces equal; by seat the game differs from line %d",
			g.seed, g.seat, g.cfg.NbRounds, orders[g.seat], firstDiffLine(other, want))
	}
}

// TestOpponentOrderScoreInputsMatchGo runs the debug variant of the player
// by score with a Riddick across the table, whose units (Pioneers outside
// among them) lead some rounds: the tensors its network reads, relabelled,
// and its logits must be the Go bot's.
func TestOpponentOrderScoreInputsMatchGo(t *testing.T) {
	rounds, games := 120, []seatGame{{41, 1, false, true}, {42, 3, true, true}}
	switch {
	case raceEnabled:
		rounds, games = 40, games[:1]
	case testing.Short():
		rounds = 40
	}
	testInputsAndLogits(t, []testModel{{"SmallScore", scoreModel(t)}}, rounds, games)
}
