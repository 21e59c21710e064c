package coursetest

import (
	"testing"

	"jgym/env"
)

// NewInstance makes a factory of the setup on g, closed when the test
// ends, and an instance, and returns them with the instance's table, of
// the game's type T (env.TableOf).
func NewInstance[T any](t testing.TB, g env.Game, s env.Setup) (env.Instance, T, env.Factory) {
	t.Helper()
	f, err := g.NewFactory(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	in, err := f.NewInstance()
	if err != nil {
		t.Fatal(err)
	}
	return in, TableOf[T](t, in), f
}

// TableOf returns the table of an instance, of the game's type T.
func TableOf[T any](t testing.TB, in env.Instance) T {
	t.Helper()
	tb, ok := env.TableOf[T](in)
	if !ok {
		var want T
		t.Fatalf("instance %T has no table of type %T", in, want)
	}
	return tb
}
