package cppexport_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"jgym/arena"
	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/env/crematoria"
	"jgym/env/pandemic"
	"jgym/game"
	"jgym/policy"
)

// shippedRecipe is a recipe's policy that the repository ships, and its
// course kit player (python-client/examples/models/README.md says how they
// were made and measured).
type shippedRecipe struct {
	game   game.Entry
	model  string // the ONNX file
	player string // its export, AI<name>.cc
	name   string // the player's name
	// games are the (seed, seat) of the games the player and the policy
	// bot play in the full configuration; under the race detector or
	// -short, one game of shortRounds rounds at the last seat.
	games [][2]int
}

// shipped are the shipped recipe policies.
var shipped = []shippedRecipe{
	{
		game:   crematoria.Def,
		model:  "../python-client/examples/models/crematoria_recipe.onnx",
		player: "../python-client/examples/models/AICremRecipe.cc",
		name:   "CremRecipe",
		games:  [][2]int{{11, 0}, {12, 2}},
	},
	{
		game:   pandemic.Def,
		model:  "../python-client/examples/models/pandemic_recipe.onnx",
		player: "../python-client/examples/models/AIPandRecipe.cc",
		name:   "PandRecipe",
		games:  [][2]int{{11, 1}, {12, 3}},
	},
}

// shortRounds are the rounds of the one game played under the race
// detector or -short.
const shortRounds = 20

// TestShippedPlayerIsItsModelsExport checks that each shipped AI*.cc is
// what jgym export-cpp writes for its shipped ONNX file today: the C++
// player is the export of that model, not of another one or of an older
// exporter.
func TestShippedPlayerIsItsModelsExport(t *testing.T) {
	for _, s := range shipped {
		t.Run(s.name, func(t *testing.T) {
			raw, err := os.ReadFile(s.model)
			if err != nil {
				t.Fatal(err)
			}
			cc, err := os.ReadFile(s.player)
			if err != nil {
				t.Fatal(err)
			}
			want, err := cppexport.Export(raw, cppTargetOf(s.game), cppexport.Options{Name: s.name, Source: s.model})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(cc, want) {
				t.Fatalf("%s differs from the export of %s at line %d; export it again:\n"+
					"  jgym export-cpp --game %s %s --name %s -o %s", s.player, s.model, firstDiffLine(cc, want),
					strings.ToLower(s.game.Arena().Name()), s.model[3:], s.name, s.player[3:])
			}
		})
	}
}

// TestShippedPlayerMatchesPolicyBot compiles each shipped file itself and
// plays it and the Go policy bot of its shipped model in the same seats of
// the same games, with the game's strong bot and Demo at the table: the
// traces and the command logs must be equal byte for byte, and differ from
// the game with Null in that seat (the policy played).
func TestShippedPlayerMatchesPolicyBot(t *testing.T) {
	needGXX(t)
	for _, s := range shipped {
		t.Run(s.name, func(t *testing.T) {
			g := s.game.Arena()
			l := shippedLoader{cppbot.Options{CacheDir: cacheDir, RoundTimeout: 20 * time.Second, StartTimeout: time.Minute}}
			cfg, games := g.DefaultConfig(), s.games
			if raceEnabled || testing.Short() {
				cfg, games = shortArenaConfig(t, g, shortRounds), [][2]int{{s.games[0][0], s.games[len(s.games)-1][1]}}
			}
			strong := s.game.Strong()
			for _, sg := range games {
				seed, seat := sg[0], sg[1]
				seats := []string{strong, "Demo", "Demo", strong}
				play := func(who string) (trace, cmds []byte) {
					seats[seat] = who
					names := append([]string(nil), seats...)
					names[seat] = s.name
					tb := &arena.Table{Config: cfg, Seed: seed, Names: names}
					for _, name := range seats {
						p, err := g.NewPlayer(name, l)
						if err != nil {
							t.Fatal(err)
						}
						defer p.Close()
						tb.Players = append(tb.Players, p)
					}
					var tr, cm bytes.Buffer
					tb.Trace, tb.Commands = &tr, &cm
					if err := g.Play(context.Background(), tb); err != nil {
						t.Fatalf("seed %d, %s at seat %d: %v", seed, who, seat, err)
					}
					return tr.Bytes(), cm.Bytes()
				}
				want, wantCmds := play("policy:" + s.model)
				got, gotCmds := play("cpp:" + s.player)
				if !bytes.Equal(got, want) {
					t.Errorf("seed %d, seat %d: the trace of %s differs from policy:%s's (line %d)",
						seed, seat, s.player, s.model, firstDiffLine(got, want))
					continue
				}
				if !bytes.Equal(gotCmds, wantCmds) {
					t.Errorf("seed %d, seat %d: the command log of %s differs from policy:%s's (line %d)",
						seed, seat, s.player, s.model, firstDiffLine(gotCmds, wantCmds))
					continue
				}
				if null, _ := play("Null"); bytes.Equal(null, want) {
					t.Errorf("seed %d: the policy plays as Null: the comparison proves little", seed)
				}
				t.Logf("seed %d, seat %d: %d rounds, traces and command logs equal", seed, seat, cfg.Rounds())
			}
		})
	}
}

// shippedLoader loads "policy:PATH" and "cpp:PATH" seats from files.
type shippedLoader struct{ opts cppbot.Options }

func (shippedLoader) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	raw, err := os.ReadFile(ref)
	if err != nil {
		return nil, err
	}
	return policy.Parse(raw, sig)
}

func (l shippedLoader) Cpp(ref string, k *cppbot.Kit) (*cppbot.Program, error) {
	return cppbot.Open(ref, k, l.opts)
}

// roundsKey is the rounds line of every game's configuration file.
var roundsKey = regexp.MustCompile(`(?m)^nb_rounds\s+\d+$`)

// shortArenaConfig is a game's default configuration with fewer rounds,
// through its configuration file.
func shortArenaConfig(t *testing.T, g arena.Game, rounds int) arena.Config {
	t.Helper()
	text := fmt.Sprint(g.DefaultConfig())
	if !roundsKey.MatchString(text) {
		t.Fatalf("%s's configuration has no nb_rounds line:\n%s", g.Name(), text)
	}
	cfg, err := g.ParseConfig(strings.NewReader(roundsKey.ReplaceAllString(text, fmt.Sprintf("nb_rounds %d", rounds))))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Rounds() != rounds {
		t.Fatalf("%s: %d rounds, want %d", g.Name(), cfg.Rounds(), rounds)
	}
	return cfg
}
