package moria

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"jgym/game"
)

// cellsCheck is a seat whose Balin keeps its cells' costs between rounds
// (balinCells) and, before each round, prepares the state and a copy
// with a few cells changed, each against a Balin that starts afresh.
type cellsCheck struct {
	Bot
	t      *testing.T
	me     int
	kept   Balin
	ob     Observer // its board planes kept between rounds too
	rng    *rand.Rand
	rounds *int
	logged *int // rounds where the kept cells follow the state's cell log
}

// nudge changes a few cells of s (a clone) as rounds do, and more: a rock
// dug or broken, a cave conquered or lost, a treasure taken, a unit id
// moved or gone, a cave that turns to rock (its neighbours' values
// change), a rock too hard for the sums (costsCell's path), an abyss
// under a unit.
func nudge(s *State, rng *rand.Rand) {
	for range 1 + rng.IntN(12) {
		c := &s.Cells[rng.IntN(NumCells)]
		switch rng.IntN(8) {
		case 0:
			if c.Type == Rock {
				c.Turns--
				if c.Turns <= 0 {
					c.Type, c.Turns = Cave, 0
				}
			}
		case 1:
			if c.Type == Cave {
				c.Owner = int8(rng.IntN(NumPlayers+1) - 1)
			}
		case 2:
			c.Treasure = !c.Treasure && c.Type == Cave
		case 3:
			if c.ID < 0 {
				c.ID = int16(rng.IntN(len(s.Units)))
			} else {
				c.ID = -1
			}
		case 4:
			if c.Type == Cave && c.ID < 0 {
				c.Type, c.Turns, c.Owner, c.Treasure = Rock, int8(1+rng.IntN(5)), -1, false
			}
		case 5:
			if c.Type == Rock && rng.IntN(4) == 0 {
				c.Turns = int8(60 + rng.IntN(60))
			}
		case 6:
			c.Type = CellType(rng.IntN(int(Rock) + 1))
		case 7:
			if p := s.Units[rng.IntN(len(s.Units))].Pos; p.OnBoard() {
				s.Cells[p.Index()].Type = Abyss // under a unit
			}
		}
	}
}

func (cc *cellsCheck) compare(s *State, what string) {
	var fresh Balin
	fresh.me = cc.me
	fresh.prepare(s)
	kb := &cc.kept
	kb.me = cc.me
	kb.prepare(s)
	if kb.enter != fresh.enter || kb.value != fresh.value || kb.valuable != fresh.valuable ||
		kb.wopen != fresh.wopen || kb.cells.unit != fresh.cells.unit {
		cc.t.Fatalf("round %d clan %d %s: the kept cells' costs differ from costs made afresh", s.Round, cc.me, what)
	}
	want, got := make([]byte, BoardBytes), make([]byte, BoardBytes)
	for k := range got {
		got[k] = 0xa5 // the planes are all written
	}
	oldBoard(s, cc.me, want)
	cc.ob.Board(s, cc.me, got)
	if !bytes.Equal(got, want) {
		cc.t.Fatalf("round %d clan %d %s: the board from kept planes differs from the old code's", s.Round, cc.me, what)
	}
}

func (cc *cellsCheck) Play(s *State, o *Orders) {
	if game.CellWords(cc.kept.cells.cells.cells[:]) == nil || game.CellWords(s.Cells[:]) == nil {
		cc.t.Fatal("the cells are not aligned to 8 bytes: every round makes them all again")
	}
	if l, _ := s.cellLogOf(); l != nil && l == logOf(&cc.kept.cells.cells.log) && l == logOf(&cc.ob.board.cells.log) {
		*cc.logged++
	}
	cc.compare(s, "")
	if cc.rng.IntN(3) == 0 {
		c := cloneState(s)
		nudge(c, cc.rng)
		cc.compare(c, "nudged")
	}
	*cc.rounds++
	cc.Bot.Play(s, o)
}

// TestBalinCellsKept: Balin's costs and values from the cells it keeps
// between rounds (balinCells, which does again only the cells that
// changed) equal those made afresh, round after round, also after copies
// of the state with a few cells changed; the board tensor from the
// planes an Observer keeps (boardCells) is the old code's (oldBoard).
// Most rounds follow the engine's cell log (keptCells), the others (after
// a copy) compare the cells.
func TestBalinCellsKept(t *testing.T) {
	rounds, logged := 0, 0
	for seed := 1; seed <= 2; seed++ {
		names := [NumPlayers]string{"Balin", "Demo", "Balin", "Demo"}
		var bots [NumPlayers]Bot
		for p, n := range names {
			f, err := Def.Bots.Lookup(n)
			if err != nil {
				t.Fatal(err)
			}
			bots[p] = &cellsCheck{Bot: f(p, seed), t: t, me: p,
				rng: rand.New(rand.NewPCG(uint64(seed), uint64(p))), rounds: &rounds, logged: &logged}
		}
		m, err := Def.NewMatch(DefaultConfig(), seed, names, bots)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	if rounds < 2*NumPlayers*150 {
		t.Errorf("%d rounds checked: the test proves little", rounds)
	}
	if logged < rounds/2 {
		t.Errorf("%d of %d rounds followed the cell log: the log is not tested", logged, rounds)
	}
}

// logOf returns the log a kept copy of the cells follows.
func logOf(m *game.CellLogMark[State]) *game.CellLog[State] {
	l, _ := m.Place()
	return l
}
