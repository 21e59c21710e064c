package pandemic

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppexport"
	"jgym/internal/race"
	"jgym/policy"
)

// The exported player of a model whose opponent_order is score compiles
// cleanly, calls order_opponents() right after encode(), and plays the Go
// policy bot's games byte for byte with Pasteur at the table (scores that
// differ, so that the opponents are relabelled); the same weights by seat
// play other games, or the relabelling proved nothing. A model asking
// for an action order is refused: Pandemic offers none.
func TestCppExportByScorePlaysAsPolicyBot(t *testing.T) {
	needCpp(t)
	raw := exportPolicy(60, 1)
	if _, err := cppexport.Export(coursetest.WithMetadata(raw, policy.KeyActionOrder, policy.OrderAttacksFirst), exportTarget(),
		cppexport.Options{Name: "Tiny"}); err == nil {
		t.Error("a model whose action_order is attacks_first exported")
	}
	plain, err := policy.Parse(raw, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, m := exportedModel(t, dir, "Score", exportTarget(), coursetest.WithMetadata(raw, policy.KeyOpponentOrder, policy.OpponentsByScore))
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("    encode();\n    order_opponents();\n")) {
		t.Error("the player by score does not call order_opponents right after encode")
	}
	out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
		"-I", kitDir, path).CombinedOutput()
	if err != nil {
		t.Fatalf("the exported player does not compile cleanly: %v\n%s", err, out)
	}
	prog := compiled(t, path)
	type game struct {
		seed, seat int
		names      [NumPlayers]string // Pasteur or Demo; the seat is the player's
	}
	games := []game{
		{21, 1, [4]string{"Pasteur", "", "Demo", "Demo"}},
		{22, 2, [4]string{"Demo", "Pasteur", "", "Pasteur"}},
	}
	cfg := DefaultConfig()
	if race.Enabled {
		games, cfg.NbRounds = games[:1], 30
	}
	for _, g := range games {
		seat := func(bot func(p int) Bot) (names [NumPlayers]string, bots [NumPlayers]Bot) {
			for p, n := range g.names {
				switch {
				case p == g.seat:
					names[p], bots[p] = "Score", bot(p)
				case n == "Pasteur":
					names[p], bots[p] = n, NewPasteur(p, g.seed)
				default:
					names[p], bots[p] = n, NewDemo(p, g.seed)
				}
			}
			return names, bots
		}
		names, gob := seat(func(p int) Bot { return Def.NewPolicyBot(m, p) })
		want, orders := playCounting(t, cfg, g.seed, names, gob, []int{g.seat})
		_, cpp := seat(func(p int) Bot {
			b := Def.NewCppBot(prog, p, g.seed)
			t.Cleanup(func() { b.Close() })
			return b
		})
		got, _ := playCounting(t, cfg, g.seed, names, cpp, []int{g.seat})
		if !bytes.Equal(want, got) {
			t.Errorf("seed %d, seat %d: the exported player's trace differs from the policy bot's: %s", g.seed, g.seat, coursetest.FirstDiff(want, got))
			continue
		}
		if orders < cfg.NbRounds {
			t.Errorf("seed %d: %d orders in %d rounds: the comparison proves little", g.seed, orders, cfg.NbRounds)
		}
		_, bySeat := seat(func(p int) Bot { return Def.NewPolicyBot(plain, p) })
		other, _ := playCounting(t, cfg, g.seed, names, bySeat, []int{g.seat})
		if bytes.Equal(other, want) {
			t.Errorf("seed %d, seat %d: the same weights by seat play the same game: the relabelling is not live", g.seed, g.seat)
			continue
		}
		t.Logf("seed %d, seat %d: %d rounds, %d orders, traces equal; by seat another game", g.seed, g.seat, cfg.NbRounds, orders)
	}
}
