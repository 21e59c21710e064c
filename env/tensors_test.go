package env

import (
	"errors"
	"slices"
	"testing"
)

// TestSubsetOptIn checks the opt-in tensors of a spec: left out of the
// whole observation, kept after the observation's tensors when named.
func TestSubsetOptIn(t *testing.T) {
	s := Spec{Name: "G", Observation: []TensorSpec{{Name: "board"}, {Name: "action_mask"}, {Name: "units"}},
		OptIn: []TensorSpec{{Name: "hint"}, {Name: "extra"}}}
	names := func(sp Spec) []string { return sp.TensorNames() }
	if got := tensorNames(s.AllTensors()); !slices.Equal(got, []string{"board", "action_mask", "units", "hint", "extra"}) {
		t.Errorf("AllTensors = %v", got)
	}
	for _, c := range []struct {
		names []string
		want  []string
	}{
		{nil, []string{"board", "action_mask", "units"}},
		{[]string{"extra", "units"}, []string{"action_mask", "units", "extra"}},
		{[]string{"hint", "board", "extra"}, []string{"board", "action_mask", "hint", "extra"}},
	} {
		sub, err := s.Subset(c.names)
		if err != nil {
			t.Fatalf("Subset(%v): %v", c.names, err)
		}
		if got := names(sub); !slices.Equal(got, c.want) || len(sub.OptIn) != 0 {
			t.Errorf("Subset(%v) = %v, opt-in %v, want %v and none", c.names, got, sub.OptIn, c.want)
		}
	}
	if _, err := s.Subset([]string{"hint", "hint"}); !errors.Is(err, ErrBadSetup) {
		t.Errorf("Subset(hint twice) = %v, want %v", err, ErrBadSetup)
	}
}
