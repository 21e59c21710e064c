package vec_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"

	"jgym/vec"
)

// TestMoveOutputs: a pool whose observations move to buffers of the
// caller's in the middle of its games, and back, plays the same games as
// one that keeps its own; a batch of every env is then the caller's
// buffers themselves; envs in flight refuse the move.
func TestMoveOutputs(t *testing.T) {
	for _, auto := range []vec.Autoreset{vec.NextStep, vec.SameStep} {
		t.Run(auto.String(), func(t *testing.T) {
			const n, steps = 3, 130 // across the end of the first games
			want := run(t, newPool(t, factory(t, oneLearner), n, vec.WithAutoreset(auto)), 5, steps)
			p := newPool(t, factory(t, oneLearner), n, vec.WithAutoreset(auto))
			mine := func() [][]byte {
				var bufs [][]byte
				for k := range p.Spec().Observation {
					bufs = append(bufs, make([]byte, p.ObservationBytes(k)))
				}
				return bufs
			}
			h := sha256.New()
			b, err := p.Reset(ctx, nil, 5)
			if err != nil {
				t.Fatal(err)
			}
			digest(h, b)
			var obs [][]byte
			for i := 0; i < steps; i++ {
				switch i {
				case 10:
					obs = mine()
					var final [][]byte
					if auto == vec.SameStep {
						final = mine()
					}
					if err := p.MoveOutputs(obs, final); err != nil {
						t.Fatal(err)
					}
				case 100:
					if err := p.MoveOutputs(nil, nil); err != nil {
						t.Fatal(err)
					}
				}
				if b, err = p.Step(ctx, nil, policy(b, 1), nil); err != nil {
					t.Fatal(err)
				}
				if i >= 10 && i < 100 && &b.Obs[0][0] != &obs[0][0] {
					t.Fatalf("step %d: the batch's observations are not the caller's buffers", i)
				}
				digest(h, b)
			}
			if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
				t.Fatalf("digest %s, want %s", got, want)
			}
			if err := p.MoveOutputs(mine()[:1], nil); err == nil {
				t.Fatal("a single buffer for all the tensors was taken")
			}
			if err := p.Send([]int32{0}, policy(b, 1)[:slots], nil); err != nil {
				t.Fatal(err)
			}
			if err := p.MoveOutputs(mine(), nil); !errors.Is(err, vec.ErrBusy) {
				t.Fatalf("MoveOutputs with an env in flight = %v, want ErrBusy", err)
			}
		})
	}
}

// TestObsInPlace: with the observations moved and ObsInPlace, a batch of
// some envs is not gathered: its Obs are the caller's buffers, where each
// env's rows are the ones a pool that keeps its own gathers for the same
// steps; without ObsInPlace, the batch is gathered again.
func TestObsInPlace(t *testing.T) {
	const n = 4
	ref := newPool(t, factory(t, oneLearner), n)
	p := newPool(t, factory(t, oneLearner), n)
	var obs [][]byte
	for k := range p.Spec().Observation {
		obs = append(obs, make([]byte, p.ObservationBytes(k)))
	}
	if err := p.MoveOutputs(obs, nil); err != nil {
		t.Fatal(err)
	}
	p.ObsInPlace(true)
	a, err := ref.Reset(ctx, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reset(ctx, nil, 3); err != nil {
		t.Fatal(err)
	}
	act := policy(a, 1)
	for step, ids := range [][]int32{{2, 0}, {1, 3}, {3}, {0, 1, 2}} {
		sub := make([]byte, 0, len(ids)*slots)
		for _, i := range ids {
			sub = append(sub, act[int(i)*slots:(int(i)+1)*slots]...)
		}
		want, err := ref.Step(ctx, ids, sub, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Step(ctx, ids, sub, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k := range obs {
			if &got.Obs[k][0] != &obs[k][0] {
				t.Fatalf("step %d, tensor %d: the batch's observations are not the caller's buffers", step, k)
			}
			per := len(obs[k]) / n
			for j, i := range ids {
				if !bytes.Equal(obs[k][int(i)*per:(int(i)+1)*per], want.Obs[k][j*per:(j+1)*per]) {
					t.Fatalf("step %d, tensor %d, env %d: the rows differ from the gathered ones", step, k, i)
				}
			}
		}
		if !bytes.Equal(got.Reward, want.Reward) || !bytes.Equal(got.Round, want.Round) {
			t.Fatalf("step %d: rewards or rounds differ", step)
		}
	}
	p.ObsInPlace(false)
	want, err := ref.Reset(ctx, []int32{2}, vec.NoSeed)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Reset(ctx, []int32{2}, vec.NoSeed)
	if err != nil {
		t.Fatal(err)
	}
	for k := range obs {
		if !bytes.Equal(got.Obs[k], want.Obs[k]) {
			t.Fatalf("tensor %d: the batch of env 2 is not gathered", k)
		}
	}
}
