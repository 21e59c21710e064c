package cppexport_test

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/env/crematoria"
	"jgym/env/dominator"
	"jgym/game"
	"jgym/policy"
)

// shipped is a recipe policy that the repository ships with its course kit
// player (python-client/examples/models/README.md says how they were made
// and measured).
type shipped struct {
	model  string // the ONNX file
	player string // its export, AI<name>.cc
	name   string // the player's name
	target cppexport.Target
	// games plays the compiled player and the Go policy bot of the model in
	// the same seats of the same games, the game's strong bot and Demos at
	// the table, and fails where their traces differ.
	games func(t *testing.T, s shipped)
}

// shippedPlayers are the shipped recipe policies, one row per game.
var shippedPlayers = []shipped{
	{
		model:  "../python-client/examples/models/crematoria_recipe.onnx",
		player: "../python-client/examples/models/AICremRecipe.cc",
		name:   "CremRecipe",
		target: crematoriaTarget,
		games:  sameGames(crematoria.Def, shortConfig),
	},
	{
		model:  "../python-client/examples/models/dominator_recipe.onnx",
		player: "../python-client/examples/models/AIDomRecipe.cc",
		name:   "DomRecipe",
		target: cppTargetOf(dominator.Def),
		games: sameGames(dominator.Def, func(rounds int) dominator.Config {
			cfg := dominator.DefaultConfig()
			cfg.NbRounds = rounds
			return cfg
		}),
	},
}

// TestShippedPlayerIsItsModelsExport checks that each shipped AI<Name>.cc
// is what jgym export-cpp writes for its shipped ONNX file today: the C++
// player is the export of that model, not of another one or of an older
// exporter.
func TestShippedPlayerIsItsModelsExport(t *testing.T) {
	for _, s := range shippedPlayers {
		t.Run(s.name, func(t *testing.T) {
			raw, err := os.ReadFile(s.model)
			if err != nil {
				t.Fatal(err)
			}
			cc, err := os.ReadFile(s.player)
			if err != nil {
				t.Fatal(err)
			}
			want, err := cppexport.Export(raw, s.target, cppexport.Options{Name: s.name, Source: s.model})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(cc, want) {
				t.Fatalf("%s differs from the export of %s at line %d; export it again:\n"+
					"  jgym export-cpp --game %s %s --name %s -o %s", s.player, s.model, firstDiffLine(cc, want),
					strings.ToLower(s.target.Game), s.model[3:], s.name, s.player[3:])
			}
		})
	}
}

// TestShippedPlayerMatchesPolicyBot compiles each shipped file itself and
// plays it and the Go policy bot of its shipped model in the same seats of
// the same games, with the game's strong bot and Demo at the table: the
// traces must be equal byte for byte.
func TestShippedPlayerMatchesPolicyBot(t *testing.T) {
	needGXX(t)
	for _, s := range shippedPlayers {
		t.Run(s.name, func(t *testing.T) { s.games(t, s) })
	}
}

// sameGames returns the games of TestShippedPlayerMatchesPolicyBot for a
// game: two whole games (one in the short mode and under the race
// detector, of short(20)'s rounds), the player in seats 0 and 2, the
// strong bot in seats 0 and 3 and Demos in 1 and 2 otherwise.
func sameGames[C game.Config, G, S any, D game.Dir](def *game.Def[C, G, S, D], short func(rounds int) C) func(*testing.T, shipped) {
	return func(t *testing.T, s shipped) {
		raw, err := os.ReadFile(s.model)
		if err != nil {
			t.Fatal(err)
		}
		m, err := policy.Parse(raw, def.PolicySignature())
		if err != nil {
			t.Fatal(err)
		}
		k, err := def.CppKit()
		if err != nil {
			t.Fatal(err)
		}
		prog, err := cppbot.Open(s.player, k, cppbot.Options{CacheDir: cacheDir, RoundTimeout: 20 * time.Second, StartTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		defer prog.Close()
		type play struct {
			seed, seat int
			cfg        C
		}
		games := []play{{11, 0, def.DefaultConfig()}, {12, 2, def.DefaultConfig()}}
		if raceEnabled || testing.Short() {
			games = []play{{11, 2, short(20)}}
		}
		for _, g := range games {
			names := [4]string{def.StrongBot, "Demo", "Demo", def.StrongBot}
			var cpp, gob [4]game.Bot[S, D]
			for p, n := range names {
				f, err := def.Bots.Lookup(n)
				if err != nil {
					t.Fatal(err)
				}
				cpp[p], gob[p] = f(p, g.seed), f(p, g.seed)
			}
			names[g.seat] = s.name
			cpp[g.seat] = def.NewCppBot(prog, g.seat, g.seed)
			gob[g.seat] = def.NewPolicyBot(m, g.seat)
			want, orders := playDef(t, def, g.cfg, g.seed, names, gob)
			got, _ := playDef(t, def, g.cfg, g.seed, names, cpp)
			if !bytes.Equal(got, want) {
				t.Errorf("seed %d, seat %d: the trace of %s differs from policy:%s's (line %d)",
					g.seed, g.seat, s.player, s.model, firstDiffLine(got, want))
				continue
			}
			if orders[g.seat] == 0 {
				t.Errorf("seed %d: the policy gave no orders: the comparison proves little", g.seed)
			}
			t.Logf("seed %d, seat %d: %d rounds, %d orders, traces equal", g.seed, g.seat, g.cfg.Rounds(), orders[g.seat])
		}
	}
}

// playDef plays one game of any game's definition and returns its trace and
// the number of commands each seat gave.
func playDef[C game.Config, G, S any, D game.Dir](t testing.TB, def *game.Def[C, G, S, D], cfg C, seed int, names [4]string, bots [4]game.Bot[S, D]) ([]byte, [4]int) {
	t.Helper()
	m, err := def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	var orders [4]int
	if err := m.WriteTrace(&buf); err != nil {
		t.Fatal(err)
	}
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for p := range orders {
			orders[p] += len(m.Orders(p))
		}
	}
	return buf.Bytes(), orders
}
