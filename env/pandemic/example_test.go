package pandemic_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"jgym/env/pandemic"
)

// Play a game of four Demo players and print the final scores and the
// winners (the reference trace pandemic_s1_Demo-Demo-Demo-Demo).
func Example() {
	m, err := pandemic.Def.NewBotMatch(pandemic.DefaultConfig(), 1, [4]string{"Demo", "Demo", "Demo", "Demo"})
	if err != nil {
		panic(err)
	}
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(m.Scores(), m.Game.Winners())
	// Output: [2223 0 7176 3345] [2]
}

// Step a game by hand: walk player 0's first unit one cell along the ring.
func ExampleGame_Step() {
	g, err := pandemic.New(pandemic.DefaultConfig(), 1)
	if err != nil {
		panic(err)
	}
	id := g.PlayerUnits[0][0]
	u := &g.Units[id]
	fmt.Println("unit", id, "at", u.Pos)
	var cmds [pandemic.NumPlayers][]pandemic.Command
	cmds[0] = []pandemic.Command{{ID: id, Dir: pandemic.Top}}
	if err := g.Step(&cmds); err != nil {
		panic(err)
	}
	fmt.Println("round", g.Round, "unit", id, "at", u.Pos, "moves", g.Moves)
	// Output:
	// unit 0 at (55, 68)
	// round 1 unit 0 at (54, 68) moves [{0 Top}]
}

// Write a short game's trace, parse it back and verify it against the
// rules.
func ExampleVerify() {
	cfg := pandemic.DefaultConfig()
	cfg.NbRounds = 10
	m, err := pandemic.Def.NewBotMatch(cfg, 3, [4]string{"Pasteur", "Demo", "Null", "Demo"})
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	if err := m.Run(context.Background()); err != nil {
		panic(err)
	}
	tr, err := pandemic.ParseTrace(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(tr.States), "states, verify:", pandemic.Verify(tr, nil))
	// Output: 11 states, verify: <nil>
}

// Parse a configuration in the kit's format.
func ExampleParseConfig() {
	cfg, err := pandemic.ParseConfig(strings.NewReader(strings.Replace(pandemic.DefaultConfigText, "200", "60", 1)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(cfg.Rows, cfg.NbRounds, cfg.InfectionFactor)
	// Output: 70 60 50
}
