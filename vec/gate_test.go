package vec_test

import (
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jgym/env"
	"jgym/env/crematoria"
	"jgym/vec"
)

// counting is a bot that records how many bots play at once.
type counting struct{ now, most *atomic.Int32 }

func (c counting) Play(*crematoria.State, *crematoria.Orders) {
	n := c.now.Add(1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(200 * time.Microsecond)
	c.now.Add(-1)
}

// Two pools of 4 workers each that share a gate of 1 never step two envs
// at once; without the gate they do.
func TestGate(t *testing.T) {
	checkLeaks(t)
	for _, tc := range []struct {
		gate vec.Gate
		most int32 // bound on the bots playing at once
	}{{vec.NewGate(1), 1}, {nil, 8}} {
		var now, most atomic.Int32
		g := crematoria.NewEnv(crematoria.WithResolver(func(string) (crematoria.BotFactory, io.Closer, error) {
			return func(int, int) crematoria.Bot { return counting{&now, &most} }, nil, nil
		}))
		f, err := g.NewFactory(env.Setup{Seats: []string{"", "Count", "", ""}})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for k := 0; k < 2; k++ {
			p := newPool(t, f, 8, vec.WithWorkers(4), vec.WithGate(tc.gate))
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := p.Reset(ctx, nil, 1); err != nil {
					t.Error(err)
					return
				}
				act := make([]byte, 8*3*slots)
				for i := 0; i < 20; i++ {
					if _, err := p.Step(ctx, nil, act, nil); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		f.Close()
		if m := most.Load(); m > tc.most || (tc.gate == nil && m < 2) {
			t.Errorf("gate %v: at most %d bots played at once, want at most %d (and more than 1 without a gate)", tc.gate != nil, m, tc.most)
		}
	}
}
