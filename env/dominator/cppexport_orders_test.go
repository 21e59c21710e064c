package dominator

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

// The exported player of a model whose opponent_order is score compiles
// cleanly, calls order_opponents() right after encode(), and plays the Go
// policy bot's games byte for byte with Khan at the table (scores that
// differ, so that the opponents are relabelled); the same weights by seat
// play other games, or the relabelling proved nothing. A model asking
// for an action order is refused: Dominator offers none.
func TestExportedPlayerByScoreMatchesPolicyBot(t *testing.T) {
	needCpp(t)
	cfg := DefaultConfig()
	raw := tinyPolicy(NumSlots(&cfg), cfg.Rows)
	if _, err := exportTiny(t, coursetest.WithMetadata(raw, policy.KeyActionOrder, policy.OrderAttacksFirst)); err == nil {
		t.Error("a model whose action_order is attacks_first exported")
	}
	plain, err := policy.Parse(raw, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	score := coursetest.WithMetadata(raw, policy.KeyOpponentOrder, policy.OpponentsByScore)
	m, err := policy.Parse(score, Def.PolicySignature())
	if err != nil {
		t.Fatal(err)
	}
	path, err := exportTiny(t, score)
	if err != nil {
		t.Fatal(err)
	}
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
		names      [NumPlayers]string // Khan or Demo; the seat is the player's
	}
	games := []game{
		{21, 1, [4]string{"Khan", "", "Demo", "Demo"}},
		{22, 2, [4]string{"Demo", "Khan", "", "Khan"}},
	}
	if race.Enabled {
		games = games[:1]
		cfg.NbRounds = 30
	}
	khan := newKhan(t)
	for _, g := range games {
		seat := func(bot func(p int) Bot) (names [NumPlayers]string, bots [NumPlayers]Bot) {
			for p, n := range g.names {
				switch {
				case p == g.seat:
					names[p], bots[p] = "Tiny", bot(p)
				case n == "Khan":
					names[p], bots[p] = n, khan(p, g.seed)
				default:
					names[p], bots[p] = n, NewDemo(p, g.seed)
				}
			}
			return names, bots
		}
		names, gob := seat(func(p int) Bot { return Def.NewPolicyBot(m, p) })
		want, err := playTrace(cfg, g.seed, names, gob)
		if err != nil {
			t.Fatal(err)
		}
		_, cpp := seat(func(p int) Bot {
			b := Def.NewCppBot(prog, p, g.seed)
			t.Cleanup(func() { b.Close() })
			return b
		})
		got, err := playTrace(cfg, g.seed, names, cpp)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Errorf("seed %d, seat %d: the exported player's trace differs from the policy bot's: %s", g.seed, g.seat, coursetest.FirstDiff(want, got))
			continue
		}
		_, bySeat := seat(func(p int) Bot { return Def.NewPolicyBot(plain, p) })
		other, err := playTrace(cfg, g.seed, names, bySeat)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(other, want) {
			t.Errorf("seed %d, seat %d: the same weights by seat play the same game: the relabelling is not live", g.seed, g.seat)
			continue
		}
		t.Logf("seed %d, seat %d: %d rounds, traces equal; by seat another game", g.seed, g.seat, cfg.NbRounds)
	}
	if strings.Contains(string(src), "attack") {
		t.Error("the player by score holds an action order")
	}
}
