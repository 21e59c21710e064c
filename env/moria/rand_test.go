package moria

import (
	"reflect"
	"testing"
)

// The test vectors of SPEC §1.6.
func TestRandVectors(t *testing.T) {
	r := NewRand(1)
	for i, want := range []int64{1297131554, 17103983, 1426780792, 2111429773} {
		r.s = (randMul*r.s + randAdd) & randMask
		if got := r.State(); got != want {
			t.Errorf("raw state %d after seed 1 = %d, want %d", i+1, got, want)
		}
	}
	r = NewRand(1)
	var got []int
	for range 6 {
		got = append(got, r.Int(0, 99))
	}
	if want := []int{0, 98, 41, 68, 66, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("R(0,99) x6 from seed 1 = %v, want %v", got, want)
	}
	if got, want := NewRand(1).Perm(10), []int{0, 9, 5, 7, 3, 2, 1, 4, 8, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("P(10) from seed 1 = %v, want %v", got, want)
	}
}

func TestRandEdges(t *testing.T) {
	for _, c := range []struct {
		name        string
		l, u        int
		want        int
		wantStepped bool
	}{
		{"empty range", 5, 4, 5, false},
		{"range too long", 0, 1000000, 0, false},
		{"longest range", 0, 999999, -1, true},
		{"one value", 7, 7, 7, true},
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
	}
	for _, seed := range []int{-5, 5, 1 << 31, -(1 << 31)} {
		r := NewRand(seed)
		want := int64(int32(seed))
		if want < 0 {
			want = -want
		}
		if got := r.State(); got != want&randMask {
			t.Errorf("Seed(%d): state %d, want %d", seed, got, want&randMask)
		}
	}
}

func TestSkipDrawsAndLazyPerm(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 10, 464} {
		a, b := NewRand(99), NewRand(99)
		want := a.Perm(n)
		b.SkipPerm(n)
		if a.State() != b.State() {
			t.Errorf("SkipPerm(%d): state %d, want %d", n, b.State(), a.State())
		}
		for take := 0; take <= n; take++ {
			c := NewRand(99)
			var l lazyPerm
			l.start(c, n)
			for k := 0; k < take; k++ {
				v, ok := l.next()
				if !ok || v != want[k] {
					t.Fatalf("lazy P(%d) entry %d = %d, %v, want %d", n, k, v, ok, want[k])
				}
			}
			l.finish()
			if c.State() != a.State() {
				t.Fatalf("lazy P(%d) after %d entries: state %d, want %d", n, take, c.State(), a.State())
			}
		}
	}
}
