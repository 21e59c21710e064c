package crematoria

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// randomBot commands each unit of its seat a random direction (None,
// Up and Down included; the engine ignores the moves it refuses).
type randomBot struct {
	me  int
	rng *rand.Rand
}

func (b *randomBot) Play(s *State, o *Orders) {
	for _, list := range [][]int{s.Furyans[b.me], s.Pioneers[b.me]} {
		for _, id := range list {
			if b.rng.IntN(5) > 0 { // some units wait for orders
				o.Command(id, Dir(b.rng.IntN(int(DirSize))))
			}
		}
	}
}

// TestKeptObserverAgainstNew plays whole games of random bots and Demos
// and checks, after every round, that Observers kept between rounds (the
// cell cache, the Gem field's kept search, the Elevator field's
// distances, the scratch lists shared by paths and sun_paths) write the
// bytes a new Observer writes: one kept for seat 0, one whose seat
// changes every few rounds.
func TestKeptObserverAgainstNew(t *testing.T) {
	rounds := 0
	for seed := 21; seed <= 23; seed++ {
		g := newTestGame(t, seed)
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		s := seats{bots: [NumPlayers]Bot{
			&randomBot{me: 0, rng: rng}, NewDemo(1, seed), &randomBot{me: 2, rng: rng}, NewDemo(3, seed),
		}}
		var seat0, rotating Observer
		for r := 0; !g.Done(); r++ {
			s.playRound(t, g)
			for _, c := range []struct {
				ob *Observer
				me int
			}{{&seat0, 0}, {&rotating, r / 5 % NumPlayers}} {
				var fresh Observer
				if got, want := encodeAll(c.ob, &g.State, c.me), encodeAll(&fresh, &g.State, c.me); !bytes.Equal(got, want) {
					t.Fatalf("seed %d, round %d, seat %d: the kept observer differs from a new one", seed, g.Round, c.me)
				}
			}
			rounds++
		}
	}
	if rounds < 300 {
		t.Fatalf("only %d rounds played", rounds)
	}
}
