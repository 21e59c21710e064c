package cppexport

import (
	"fmt"
	"slices"
	"strings"

	"jgym/env"
	"jgym/policy"
)

// Target is a game's side of an exported player: what its policies take
// (the Signature), the C++ that fills the network's inputs from the kit's
// State (the twin of the game's Go encoder), and the C++ that turns the
// logits into the kit's commands (the twin of the game's policy bot). The
// exporter writes the network between them. A game's package gives it
// (crematoria.CppTarget).
type Target struct {
	// Game names the game in the file's header ("Crematoria").
	Game string
	// Signature is the game's policy signature.
	Signature policy.Signature
	// Reserved are the names the kit's headers define: a player may not
	// be named after one.
	Reserved []string
	// Members names the C++ array member that holds each input
	// ("board": "in_board_"); inputs not listed are "in_<name>_".
	Members map[string]string
	// SlotsExpr is a C++ expression of the game's number of unit slots;
	// when it is not the network's U the player gives no orders.
	SlotsExpr string
	// Encoder is C++ code inside the player struct: member functions, one
	// of them "void encode()" that writes the observation of me() into the
	// input members. U is the network's number of unit slots.
	Encoder string
	// Act is C++ code inside play(), after the network ran: it gives the
	// orders from "logits" (const float*, U x Signature.Actions), in the
	// order policy.OrderSlot.
	Act string
	// ActOrders is the Act of each other order of the commands the game's
	// bot implements (Signature.ActionOrders), by the model's
	// action_order.
	ActOrders map[string]string
	// OptIn is, for each opt-in observation tensor the game's player can
	// compute (Signature.OptIn), C++ code inside the player struct:
	// member functions, one of them "void encode_<name>()" that writes the
	// tensor's input member for me(). Only a model that takes the tensor
	// gets the code and the call, which play() makes right after encode().
	OptIn map[string]string
	// Opponents is, for each order of the opponents in the observation
	// that the game's bot implements besides policy.OpponentsBySeat
	// (Signature.OpponentOrders), C++ code inside the player struct:
	// member functions, one of them "void order_opponents()", which play()
	// calls right after encode() for a model of that opponent_order to
	// rewrite the input members as the Go bot rewrites its tensors. A
	// model by seat has neither the code nor the call.
	Opponents map[string]string
}

// act returns the Act of the model's order of the commands.
func (t *Target) act(order string) (string, error) {
	if order == "" || order == policy.OrderSlot {
		return t.Act, nil
	}
	if a, ok := t.ActOrders[order]; ok {
		return a, nil
	}
	return "", fmt.Errorf("%w: %s players cannot issue the commands in the order %q", policy.ErrUnsupported, t.Game, order)
}

// opponents returns the C++ of the model's order of the opponents ("" for
// policy.OpponentsBySeat: encode() alone).
func (t *Target) opponents(order string) (string, error) {
	if order == "" || order == policy.OpponentsBySeat {
		return "", nil
	}
	if c, ok := t.Opponents[order]; ok {
		return c, nil
	}
	return "", fmt.Errorf("%w: %s players cannot order the opponents by %q", policy.ErrUnsupported, t.Game, order)
}

// optIn returns the target for a model: its opt-in inputs joined to the
// signature's inputs (their members declared), and their C++, in the
// model's order.
func (t *Target) optIn(m *policy.Model) (Target, []string, error) {
	out := *t
	var names []string
	for _, in := range m.Signature.Inputs {
		if !slices.ContainsFunc(t.Signature.OptIn, func(x policy.Input) bool { return x.Name == in.Name }) {
			continue
		}
		code, ok := t.OptIn[in.Name]
		if !ok {
			return out, nil, fmt.Errorf("%w: %s players cannot compute the opt-in tensor %q", policy.ErrUnsupported, t.Game, in.Name)
		}
		out.Signature.Inputs = append(slices.Clip(out.Signature.Inputs), in)
		out.Encoder += code
		names = append(names, in.Name)
	}
	return out, names, nil
}

// member returns the C++ member of an input.
func (t *Target) member(name string) string {
	if m, ok := t.Members[name]; ok {
		return m
	}
	return "in_" + sanitizeIdent(name) + "_"
}

// sanitizeIdent keeps the letters, digits and underscores of s.
func sanitizeIdent(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// inputShape is an input's shape with batch 1 and U slots.
func inputShape(in policy.Input, u int) []int {
	shape := []int{1}
	for _, d := range in.Shape {
		if d < 0 {
			d = u
		}
		shape = append(shape, d)
	}
	return shape
}

// inputCType is the C++ element type of an input member: the interpreter
// holds integers as int64 and bools as bytes.
func inputCType(d env.Dtype) string {
	switch d {
	case env.Float32:
		return "float"
	case env.Bool:
		return "unsigned char"
	}
	return "long long"
}

// inputTensor is a zero tensor of an input, as the interpreter takes it.
func inputTensor(in policy.Input, u int) (*policy.Tensor, error) {
	shape := inputShape(in, u)
	n := 1
	for _, d := range shape {
		n *= d
	}
	switch in.Dtype {
	case env.Float32:
		return policy.NewFloat32(shape, make([]float32, n)), nil
	case env.Bool:
		return policy.NewBool(shape, make([]bool, n)), nil
	case env.Uint8, env.Int8, env.Int16, env.Int32, env.Int64:
		return policy.NewInt64(shape, make([]int64, n)), nil
	}
	return nil, fmt.Errorf("input %q has dtype %s", in.Name, in.Dtype)
}

// ScoreOrderCC is C++ for a game's Target.Opponents entry of
// policy.OpponentsByScore: member functions that its order_opponents()
// calls, the twins of game.ScoreOrder and of game.Relabel's methods.
//
//   - opp_score_order(s, nr) sets nr[r], the new relative index of rel r,
//     ordering the opponents (rel 1..3) by decreasing score s[r], ties by
//     increasing rel (rel 0 stays 0), and returns whether any index moves.
//   - opp_code(nr, c, base) is code c relabelled when it is base + rel.
//   - opp_floats(nr, g) moves the four values g[0..3] of rel 0..3 to
//     g[nr[r]].
//
// A game's entry is ScoreOrderCC followed by its own order_opponents().
const ScoreOrderCC = `
  // ---------------------------------------------------------------------
  // Opponents by score (opponent_order "score", docs/observation.md): the
  // twins of game.ScoreOrder and game.Relabel.

  // opp_score_order sets nr[r], the new rel of rel r: the opponents, rel
  // 1..3, by decreasing score s[r], ties by increasing rel; rel 0 stays 0.
  // It returns whether any rel moves.
  static bool opp_score_order(const float* s, int nr[4]) {
    int order[3] = {1, 2, 3};
    for (int i = 1; i < 3; ++i)
      for (int j = i; j > 0 && s[order[j]] > s[order[j - 1]]; --j) {
        const int o = order[j];
        order[j] = order[j - 1];
        order[j - 1] = o;
      }
    nr[0] = 0;
    for (int k = 0; k < 3; ++k) nr[order[k]] = 1 + k;
    return nr[1] != 1 || nr[2] != 2 || nr[3] != 3;
  }

  // opp_code returns code c relabelled when it is base + rel, else c.
  static long long opp_code(const int nr[4], long long c, int base) {
    return c >= base && c < base + 4 ? base + nr[c - base] : c;
  }

  // opp_floats moves the value of rel r of the block g[0..3] to g[nr[r]].
  static void opp_floats(const int nr[4], float* g) {
    float v[4];
    for (int r = 0; r < 4; ++r) v[r] = g[r];
    for (int r = 0; r < 4; ++r) g[nr[r]] = v[r];
  }
`
