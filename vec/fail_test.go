package vec_test

import (
	"errors"
	"io"
	"testing"

	"jgym/env"
	"jgym/env/crematoria"
	"jgym/vec"
)

// boom is a bot that panics at round 2 of the game seeded 1.
type boom struct{ seed int }

func (b boom) Play(s *crematoria.State, _ *crematoria.Orders) {
	if b.seed == 1 && s.Round == 2 {
		panic("boom")
	}
}

// TestPanickingInstance: a panicking bot fails its env, not the pool.
func TestPanickingInstance(t *testing.T) {
	checkLeaks(t)
	g := crematoria.Def.Host(env.WithResolver(func(string) (crematoria.BotFactory, io.Closer, error) {
		return func(me, seed int) crematoria.Bot { return boom{seed} }, nil, nil
	}))
	f, err := g.NewFactory(env.Setup{Seats: []string{"", "Boom", "Boom", "Boom"}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := newPool(t, f, 3)
	if _, err := p.Reset(ctx, nil, 0); err != nil { // seeds 0, 1, 2
		t.Fatal(err)
	}
	act := make([]byte, 3*slots)
	for i := 0; i < 2; i++ {
		if _, err := p.Step(ctx, nil, act, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Step(ctx, nil, act, nil); !errors.Is(err, vec.ErrInstance) {
		t.Fatalf("step with a panicking bot = %v, want ErrInstance", err)
	} else {
		t.Log(err)
	}
	if _, err := p.Step(ctx, nil, act, nil); !errors.Is(err, vec.ErrNeedsReset) {
		t.Fatalf("step of the failed env = %v, want ErrNeedsReset", err)
	}
	if _, err := p.Step(ctx, []int32{0, 2}, act[:2*slots], nil); err != nil {
		t.Fatalf("step of the other envs = %v", err)
	}
	if _, err := p.Reset(ctx, []int32{1}, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Step(ctx, nil, act, nil); err != nil {
		t.Fatalf("step after resetting the failed env = %v", err)
	}
}
