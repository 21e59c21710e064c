package toy

import (
	"jgym/env"
	"jgym/game"
)

// bots is the registry of the toy's bots: Null, Demo and Greedy, the
// strong bot.
var bots = func() *botRegistry {
	r := game.NewBots[State, Dir]("toy")
	r.Register("Demo", func(me, seed int) Bot { return &Demo{me: me, rng: NewRand(seed + me + 1)} })
	r.Register("Greedy", func(me, seed int) Bot { return &Greedy{me: me} })
	return r
}()

type botRegistry = env.BotRegistry[Bot]

// Demo moves each of its units in a random direction that stays on the
// board off walls, or leaves it still one time in five; its generator is
// seeded with seed+me+1.
type Demo struct {
	me  int
	rng Rand
}

// Play gives the orders of a round.
func (b *Demo) Play(s *State, o *Orders) {
	var open [4]Dir
	for id, u := range s.Units {
		if u.Player != b.me {
			continue
		}
		n := 0
		for d := Up; d <= Left; d++ {
			if s.Target(id, d) >= 0 {
				open[n] = d
				n++
			}
		}
		if k := b.rng.Intn(5); k < 4 && n > 0 {
			o.Command(id, open[k%n])
		}
	}
}

// Greedy takes, for each of its units in id order, the best cell next to
// it: an opponent's unit to capture (when captures score), else a cell
// not painted by it (an opponent's first), never a cell one of its units
// holds or another of its units goes to this round. With none of these
// it walks to the nearest cell not painted by it (breadth first, ties to
// the lower direction).
type Greedy struct {
	me      int
	claimed []bool // cells its units go to this round
	dist    []int16
	first   []Dir // per cell: the first move of the walk found to it
	queue   []int32
}

// Play gives the orders of a round.
func (b *Greedy) Play(s *State, o *Orders) {
	b.claimed = resize(b.claimed, len(s.Grid))
	clear(b.claimed)
	for id, u := range s.Units {
		if u.Player != b.me {
			continue
		}
		best, bestV := None, 0
		for d := Up; d <= Left; d++ {
			if v := b.value(s, s.Target(id, d)); v > bestV {
				best, bestV = d, v
			}
		}
		if best == None {
			best = b.toward(s, id)
		}
		if best != None {
			b.claimed[s.Target(id, best)] = true
			o.Command(id, best)
		}
	}
}

// value is what moving to cell i is worth: 0 for nothing or a cell it
// may not take.
func (b *Greedy) value(s *State, i int) int {
	if i < 0 || b.claimed[i] {
		return 0
	}
	if id := s.At(i); id >= 0 {
		if s.Units[id].Player == b.me || s.Cfg.Capture == 0 {
			return 0
		}
		return 3
	}
	switch v := s.Grid[i]; {
	case v == Paint+byte(b.me):
		return 0
	case v >= Paint:
		return 2
	}
	return 1
}

// toward is the first move of a shortest walk from unit id to a cell not
// painted by the bot and free of its units, or None.
func (b *Greedy) toward(s *State, id int) Dir {
	n := len(s.Grid)
	b.dist, b.first = resize(b.dist, n), resize(b.first, n)
	for i := range b.dist {
		b.dist[i] = -1
	}
	start := s.Cell(s.Units[id].Row, s.Units[id].Col)
	b.dist[start] = 0
	b.queue = append(b.queue[:0], int32(start))
	for k := 0; k < len(b.queue); k++ {
		i := int(b.queue[k])
		r, c := i/s.Cfg.Cols, i%s.Cfg.Cols
		for d := Up; d <= Left; d++ {
			rr, cc := r+dRow[d], c+dCol[d]
			if rr < 0 || rr >= s.Cfg.Rows || cc < 0 || cc >= s.Cfg.Cols {
				continue
			}
			j := s.Cell(rr, cc)
			if s.Grid[j] == Wall || b.dist[j] >= 0 || i == start && (b.claimed[j] || s.At(j) >= 0) {
				continue
			}
			b.dist[j] = b.dist[i] + 1
			b.first[j] = b.first[i]
			if i == start {
				b.first[j] = d
			}
			if b.value(s, j) > 0 {
				return b.first[j]
			}
			b.queue = append(b.queue, int32(j))
		}
	}
	return None
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
