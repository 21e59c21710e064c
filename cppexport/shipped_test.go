package cppexport_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"jgym/arena"
	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/env/crematoria"
	"jgym/env/dominator"
	_ "jgym/env/dominator/khan" // registers Khan, seated as Dominator's strong bot
	"jgym/env/moria"
	"jgym/env/pandemic"
	"jgym/game"
	"jgym/policy"
)

// shippedGame is one game of a shipped player's test: the seed, the seat
// of the policy and the rounds (0: the game's default configuration).
type shippedGame struct{ seed, seat, rounds int }

// shippedPlayer is a recipe's policy the repository ships with its course
// kit player (python-client/examples/models/README.md says how each was
// made and measured).
type shippedPlayer struct {
	def    game.Entry
	model  string // the ONNX file
	player string // jgym export-cpp's output for it
	name   string // the player's name (AI<name>.cc)
	strong string // the game's strong bot, seated against it with Demos
	// config returns the game's configuration with the given rounds
	// (the race detector's and -short's shorter games).
	config func(rounds int) arena.Config
	games  []shippedGame
	short  []shippedGame // with the race detector or -short
}

// shippedPlayers are the shipped recipe players.
var shippedPlayers = []shippedPlayer{{
	def:    crematoria.Def,
	model:  "../python-client/examples/models/crematoria_recipe.onnx",
	player: "../python-client/examples/models/AICremRecipe.cc",
	name:   "CremRecipe",
	strong: "Riddick",
	config: func(rounds int) arena.Config {
		if rounds == 0 {
			return crematoria.DefaultConfig()
		}
		return shortConfig(rounds)
	},
	games: []shippedGame{{11, 0, 0}, {12, 2, 0}},
	short: []shippedGame{{11, 2, 20}},
}, {
	def:    dominator.Def,
	model:  "../python-client/examples/models/dominator_recipe.onnx",
	player: "../python-client/examples/models/AIDomRecipe.cc",
	name:   "DomRecipe",
	strong: "Khan",
	config: withRounds(dominator.DefaultConfig, func(c *dominator.Config) *int { return &c.NbRounds }),
	games:  []shippedGame{{11, 0, 0}, {12, 2, 0}},
	short:  []shippedGame{{11, 2, 20}},
}, {
	def:    moria.Def,
	model:  "../python-client/examples/models/moria_recipe.onnx",
	player: "../python-client/examples/models/AIMoriRecipe.cc",
	name:   "MoriRecipe",
	strong: "Balin",
	config: withRounds(moria.DefaultConfig, func(c *moria.Config) *int { return &c.NbRounds }),
	games:  []shippedGame{{11, 1, 0}, {12, 3, 0}},
	short:  []shippedGame{{11, 3, 20}},
}, {
	def:    pandemic.Def,
	model:  "../python-client/examples/models/pandemic_recipe.onnx",
	player: "../python-client/examples/models/AIPandRecipe.cc",
	name:   "PandRecipe",
	strong: "Pasteur",
	config: withRounds(pandemic.DefaultConfig, func(c *pandemic.Config) *int { return &c.NbRounds }),
	games:  []shippedGame{{11, 1, 0}, {12, 3, 0}},
	short:  []shippedGame{{11, 3, 20}},
}}

// withRounds returns a shippedPlayer's config: the game's default
// configuration, its rounds (the field rounds points to) set where rounds > 0.
func withRounds[C arena.Config](dflt func() C, field func(*C) *int) func(int) arena.Config {
	return func(n int) arena.Config {
		cfg := dflt()
		if n > 0 {
			*field(&cfg) = n
		}
		return cfg
	}
}

// TestShippedPlayerIsItsModelsExport checks that each shipped AI*.cc is
// what jgym export-cpp writes for its shipped ONNX file today: the C++
// player is the export of that model, not of another one or of an older
// exporter.
func TestShippedPlayerIsItsModelsExport(t *testing.T) {
	for _, sp := range shippedPlayers {
		t.Run(sp.name, func(t *testing.T) {
			raw, err := os.ReadFile(sp.model)
			if err != nil {
				t.Fatal(err)
			}
			cc, err := os.ReadFile(sp.player)
			if err != nil {
				t.Fatal(err)
			}
			want, err := cppexport.Export(raw, cppTargetOf(sp.def), cppexport.Options{Name: sp.name, Source: sp.model})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(cc, want) {
				t.Fatalf("%s differs from the export of %s at line %d; export it again:\n"+
					"  jgym export-cpp --game %s %s --name %s -o %s", sp.player, sp.model, firstDiffLine(cc, want),
					strings.ToLower(sp.def.Arena().Name()), sp.model[3:], sp.name, sp.player[3:])
			}
		})
	}
}

// TestShippedPlayerMatchesPolicyBot compiles each shipped file itself and
// plays it and the Go policy bot of its shipped model in the same seats of
// the same games, with the game's strong bot and Demo at the table: the
// traces and the command logs must be equal byte for byte.
func TestShippedPlayerMatchesPolicyBot(t *testing.T) {
	needGXX(t)
	for _, sp := range shippedPlayers {
		t.Run(sp.name, func(t *testing.T) {
			g := sp.def.Arena()
			l := fileLoader{}
			open := func(seat string) arena.Player {
				p, err := g.NewPlayer(seat, l)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { p.Close() })
				return p
			}
			cpp, gob := open("cpp:"+sp.player), open("policy:"+sp.model)
			strong, demo := open(sp.strong), open("Demo")
			games := sp.games
			if raceEnabled || testing.Short() {
				games = sp.short
			}
			for _, sg := range games {
				names := []string{sp.strong, "Demo", "Demo", sp.strong}
				seats := []arena.Player{strong, demo, demo, strong}
				names[sg.seat] = sp.name
				play := func(p arena.Player) (trace, cmds []byte) {
					seats := append([]arena.Player(nil), seats...)
					seats[sg.seat] = p
					var tr, cl bytes.Buffer
					tab := &arena.Table{Config: sp.config(sg.rounds), Seed: sg.seed, Players: seats, Names: names, Trace: &tr, Commands: &cl}
					if err := g.Play(context.Background(), tab); err != nil {
						t.Fatalf("seed %d, %s: %v", sg.seed, p.Name(), err)
					}
					return tr.Bytes(), cl.Bytes()
				}
				want, wantCmds := play(gob)
				got, gotCmds := play(cpp)
				if !bytes.Equal(got, want) || !bytes.Equal(gotCmds, wantCmds) {
					t.Errorf("seed %d, seat %d: the trace of %s differs from policy:%s's (line %d; commands line %d)",
						sg.seed, sg.seat, sp.player, sp.model, firstDiffLine(got, want), firstDiffLine(gotCmds, wantCmds))
					continue
				}
				orders := seatCommands(t, wantCmds, sg.seat)
				if orders == 0 {
					t.Errorf("seed %d: the policy gave no orders: the comparison proves little", sg.seed)
				}
				t.Logf("seed %d, seat %d: %d orders, traces and commands equal", sg.seed, sg.seat, orders)
			}
		})
	}
}

// seatCommands counts the commands of one seat in a command log (lines
// "ROUND SEAT COUNT ID DIR ...").
func seatCommands(t *testing.T, log []byte, seat int) int {
	t.Helper()
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || f[1] != strconv.Itoa(seat) {
			continue
		}
		k, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("command log line %q: %v", sc.Text(), err)
		}
		n += k
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// fileLoader loads the seats' files from the tests' paths.
type fileLoader struct{}

func (fileLoader) Policy(ref string, sig policy.Signature) (*policy.Model, error) {
	raw, err := os.ReadFile(ref)
	if err != nil {
		return nil, err
	}
	return policy.Parse(raw, sig)
}

func (fileLoader) Cpp(ref string, kit *cppbot.Kit) (*cppbot.Program, error) {
	return cppbot.Open(ref, kit, cppbot.Options{CacheDir: cacheDir, RoundTimeout: 20 * time.Second, StartTimeout: time.Minute})
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
