package moria

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/internal/race"
	"jgym/policy"
)

// The exported players of models whose metadata names Moria's orders (the
// opponents by score, the attacks first, both) compile cleanly and play
// the Go policy bot's games byte for byte, with Balin at the table so that
// the scores differ and units fight; the same weights without the keys
// play other games, or the orders proved nothing.
func TestCppExportOrdersPlayAsPolicyBot(t *testing.T) {
	needCpp(t)
	raw := tinyPolicy(NumSlots(&defaultConfig), 4)
	plain := parseModel(t, raw)
	score := coursetest.WithMetadata(raw, policy.KeyOpponentOrder, policy.OpponentsByScore)
	attacks := coursetest.WithMetadata(raw, policy.KeyActionOrder, policy.OrderAttacksFirst)
	variants := []struct {
		name  string
		model []byte
		cc    []string // what the file must hold
	}{
		{"Score", score, []string{"    encode();\n    order_opponents();\n", "opp_score_order("}},
		{"Attacks", attacks, []string{"if (attack == (pass == 0))"}},
		{"Both", coursetest.WithMetadata(score, policy.KeyActionOrder, policy.OrderAttacksFirst),
			[]string{"order_opponents();", "if (attack == (pass == 0))"}},
	}
	type game struct {
		seed, seat int
		names      [NumPlayers]string // Balin or Demo; the seat is the player's
	}
	games := []game{
		{11, 0, [4]string{"", "Demo", "Balin", "Demo"}},
		{12, 3, [4]string{"Balin", "Demo", "Balin", ""}},
	}
	rounds := 200
	if race.Enabled {
		games, rounds = games[:1], 30
	}
	cfg := withRounds(DefaultConfig(), rounds)
	dir := t.TempDir()
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			src, m := exportedModel(t, dir, v.name, exportTarget(), v.model)
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			for _, want := range v.cc {
				if !strings.Contains(text, want) {
					t.Errorf("the exported file has no %q", want)
				}
			}
			out, err := exec.Command("g++", "-std=c++11", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
				"-I", kitDir, src).CombinedOutput()
			if err != nil {
				t.Fatalf("the exported file does not compile cleanly: %v\n%s", err, out)
			}
			prog := compiled(t, src, cppOpts())
			for _, g := range games {
				seat := func(bot func(p int) Bot) (names [NumPlayers]string, bots [NumPlayers]Bot) {
					for p, n := range g.names {
						switch {
						case p == g.seat:
							names[p], bots[p] = v.name, bot(p)
						case n == "Balin":
							names[p], bots[p] = n, NewBalin(p, g.seed)
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
				if orders < rounds {
					t.Errorf("seed %d: %d orders in %d rounds: the comparison proves little", g.seed, orders, rounds)
				}
				_, bySlot := seat(func(p int) Bot { return Def.NewPolicyBot(plain, p) })
				other, _ := playCounting(t, cfg, g.seed, names, bySlot, []int{g.seat})
				if bytes.Equal(other, want) {
					t.Errorf("seed %d, seat %d: the same weights without the metadata play the same game: the order is not live", g.seed, g.seat)
					continue
				}
				t.Logf("seed %d, seat %d: %d rounds, %d orders, traces equal; without the metadata another game", g.seed, g.seat, rounds, orders)
			}
		})
	}
}
