package moria

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
)

// brawler is a test bot that fights and digs: dwarves attack an adjacent
// enemy (orcs and trolls included), else dig or walk at random; wizards
// wander. With junk it also gives every kind of command the filters must
// drop: foreign and out-of-range ids, wizard diagonals, None, duplicates,
// bad directions.
type brawler struct {
	me   int
	rng  *rand.Rand
	junk bool
}

func newBrawler(me, seed int, junk bool) *brawler {
	return &brawler{me: me, rng: rand.New(rand.NewPCG(uint64(seed), uint64(me))), junk: junk}
}

func (b *brawler) Play(s *State, o *Orders) {
	ids := append(append([]int(nil), s.Dwarves[b.me]...), s.Wizards[b.me]...)
	b.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, id := range ids {
		if b.junk && b.rng.IntN(8) == 0 {
			o.Command(id, Dir(b.rng.IntN(12)-1)) // maybe a bad direction, then a good one
		}
		o.Command(id, b.choose(s, &s.Units[id]))
	}
	if b.junk {
		n := len(s.Units)
		for _, id := range []int{-1, n, n + 7, -5, b.rng.IntN(n), b.rng.IntN(n), s.BalrogID} {
			o.Command(id, Dir(b.rng.IntN(9)))
		}
		if len(ids) > 0 {
			o.Command(ids[0], Top) // a duplicate
		}
	}
}

func (b *brawler) choose(s *State, u *Unit) Dir {
	if u.Type == Wizard || b.rng.IntN(6) == 0 {
		return Dir(b.rng.IntN(9))
	}
	for _, d := range b.rng.Perm(8) {
		t := u.Pos.Add(Dir(d))
		if !t.OnBoard() {
			continue
		}
		if c := s.Cells[t.Index()]; c.ID >= 0 && s.Units[c.ID].Player != b.me {
			return Dir(d)
		}
	}
	for _, d := range b.rng.Perm(8) {
		t := u.Pos.Add(Dir(d))
		if !t.OnBoard() || Cheb(t, s.Balrog().Pos) <= 2 {
			continue
		}
		if c := s.Cells[t.Index()]; c.ID < 0 && (c.Type == Rock || c.Type == Cave && b.rng.IntN(2) == 0) {
			return Dir(d)
		}
	}
	return Dir(b.rng.IntN(8))
}

// playBrawl plays a game of brawlers and returns its trace and command log.
// An engine abort ends the game early with the error.
func playBrawl(cfg Config, seed int, junk bool) ([]byte, *CommandLog, error) {
	var bots [NumPlayers]Bot
	for p := range bots {
		bots[p] = newBrawler(p, seed, junk)
	}
	m, err := Def.NewMatch(cfg, seed, [4]string{"Brawl", "Brawl", "Brawl", "Brawl"}, bots)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	m.Record() // the commands of an aborted round too
	err = m.Run(context.Background())
	return buf.Bytes(), m.Log(), err
}

// checkInvariants compares the engine's incremental bookkeeping with a
// recount: cell counts, the occupancy rows, the abyss list, the lists.
func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	var s State
	s.CopyFrom(&g.State)
	s.countCells()
	if s.NbCells != g.NbCells {
		t.Fatalf("round %d: nb_cells %v, recount %v", g.Round, g.NbCells, s.NbCells)
	}
	var occ [Rows]uint64
	var abysses []int
	for idx, c := range g.Cells {
		if c.ID >= 0 {
			occ[idx/Cols] |= 1 << (idx % Cols)
		}
		if c.Type == Abyss {
			abysses = append(abysses, idx)
		}
	}
	if occ != g.round.occ {
		t.Fatalf("round %d: occupancy rows out of date", g.Round)
	}
	if len(abysses) != len(g.abyssCells) {
		t.Fatalf("round %d: %d abysses, list has %d", g.Round, len(abysses), len(g.abyssCells))
	}
	for k := range abysses {
		if abysses[k] != g.abyssCells[k] {
			t.Fatalf("round %d: abyss list %v, want %v", g.Round, g.abyssCells, abysses)
		}
	}
	for id, u := range g.Units {
		switch {
		case u.Type == Orc && u.Health > 0, u.Type == Dwarf, u.Type == Wizard, u.Type == Troll:
			if !u.Pos.OnBoard() || u.Health <= 0 || u.Health > u.Type.MaxHealth() {
				t.Fatalf("round %d: unit %d %+v", g.Round, id, u)
			}
		}
	}
}

func TestBrawlInvariants(t *testing.T) {
	crowded := DefaultConfig()
	crowded.NbDwarves, crowded.NbTrolls, crowded.MaxNbOrcs, crowded.RockResistance = 30, 10, 40, 2
	for _, c := range []struct {
		name string
		cfg  Config
		seed int
	}{
		{"default", DefaultConfig(), 21},
		{"crowded, soft rock", crowded, 22},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var bots [NumPlayers]Bot
			for p := range bots {
				bots[p] = newBrawler(p, c.seed, true)
			}
			m, err := Def.NewMatch(c.cfg, c.seed, [4]string{"A", "B", "C", "D"}, bots)
			if err != nil {
				t.Fatal(err)
			}
			orcs, abysses := 0, 0
			for !m.Done() {
				if err := m.PlayRound(); err != nil {
					t.Fatal(err)
				}
				checkInvariants(t, m.Game)
				orcs = max(orcs, len(m.Game.Orcs))
				abysses = len(m.Game.abyssCells)
			}
			if orcs == 0 || abysses == 0 {
				t.Errorf("no orcs (%d) or abysses (%d): the game did not exercise them", orcs, abysses)
			}
		})
	}
}
