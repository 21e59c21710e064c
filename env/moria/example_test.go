package moria_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"jgym/env/moria"
)

// Play a game of four Demo players and print the final scores.
func Example() {
	m, err := moria.Def.NewBotMatch(moria.DefaultConfig(), 1, [4]string{"Demo", "Demo", "Demo", "Demo"})
	if err != nil {
		panic(err)
	}
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(m.Scores(), m.Game.Winners())
	// Output: [152 181 123 176] [1]
}

// Print the course program's end-of-game report.
func ExampleWriteResults() {
	m, err := moria.Def.NewBotMatch(moria.DefaultConfig(), 2, [4]string{"Demo", "Null", "Demo", "Null"})
	if err != nil {
		panic(err)
	}
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	moria.WriteResults(os.Stdout, m.State(), m.Names)
	// Output:
	// info: player Demo got score 306
	// info: player Null got score 1
	// info: player Demo got score 259
	// info: player Null got score 0
	// info: player(s) Demo got top score
	// info: game played
}

// Step a game by hand: player 0's first dwarf next to a rock hits it.
func ExampleGame_Step() {
	g, err := moria.New(moria.DefaultConfig(), 1)
	if err != nil {
		panic(err)
	}
	id, dir := -1, moria.None
	var from moria.Pos
	for _, d0 := range g.Dwarves[0] {
		for d := moria.Bottom; d < moria.None && id < 0; d++ {
			p := g.Units[d0].Pos
			if c := g.Cell(p.Add(d)); c.Type == moria.Rock {
				id, dir, from = d0, d, p
			}
		}
	}
	var cmds [moria.NumPlayers][]moria.Command
	cmds[0] = []moria.Command{{ID: id, Dir: dir}}
	if err := g.Step(&cmds); err != nil {
		panic(err)
	}
	rock := g.Cell(from.Add(dir))
	fmt.Println("round", g.Round, "dug", dir, "hits left", rock.Turns, "dwarf stayed", g.Units[id].Pos == from)
	fmt.Println("printed moves:", len(g.Moves), "(the dig, the 4 trolls and the Balrog)")
	// Output:
	// round 1 dug Bottom hits left 4 dwarf stayed true
	// printed moves: 6 (the dig, the 4 trolls and the Balrog)
}

// Write the first round of a trace in the kit's .res format.
func Example_trace() {
	cfg := moria.DefaultConfig()
	cfg.NbRounds = 1
	m, err := moria.Def.NewBotMatch(cfg, 7, [4]string{"Null", "Null", "Null", "Null"})
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
	fmt.Println(len(lines), "lines")
	// Output:
	// Game
	//
	// Seed 7
	//
	// Moria 1.1
	// nb_players         4
	// nb_rounds          1
	// 410 lines
}
