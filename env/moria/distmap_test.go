package moria

import "testing"

// TestDistMapMatchesFullMap compares the engine's lazy distance maps with
// the maps written out in full as SPEC §8.6 and §8.7 word them, on the
// states of brawls (many orcs, trolls outside, the Balrog everywhere): the
// orcs' map on every cell next to a living orc, the trolls' on every cell.
func TestDistMapMatchesFullMap(t *testing.T) {
	cfg := DefaultConfig()
	cfg.RockResistance, cfg.MaxNbOrcs, cfg.NbTrolls = 1, 40, 10
	checked := 0
	for _, seed := range []int{3, 4} {
		var bots [NumPlayers]Bot
		for p := range bots {
			bots[p] = newBrawler(p, seed, false)
		}
		m, err := Def.NewMatch(cfg, seed, [4]string{"A", "B", "C", "D"}, bots)
		if err != nil {
			t.Fatal(err)
		}
		var lazy distMap
		for !m.Done() {
			g := m.Game
			full := g.distanceMap(nil, false)
			g.orcMap(&lazy)
			for _, id := range g.Orcs {
				for d := Bottom; d < None; d++ {
					if n := g.Units[id].Pos.Add(d); n.OnBoard() {
						if got, want := lazy.value(g, n.Index()), full[n.Index()]; got != want {
							t.Fatalf("seed %d round %d: orc map at %v = %d, want %d", seed, g.Round, n, got, want)
						}
						checked++
					}
				}
			}
			full = g.distanceMap(nil, true)
			g.trollMap(&lazy)
			for idx := range full {
				if got, want := lazy.value(g, idx), full[idx]; got != want {
					t.Fatalf("seed %d round %d: troll map at %v = %d, want %d", seed, g.Round, PosOf(idx), got, want)
				}
			}
			if err := m.PlayRound(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d orc-map cells checked", checked)
	}
}

// distanceMap fills dist for SPEC §8.6 (orcs) or §8.7 (trolls) in full,
// as the rules word it, as a reference for the engine's lazy distMap: far for
// cells within Manhattan 4 of the Balrog and for cells of other types than
// the passable ones, 1 for the sources, 0 elsewhere; then a breadth-first
// search from the sources (8-connected) numbers the 0 cells it reaches.
// Cells no source reaches keep 0.
func (g *Game) distanceMap(dist []int32, trolls bool) []int32 {
	if len(dist) != NumCells {
		dist = make([]int32, NumCells)
	}
	b := g.Units[g.BalrogID].Pos
	var queue []int32
	for idx := range g.Cells {
		c := &g.Cells[idx]
		i, j := idx/Cols, idx%Cols
		switch {
		case absInt(i-b.I)+absInt(j-b.J) <= balrogSafeManh:
			dist[idx] = far
		case trolls && c.Type == Cave:
			dist[idx] = 1 // every cave is a troll's source
			queue = append(queue, int32(idx))
		case trolls && c.Type == Outside:
			dist[idx] = 0
		case !trolls && c.Type == Cave && c.ID >= 0 && g.Units[c.ID].Player >= 0:
			dist[idx] = 1 // a cave holding a dwarf or wizard
			queue = append(queue, int32(idx))
		case !trolls && (c.Type == Cave || c.Type == Abyss):
			dist[idx] = 0
		default:
			dist[idx] = far
		}
	}
	for h := 0; h < len(queue); h++ {
		idx := int(queue[h])
		i, j := idx/Cols, idx%Cols
		nd := dist[idx] + 1
		for d := Bottom; d < None; d++ {
			a, c := i+dirDI[d], j+dirDJ[d]
			if a < 0 || a >= Rows || c < 0 || c >= Cols {
				continue
			}
			if n := a*Cols + c; dist[n] == 0 {
				dist[n] = nd
				queue = append(queue, int32(n))
			}
		}
	}
	return dist
}
