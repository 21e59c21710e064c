package crematoria_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"jgym/env/crematoria"
)

// Play a game of four Demo players and print the final scores.
func Example() {
	m, err := crematoria.Def.NewBotMatch(crematoria.DefaultConfig(), 1, [4]string{"Demo", "Demo", "Demo", "Demo"})
	if err != nil {
		panic(err)
	}
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(m.Scores(), m.Game.Winners())
	// Output: [221 281 275 171] [1]
}

// Step a game by hand: move player 0's first Pioneer onto a free cave.
func ExampleGame_Step() {
	g, err := crematoria.New(crematoria.DefaultConfig(), 1)
	if err != nil {
		panic(err)
	}
	id := g.Pioneers[0][0]
	from := g.Units[id].Pos
	dir := crematoria.None
	for d := crematoria.Bottom; d <= crematoria.LB; d++ {
		if c := g.Cell(from.Add(d)); c.Type == crematoria.Cave && c.ID < 0 {
			dir = d
			break
		}
	}
	var cmds [crematoria.NumPlayers][]crematoria.Command
	cmds[0] = []crematoria.Command{{ID: id, Dir: dir}}
	if err := g.Step(&cmds); err != nil {
		panic(err)
	}
	to := g.Units[id].Pos
	fmt.Println("round", g.Round, "moved", dir, to == from.Add(dir), "owner", g.Cell(to).Owner)
	fmt.Println("printed moves:", len(g.Moves), "(the Pioneer and the 3 hellhounds)")
	// Output:
	// round 1 moved TL true owner 0
	// printed moves: 4 (the Pioneer and the 3 hellhounds)
}

// Write the first rounds of a trace in the kit's .res format.
func Example_trace() {
	cfg := crematoria.DefaultConfig()
	cfg.NbRounds = 2
	m, err := crematoria.Def.NewBotMatch(cfg, 7, [4]string{"Null", "Null", "Null", "Null"})
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	m.WriteTrace(&b)
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	lines := strings.Split(b.String(), "\n")
	fmt.Println(strings.Join(lines[:6], "|"))
	// Output: Game||Seed 7||Crematoria 1.2|nb_players          4
}

// A bot is any type with a Play method; it reads the state and orders.
type towardsRight struct{ me int }

func (b towardsRight) Play(s *crematoria.State, o *crematoria.Orders) {
	for _, id := range s.Pioneers[b.me] {
		o.Command(id, crematoria.Right)
	}
}

func Example_bot() {
	var bots [4]crematoria.Bot
	for p := range bots {
		bots[p] = towardsRight{me: p}
	}
	bots[3] = crematoria.NewDemo(3, 42)
	m, err := crematoria.Def.NewMatch(crematoria.DefaultConfig(), 42, [4]string{"Right", "Right", "Right", "Demo"}, bots)
	if err != nil {
		panic(err)
	}
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(m.Round())
	// Output: 120
}

// Parse a configuration in the kit's format.
func ExampleParseConfig() {
	cfg, err := crematoria.ParseConfig(strings.NewReader(crematoria.DefaultConfigText))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(cfg.NbRounds, cfg.NumUnits())
	// Output: 120 93
}
