package dominator_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"jgym/env/dominator"
)

// Play a game of Khan against Demos and a Null and print the results as
// the course program does.
func Example() {
	m, err := dominator.Def.NewBotMatch(dominator.DefaultConfig(), 1, [4]string{"Khan", "Demo", "Null", "Demo"})
	if err != nil {
		panic(err)
	}
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	dominator.WriteResults(os.Stdout, m.State(), m.Names)
	// Output:
	// info: player Khan got score 171733
	// info: player Demo got score 4266
	// info: player Null got score 2025
	// info: player Demo got score 6202
	// info: player(s) Khan got top score
}

// Step a game by hand: move player 1's first farmer one cell in its own
// view, where its box is the top-left one.
func ExampleGame_Step() {
	g, err := dominator.New(dominator.DefaultConfig(), 1)
	if err != nil {
		panic(err)
	}
	id := g.Farmers[1][0]
	var view dominator.State
	g.View(1, &view)
	from := view.Units[id].Pos
	dir := dominator.None
	for _, d := range []dominator.Dir{dominator.Bottom, dominator.Right, dominator.Top, dominator.Left} {
		if c := view.Cell(from.Add(d)); c.Type == dominator.Empty && c.ID < 0 && !c.Haunted {
			dir = d
			break
		}
	}
	var cmds [dominator.NumPlayers][]dominator.Command
	cmds[1] = []dominator.Command{{ID: id, Dir: dir}}
	if err := g.Step(&cmds); err != nil {
		panic(err)
	}
	fmt.Println("round", g.Round, "view direction", dir, "real direction", g.Moves[0].Dir, "land", g.Land)
	// Output:
	// round 1 view direction Bottom real direction Right land [20 21 20 20]
}

// Write the first round of a trace in the kit's .res format.
func Example_trace() {
	cfg := dominator.DefaultConfig()
	cfg.NbRounds = 1
	m, err := dominator.Def.NewBotMatch(cfg, 7, [4]string{"Null", "Null", "Null", "Null"})
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	m.WriteTrace(&b)
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	lines := strings.Split(b.String(), "\n")
	fmt.Println(strings.Join(lines[:7], "\n"))
	fmt.Println(lines[18])
	fmt.Println(len(lines), "lines")
	// Output:
	// Game
	//
	// Seed 7
	//
	// Dominator 4.0
	// nb_players     4
	// nb_rounds      1
	// names          Null Null Null Null
	// 368 lines
}
