package env_test

import (
	"errors"
	"reflect"
	"testing"

	"jgym/env"
)

// fakeGame is the smallest env.Game: it only describes itself.
type fakeGame struct{ id string }

func (g fakeGame) Spec() env.Spec                            { return env.Spec{ID: g.id, NumSeats: 4} }
func (g fakeGame) Bots() (names, prefixes []string)          { return nil, nil }
func (g fakeGame) NewFactory(env.Setup) (env.Factory, error) { return nil, env.ErrBadSetup }

func TestRegistry(t *testing.T) {
	reg, err := env.NewRegistry(fakeGame{"B-v0"}, fakeGame{"A-v0"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := reg.IDs(), []string{"A-v0", "B-v0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("IDs() = %v, want %v", got, want)
	}
	if g, err := reg.Lookup("B-v0"); err != nil || g.Spec().ID != "B-v0" {
		t.Errorf("Lookup(B-v0) = %v, %v", g, err)
	}
	if _, err := reg.Lookup("C-v0"); !errors.Is(err, env.ErrUnknownGame) {
		t.Errorf("Lookup(C-v0) = %v, want ErrUnknownGame", err)
	}
	if err := reg.Register(fakeGame{"A-v0"}); !errors.Is(err, env.ErrDuplicateGame) {
		t.Errorf("Register(A-v0 again) = %v, want ErrDuplicateGame", err)
	}
	var zero env.Registry
	if err := zero.Register(fakeGame{"Z-v0"}); err != nil || len(zero.Games()) != 1 {
		t.Errorf("zero Registry: Register = %v, Games = %v", err, zero.Games())
	}
}

func TestSpecSizes(t *testing.T) {
	for _, c := range []struct {
		d    env.Dtype
		size int
		name string
	}{
		{env.Uint8, 1, "uint8"}, {env.Int8, 1, "int8"}, {env.Int16, 2, "int16"}, {env.Int32, 4, "int32"},
		{env.Float32, 4, "float32"}, {env.Bool, 1, "bool"}, {env.Int64, 8, "int64"}, {env.InvalidDtype, 0, "invalid"},
	} {
		if got := c.d.Size(); got != c.size {
			t.Errorf("%v.Size() = %d, want %d", c.d, got, c.size)
		}
		if got := c.d.String(); got != c.name {
			t.Errorf("Dtype(%d).String() = %q, want %q", c.d, got, c.name)
		}
	}
	s := env.Spec{Observation: []env.TensorSpec{
		{Dtype: env.Uint8, Shape: []int{3, 40, 80}},
		{Dtype: env.Float32, Shape: []int{16}},
	}}
	if got, want := s.ObservationBytes(), 9600+64; got != want {
		t.Errorf("ObservationBytes() = %d, want %d", got, want)
	}
	if got := (&env.Setup{Seats: []string{"", "Demo", "", "Null"}}).Learners(); got != 2 {
		t.Errorf("Learners() = %d, want 2", got)
	}
}
