// Package policy runs exported policies of any jgym game without Python:
// a pure-Go loader and interpreter for the ONNX files that
// jgym.torch (python-client/examples/ppo.py) writes. It names no game: a game
// describes what its policies take and give with a Signature (its
// observation tensors, usually SignatureOf its env.Spec, and the number
// of actions per unit slot), and its package holds the bot that encodes a
// seat's observation, calls Model.Logits and turns the Argmax into orders
// (crematoria.PolicyBot).
//
// The interpreter implements exactly the operators such a network uses
// (Operators lists them; docs/export.md documents the graph) for float32,
// integer (held as int64) and bool tensors. Parse and Load refuse, at load
// time and with a clear error, a file with another operator
// (ErrUnsupported), trained on another observation layout than the
// signature's (ErrObservationVersion), whose inputs and outputs are not
// the signature's (ErrSignature), or that passes a bound on size or memory
// (ErrTooLarge: files come from strangers too); a forward pass on a zero
// observation checks every shape there, so no such error happens at play
// time.
//
// A tour:
//
//	m, err := policy.Load("crematoria_ppo.onnx", crematoria.Def.PolicySignature())
//	in := m.NewInputs()
//	logits, err := m.Logits(in, obs)             // obs: the seat's tensors, as the env writes them
//	best := policy.Argmax(logits, m.NumSlots, 11) // an action per unit slot
//
// DecodeGraph gives the file's graph as the decoder reads it (Graph, Node,
// Attribute, ValueInfo and the initializers as Tensors), unchecked and
// unfolded, for tools that translate the same files: the C++ exporter
// reads the models with it.
package policy
