package env

import (
	"fmt"
	"slices"
)

// MaxTensors bounds the number of names a setup's Tensors may list.
const MaxTensors = 32

// maxTensorName bounds the length of a tensor name a message quotes.
const maxTensorName = 40

// RequiredTensors returns the names of the observation tensors that every
// subset keeps whether or not it names them: the masks a learner's actions
// need, "action_mask" (the directions the engine accepts) and the spec's
// PolicyMask (the directions a policy samples from, Dominator's
// "move_mask"), when the spec has them.
func (s *Spec) RequiredTensors() []string {
	var req []string
	for _, t := range s.Observation {
		if t.Name == "action_mask" || t.Name == s.PolicyMask {
			req = append(req, t.Name)
		}
	}
	return req
}

// AllTensors returns the observation tensors then the opt-in ones: the
// order in which a game's encoder numbers the tensors it can write.
func (s *Spec) AllTensors() []TensorSpec {
	if len(s.OptIn) == 0 {
		return s.Observation
	}
	return append(slices.Clip(s.Observation), s.OptIn...)
}

// TensorNames returns the names of the spec's observation tensors, in
// order.
func (s *Spec) TensorNames() []string { return tensorNames(s.Observation) }

// tensorNames returns the tensors' names, in order.
func tensorNames(ts []TensorSpec) []string {
	n := make([]string, len(ts))
	for i, t := range ts {
		n[i] = t.Name
	}
	return n
}

// Subset returns the spec whose observation holds only the tensors named,
// and the required ones (RequiredTensors), in the order of AllTensors (the
// observation's, then the opt-in ones named); no names is the whole
// observation, without the opt-in tensors. A name that is not one of the
// spec's observation or opt-in tensors, or that is given twice, is an
// error wrapping ErrBadSetup that lists the valid names. The subset's
// OptIn is empty: its tensors are in its observation or not at all.
func (s *Spec) Subset(names []string) (Spec, error) {
	sub := *s
	sub.OptIn = nil
	if len(names) == 0 {
		return sub, nil
	}
	all := s.AllTensors()
	if len(names) > MaxTensors {
		return sub, fmt.Errorf("%w: %d tensor names (max %d)", ErrBadSetup, len(names), MaxTensors)
	}
	keep := make([]bool, len(all))
	for _, name := range s.RequiredTensors() {
		keep[slices.IndexFunc(all, func(t TensorSpec) bool { return t.Name == name })] = true
	}
	seen := make(map[string]bool, len(names))
	for _, name := range names {
		i := slices.IndexFunc(all, func(t TensorSpec) bool { return t.Name == name })
		if i < 0 {
			return sub, fmt.Errorf("%w: %s has no observation tensor %q (valid: %v)", ErrBadSetup, s.Name, clipName(name), tensorNames(all))
		}
		if seen[name] {
			return sub, fmt.Errorf("%w: tensor %q named twice", ErrBadSetup, name)
		}
		seen[name] = true
		keep[i] = true
	}
	obs := make([]TensorSpec, 0, len(all))
	for i, t := range all {
		if keep[i] {
			obs = append(obs, t)
		}
	}
	sub.Observation = obs
	return sub, nil
}

// clipName shortens a client's name for a message.
func clipName(s string) string {
	if len(s) > maxTensorName {
		return fmt.Sprintf("%.*s...", maxTensorName, s)
	}
	return s
}
