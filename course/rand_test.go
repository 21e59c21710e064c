package course

import (
	"slices"
	"testing"
)

// Test vectors of SPEC §1.6 of Crematoria and Dominator (the same table),
// checked there against the reference code: P(10) has the same entries in
// both kits, FullPerm makes one draw more.
func TestRandVectors(t *testing.T) {
	tests := []struct {
		seed  int
		raw   []int64
		r99   []int
		mixed []int
		perm  []int
	}{
		{0, []int64{453816693, 1623591814, 474883, 709372028}, []int{75, 33, 62, 68, 6, 66}, []int{4, 0, 41, 0, 5}, []int{7, 3, 0, 2, 4, 8, 6, 1, 5, 9}},
		{1, []int64{1297131554, 17103983, 1426780792, 2111429773}, []int{0, 98, 41, 68, 66, 7}, []int{1, 2, 35, 0, 53}, []int{0, 9, 5, 7, 3, 2, 1, 4, 8, 6}},
		{30, []int64{2130942395, 673597140, 1987462841, 1968915066}, []int{31, 91, 19, 66, 98, 11}, []int{2, 2, 30, 0, 78}, []int{3, 9, 0, 7, 1, 5, 6, 8, 2, 4}},
		{12345, []int64{175050234, 1542807399, 528491536, 394031173}, []int{71, 18, 46, 36, 90, 8}, []int{3, 0, 36, 0, 72}, []int{7, 2, 5, 1, 9, 3, 4, 6, 8, 0}},
	}
	for _, tc := range tests {
		r := NewRand(tc.seed)
		var raw []int64
		for range 4 {
			r.Step()
			raw = append(raw, r.State())
		}
		if !slices.Equal(raw, tc.raw) {
			t.Errorf("seed %d: raw states = %v, want %v", tc.seed, raw, tc.raw)
		}
		r = NewRand(tc.seed)
		var got []int
		for range 6 {
			got = append(got, r.Int(0, 99))
		}
		if !slices.Equal(got, tc.r99) {
			t.Errorf("seed %d: R(0,99) x6 = %v, want %v", tc.seed, got, tc.r99)
		}
		r = NewRand(tc.seed)
		got = []int{r.Int(1, 4), r.Int(0, 2), r.Int(25, 50), r.Int(0, 0), r.Int(0, 79)}
		if !slices.Equal(got, tc.mixed) {
			t.Errorf("seed %d: mixed draws = %v, want %v", tc.seed, got, tc.mixed)
		}
		short, full := NewRand(tc.seed), NewRand(tc.seed)
		if got := short.Perm(10); !slices.Equal(got, tc.perm) {
			t.Errorf("seed %d: Perm(10) = %v, want %v", tc.seed, got, tc.perm)
		}
		if got := full.FullPerm(10); !slices.Equal(got, tc.perm) {
			t.Errorf("seed %d: FullPerm(10) = %v, want %v", tc.seed, got, tc.perm)
		}
		short.Int(9, 9)
		if short.State() != full.State() {
			t.Errorf("seed %d: FullPerm(10) state %d, want Perm(10) and R(9,9): %d", tc.seed, full.State(), short.State())
		}
		for _, n := range []int{10, 0, 1} {
			a, b := NewRand(tc.seed), NewRand(tc.seed)
			a.Perm(n)
			b.SkipPerm(n)
			if a.State() != b.State() {
				t.Errorf("seed %d: state after SkipPerm(%d) = %d, want %d", tc.seed, n, b.State(), a.State())
			}
			a, b = NewRand(tc.seed), NewRand(tc.seed)
			a.FullPerm(n)
			b.SkipFullPerm(n)
			if a.State() != b.State() {
				t.Errorf("seed %d: state after SkipFullPerm(%d) = %d, want %d", tc.seed, n, b.State(), a.State())
			}
		}
	}
}

// Test vectors of Pandemic's SPEC §1.7 (FullPerm).
func TestRandVectorsFull(t *testing.T) {
	r := NewRand(1)
	var got []int
	for range 8 {
		got = append(got, r.Int(0, 9))
	}
	if want := []int{0, 9, 4, 6, 6, 0, 8, 1}; !slices.Equal(got, want) {
		t.Errorf("seed 1: R(0,9) x8 = %v, want %v", got, want)
	}
	r = NewRand(42)
	got = []int{r.Int(8, 22), r.Int(0, 69), r.Int(0, 69), r.Int(0, 69)}
	if want := []int{13, 52, 43, 46}; !slices.Equal(got, want) || r.State() != 1411794978 {
		t.Errorf("seed 42: draws = %v, state %d, want %v, state 1411794978", got, r.State(), want)
	}
	r = NewRand(7)
	if got, want := r.FullPerm(10), []int{5, 9, 3, 7, 0, 2, 8, 6, 4, 1}; !slices.Equal(got, want) || r.State() != 1375196195 {
		t.Errorf("seed 7: FullPerm(10) = %v, state %d, want %v, state 1375196195", got, r.State(), want)
	}
	if got := NewRand(-5).State(); got != 5 {
		t.Errorf("seed -5: state = %d, want 5", got)
	}
}

func TestRandEdgeCases(t *testing.T) {
	a, b := NewRand(-7), NewRand(7)
	for range 10 {
		if x, y := a.Int(0, 1000), b.Int(0, 1000); x != y {
			t.Fatalf("seed -7 drew %d, seed 7 drew %d", x, y)
		}
	}
	for _, c := range []struct {
		name        string
		l, u        int
		want        int
		wantStepped bool
	}{
		{"empty range", 5, 4, 5, false},
		{"range too long", 0, 1000000, 0, false},
		{"longest range", 0, 999999, -1, true},
		{"one value", 0, 0, 0, true},
		{"another value", 7, 7, 7, true},
	} {
		r := NewRand(3)
		before := r.State()
		got := r.Int(c.l, c.u)
		if c.want >= 0 && got != c.want {
			t.Errorf("%s: R(%d,%d) = %d, want %d", c.name, c.l, c.u, got, c.want)
		}
		if stepped := r.State() != before; stepped != c.wantStepped {
			t.Errorf("%s: stepped = %v, want %v", c.name, stepped, c.wantStepped)
		}
		if c.wantStepped {
			s := NewRand(3)
			s.Step()
			s.Step()
			if s.State() != r.State() {
				t.Errorf("%s: state %d after a draw, want two steps: %d", c.name, r.State(), s.State())
			}
		}
	}
	for _, seed := range []int{-5, 5, 1 << 31, -(1 << 31), 1<<32 + 9} {
		want := int64(int32(seed))
		if want < 0 {
			want = -want
		}
		if got := NewRand(seed).State(); got != want&randMask {
			t.Errorf("Seed(%d): state %d, want %d", seed, got, want&randMask)
		}
	}
	r := NewRand(3)
	if p := r.Perm(-1); p != nil {
		t.Errorf("Perm(-1) = %v, want nil", p)
	}
	if p := r.FullPerm(1000001); p != nil {
		t.Errorf("FullPerm(10^6+1) = %v, want nil", p)
	}
	s := r.State()
	if p := r.FullPerm(0); len(p) != 0 || r.State() != s {
		t.Errorf("FullPerm(0) = %v and moved the state; want empty and no draw", p)
	}
	if p := r.Perm(1); len(p) != 1 || r.State() != s {
		t.Errorf("Perm(1) = %v and moved the state; want [0] and no draw", p)
	}
	var x Rand
	if x.Int(0, 99) != NewRand(0).Int(0, 99) {
		t.Error("the zero Rand is not seeded with 0")
	}
	x.SetState(1<<40 + 17)
	if x.State() != 17 {
		t.Errorf("SetState(2^40+17): state %d, want 17", x.State())
	}
}

// TestSkipDraws checks the O(log k) jump against k draws made one by one.
func TestSkipDraws(t *testing.T) {
	for _, seed := range []int{0, 1, 12345, -7, 1 << 30} {
		for _, k := range []int{0, 1, 2, 3, 7, 64, 999, 4097} {
			a, b := NewRand(seed), NewRand(seed)
			for i := 0; i < k; i++ {
				a.Int(0, 9)
			}
			b.SkipDraws(k)
			if a.State() != b.State() {
				t.Fatalf("seed %d, %d draws: state %d after skipping, %d drawing", seed, k, b.State(), a.State())
			}
		}
	}
}

// TestLazyPerm checks that reading a prefix of a permutation lazily and
// finishing gives its entries and leaves the generator where the
// permutation does, for both kits, with one LazyPerm reused throughout.
func TestLazyPerm(t *testing.T) {
	var l LazyPerm
	for _, full := range []bool{false, true} {
		for _, seed := range []int{3, 77, 99, 2024} {
			for _, m := range []int{0, 1, 2, 3, 5, 10, 300, 464, 1500} {
				for _, read := range []int{0, 1, 3, m / 2, m - 1, m} {
					read = max(0, min(read, m))
					all := NewRand(seed)
					var want []int
					r := NewRand(seed)
					if full {
						want = all.FullPerm(m)
						l.StartFull(r, m)
					} else {
						want = all.Perm(m)
						l.Start(r, m)
					}
					for i := 0; i < read; i++ {
						v, ok := l.Next()
						if !ok || v != want[i] {
							t.Fatalf("full %v seed %d m %d: entry %d = %d (ok %v), want %d", full, seed, m, i, v, ok, want[i])
						}
					}
					if read == m {
						if _, ok := l.Next(); ok {
							t.Fatalf("full %v seed %d m %d: an entry after the last", full, seed, m)
						}
					}
					l.Finish()
					if r.State() != all.State() {
						t.Fatalf("full %v seed %d m %d read %d: state %d, want %d", full, seed, m, read, r.State(), all.State())
					}
				}
			}
		}
	}
}

func BenchmarkInt(b *testing.B) {
	r := NewRand(1)
	s := 0
	for i := 0; i < b.N; i++ {
		s += r.Int(0, 99)
	}
	sink = s
}

var sink int
