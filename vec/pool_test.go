package vec_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"

	"jgym/env"
	"jgym/env/crematoria"
	"jgym/vec"
)

const (
	slots = 80
	dirs  = 11
)

var ctx = context.Background()

func factory(t testing.TB, s env.Setup) env.Factory {
	t.Helper()
	f, err := crematoria.Def.Host().NewFactory(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

var oneLearner = env.Setup{Seats: []string{"", "Demo", "Demo", "Demo"}}

func newPool(t testing.TB, f env.Factory, n int, opts ...vec.Option) *vec.Pool {
	t.Helper()
	p, err := vec.New(f, n, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// policy picks, for every learner's slot, a legal direction from the
// batch's action mask with a hash of (env, round, slot): a deterministic
// function of the observation, so runs can be compared.
func policy(b *vec.Batch, l int) []byte {
	mask := b.Obs[3]
	rounds := vec.Int32s(b.Round)
	act := make([]byte, len(b.EnvIDs)*l*slots)
	for k, id := range b.EnvIDs {
		for s := 0; s < l*slots; s++ {
			row := mask[(k*l*slots+s)*dirs : (k*l*slots+s+1)*dirs]
			h := uint32(id)*2654435761 ^ uint32(rounds[k])*40503 ^ uint32(s)*97
			d := int(h % dirs)
			for row[d] == 0 {
				d = (d + 1) % dirs
			}
			act[k*l*slots+s] = byte(d)
		}
	}
	return act
}

// digest hashes everything a batch carries.
func digest(h interface{ Write([]byte) (int, error) }, b *vec.Batch) {
	fmt.Fprint(h, b.EnvIDs)
	for _, o := range b.Obs {
		h.Write(o)
	}
	for _, x := range [][]byte{b.Reward, b.Terminated, b.Scores, b.Rank, b.Seats, b.Round, b.Episode, b.FinalScores} {
		h.Write(x)
	}
	fmt.Fprint(h, b.FinalIndex)
	for _, o := range b.FinalObs {
		h.Write(o)
	}
}

// run plays steps synchronous steps after a reset with seed and returns
// a digest of every batch.
func run(t testing.TB, p *vec.Pool, seed int64, steps int) string {
	t.Helper()
	h := sha256.New()
	b, err := p.Reset(ctx, nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	digest(h, b)
	for i := 0; i < steps; i++ {
		if b, err = p.Step(ctx, nil, policy(b, p.Learners()), nil); err != nil {
			t.Fatal(err)
		}
		digest(h, b)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestWholeEpisodesNextStep(t *testing.T) {
	checkLeaks(t)
	f := factory(t, oneLearner)
	const n = 6
	p := newPool(t, f, n, vec.WithWorkers(2))
	b, err := p.Reset(ctx, nil, 100)
	if err != nil {
		t.Fatal(err)
	}
	sums := make([]float32, n)
	for step := 1; step <= 122; step++ {
		if b, err = p.Step(ctx, nil, policy(b, 1), nil); err != nil {
			t.Fatal(err)
		}
		r, term, round, ep := vec.Float32s(b.Reward), b.Terminated, vec.Int32s(b.Round), vec.Int32s(b.Episode)
		for i := 0; i < n; i++ {
			switch {
			case step < 120:
				sums[i] += r[i]
				if term[i] != 0 || round[i] != int32(step) || ep[i] != 0 {
					t.Fatalf("step %d env %d: terminated %d round %d episode %d", step, i, term[i], round[i], ep[i])
				}
			case step == 120:
				sums[i] += r[i]
				if term[i] != 1 || round[i] != 120 {
					t.Fatalf("step 120 env %d: terminated %d round %d, want 1, 120", i, term[i], round[i])
				}
				score := vec.Int32s(b.Scores)[i*4+int(vec.Int32s(b.Seats)[i])]
				if got, want := sums[i], float32(score-15); got != want {
					t.Errorf("env %d: sum of rewards %v, want final score - 15 = %v", i, got, want)
				}
			case step == 121: // the autoreset step
				if term[i] != 0 || round[i] != 0 || ep[i] != 1 || r[i] != 0 {
					t.Fatalf("autoreset step env %d: terminated %d round %d episode %d reward %v, want 0 0 1 0", i, term[i], round[i], ep[i], r[i])
				}
			case step == 122:
				if round[i] != 1 || ep[i] != 1 {
					t.Fatalf("step 122 env %d: round %d episode %d", i, round[i], ep[i])
				}
			}
		}
	}
}

// TestAutoresetSeeds checks that an env's second game after a seeded reset
// uses seed+i+N, whatever the autoreset mode, and that SameStep returns the
// final observation beside the new game's first.
func TestSameStep(t *testing.T) {
	checkLeaks(t)
	f := factory(t, oneLearner)
	const n, seed = 3, 40
	p := newPool(t, f, n, vec.WithAutoreset(vec.SameStep))
	b, err := p.Reset(ctx, nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	for step := 1; step <= 120; step++ {
		if b, err = p.Step(ctx, nil, policy(b, 1), nil); err != nil {
			t.Fatal(err)
		}
		if step < 120 && len(b.FinalIndex) != 0 {
			t.Fatalf("step %d: final index %v", step, b.FinalIndex)
		}
	}
	if got := fmt.Sprint(b.FinalIndex); got != "[0 1 2]" {
		t.Fatalf("final index at step 120 = %s, want [0 1 2]", got)
	}
	for i, term := range b.Terminated {
		if term != 1 || vec.Int32s(b.Round)[i] != 0 || vec.Int32s(b.Episode)[i] != 1 {
			t.Fatalf("env %d: terminated %d round %d episode %d, want 1 0 1", i, term, vec.Int32s(b.Round)[i], vec.Int32s(b.Episode)[i])
		}
	}
	// The new games are those of seeds seed+i+n.
	q := newPool(t, f, n)
	want, err := q.Reset(ctx, nil, seed+n)
	if err != nil {
		t.Fatal(err)
	}
	for k := range want.Obs {
		if string(want.Obs[k]) != string(b.Obs[k]) {
			t.Fatalf("tensor %d after autoreset differs from a reset with seed %d", k, seed+n)
		}
	}
	// The final observation is round 120's.
	if len(b.FinalObs[2]) != n*64 || b.FinalObs[2][0] != 0 || b.FinalObs[2][3] != 0x3f { // globals[0] = 1.0f
		t.Errorf("final globals[0] bytes = %v, want float32 1.0", b.FinalObs[2][:4])
	}
}

func TestDisabledAutoreset(t *testing.T) {
	f := factory(t, oneLearner)
	p := newPool(t, f, 2, vec.WithAutoreset(vec.Disabled))
	b, err := p.Reset(ctx, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for step := 0; step < 120; step++ {
		if b, err = p.Step(ctx, nil, policy(b, 1), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Step(ctx, nil, make([]byte, 2*slots), nil); !errors.Is(err, vec.ErrNeedsReset) {
		t.Fatalf("step after the end = %v, want ErrNeedsReset", err)
	}
	if _, err := p.Reset(ctx, []int32{1}, vec.NoSeed); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Step(ctx, []int32{1}, make([]byte, slots), nil); err != nil {
		t.Fatalf("step after reset = %v", err)
	}
}

// TestDeterminism: identical results for any number of workers, across
// runs, and for several seat mixes.
func TestDeterminism(t *testing.T) {
	checkLeaks(t)
	for _, s := range []env.Setup{
		oneLearner,
		{Seats: []string{"", "", "Null", "Demo"}, Shuffle: true, Reward: env.Relative},
		{Seats: []string{"", "", "", ""}, Reward: env.Rank},
	} {
		t.Run(fmt.Sprint(s.Seats, s.Shuffle), func(t *testing.T) {
			f := factory(t, s)
			var want string
			for _, w := range []int{1, 3, 8, 1} {
				got := run(t, newPool(t, f, 8, vec.WithWorkers(w), vec.WithAutoreset(vec.SameStep)), 7, 130)
				if want == "" {
					want = got
				} else if got != want {
					t.Fatalf("workers %d: digest %s, want %s", w, got, want)
				}
			}
		})
	}
}

// TestAsync sends all envs, receives batches of B and sends them again:
// every env's trajectory equals the synchronous one.
func TestAsync(t *testing.T) {
	checkLeaks(t)
	f := factory(t, oneLearner)
	const n, bs, rounds = 8, 3, 30
	// Reference: per-env digests of obs after each step, synchronous.
	ref := newPool(t, f, n)
	b, err := ref.Reset(ctx, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := make([][]string, n)
	for r := 0; r < rounds; r++ {
		if b, err = ref.Step(ctx, nil, policy(b, 1), nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			want[i] = append(want[i], fmt.Sprintf("%x", sha256.Sum256(b.Obs[0][i*9600:(i+1)*9600])))
		}
	}
	p := newPool(t, f, n, vec.WithBatchSize(bs), vec.WithWorkers(3))
	b, err = p.Reset(ctx, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Send(b.EnvIDs, policy(b, 1), nil); err != nil {
		t.Fatal(err)
	}
	got := make([][]string, n)
	for done := 0; done < n; {
		b, err := p.Recv(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.EnvIDs) != bs && p.Pending() != 0 {
			t.Fatalf("Recv gave %d envs with %d pending, want %d", len(b.EnvIDs), p.Pending(), bs)
		}
		var again []int32
		for k, i := range b.EnvIDs {
			got[i] = append(got[i], fmt.Sprintf("%x", sha256.Sum256(b.Obs[0][k*9600:(k+1)*9600])))
			if len(got[i]) < rounds {
				again = append(again, i)
			} else {
				done++
			}
		}
		if len(again) > 0 {
			sub := policy(b, 1)
			var act []byte
			for k, i := range b.EnvIDs {
				if len(got[i]) < rounds {
					act = append(act, sub[k*slots:(k+1)*slots]...)
				}
			}
			if err := p.Send(again, act, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range want {
		for r := range want[i] {
			if got[i][r] != want[i][r] {
				t.Fatalf("env %d round %d: async observation differs from sync", i, r+1)
			}
		}
	}
	if _, err := p.Recv(ctx); !errors.Is(err, vec.ErrNothingPending) {
		t.Errorf("Recv with nothing pending = %v, want ErrNothingPending", err)
	}
}

func TestBadCalls(t *testing.T) {
	checkLeaks(t)
	f := factory(t, oneLearner)
	p := newPool(t, f, 4, vec.WithBatchSize(2))
	act := func(n int) []byte { return make([]byte, n*slots) }
	if _, err := p.Step(ctx, nil, act(4), nil); !errors.Is(err, vec.ErrNotReset) {
		t.Errorf("step before reset = %v, want ErrNotReset", err)
	}
	if _, err := p.Reset(ctx, nil, 3); err != nil {
		t.Fatal(err)
	}
	bad := act(1)
	bad[7] = 11
	for _, c := range []struct {
		name   string
		ids    []int32
		action []byte
		order  []byte
		want   error
	}{
		{"id out of range", []int32{4}, act(1), nil, vec.ErrBadEnvID},
		{"negative id", []int32{-1}, act(1), nil, vec.ErrBadEnvID},
		{"duplicate id", []int32{1, 1}, act(2), nil, vec.ErrBadEnvID},
		{"empty ids", []int32{}, nil, nil, vec.ErrBadEnvID},
		{"short action", nil, act(3), nil, vec.ErrBadAction},
		{"long action", []int32{0}, act(2), nil, vec.ErrBadAction},
		{"direction 11", []int32{2}, bad, nil, vec.ErrBadAction},
		{"order length", []int32{0}, act(1), make([]byte, 3), vec.ErrBadAction},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := p.Step(ctx, c.ids, c.action, c.order)
			if !errors.Is(err, c.want) {
				t.Fatalf("Step = %v, want %v", err, c.want)
			}
			t.Log(err)
		})
	}
	if _, err := p.Reset(ctx, nil, 1<<31); !errors.Is(err, vec.ErrBadSeed) {
		t.Errorf("reset with seed 2^31 = %v, want ErrBadSeed", err)
	}
	if err := p.Send([]int32{0, 1}, act(2), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Step(ctx, []int32{1, 2}, act(2), nil); !errors.Is(err, vec.ErrBusy) {
		t.Errorf("step of a sent env = %v, want ErrBusy", err)
	}
	if _, err := p.Reset(ctx, nil, 1); !errors.Is(err, vec.ErrBusy) {
		t.Errorf("reset of a sent env = %v, want ErrBusy", err)
	}
	if _, err := p.Step(ctx, []int32{2, 3}, act(2), nil); err != nil {
		t.Errorf("step of other envs while some are sent = %v", err)
	}
	if _, err := p.Recv(ctx); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Step(cancelled, nil, act(4), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled step = %v, want context.Canceled", err)
	}
	// The pool recovers: the cancelled envs finish and can be stepped.
	for i := 0; i < 100; i++ {
		if _, err := p.Step(ctx, nil, act(4), nil); err == nil {
			break
		} else if !errors.Is(err, vec.ErrBusy) {
			t.Fatalf("step after a cancelled one = %v", err)
		}
	}
	p.Close()
	if _, err := p.Step(ctx, nil, act(4), nil); !errors.Is(err, vec.ErrClosed) {
		t.Errorf("step after close = %v, want ErrClosed", err)
	}
	if _, err := vec.New(f, 0); !errors.Is(err, vec.ErrBadOption) {
		t.Errorf("New(n=0) = %v, want ErrBadOption", err)
	}
	if _, err := vec.New(f, 2, vec.WithBatchSize(3)); !errors.Is(err, vec.ErrBadOption) {
		t.Errorf("New(batch 3 of 2) = %v, want ErrBadOption", err)
	}
}

// TestSeedStride splits five games over two pools (3 + 2 envs, stride 5,
// the second reset with the seed offset by 3): each game gets the boards
// it gets in one pool of 5, for the seeded reset and the next two.
func TestSeedStride(t *testing.T) {
	f := factory(t, oneLearner)
	boards := func(p *vec.Pool, seed int64) [][]byte {
		var out [][]byte
		for k := 0; k < 3; k++ {
			s := seed
			if k > 0 {
				s = vec.NoSeed
			}
			b, err := p.Reset(ctx, nil, s)
			if err != nil {
				t.Fatal(err)
			}
			per := len(b.Obs[0]) / len(b.EnvIDs)
			for i := range b.EnvIDs {
				out = append(out, append([]byte(nil), b.Obs[0][i*per:(i+1)*per]...))
			}
		}
		return out
	}
	one := boards(newPool(t, f, 5), 9)
	a := boards(newPool(t, f, 3, vec.WithSeedStride(5)), 9)
	b := boards(newPool(t, f, 2, vec.WithSeedStride(5)), 12)
	for k := 0; k < 3; k++ {
		split := append(append([][]byte(nil), a[k*3:k*3+3]...), b[k*2:k*2+2]...)
		for g := 0; g < 5; g++ {
			if !bytes.Equal(one[k*5+g], split[g]) {
				t.Errorf("reset %d, game %d: the split pools' board differs from one pool's", k, g)
			}
		}
	}
	if bytes.Equal(one[0], one[5]) {
		t.Fatal("game 0's first and second boards are equal: the test cannot tell seeds apart")
	}
	if _, err := vec.New(f, 4, vec.WithSeedStride(3)); !errors.Is(err, vec.ErrBadOption) {
		t.Errorf("stride 3 for 4 envs: err %v, want ErrBadOption", err)
	}
}
