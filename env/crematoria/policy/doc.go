// Package policy runs exported Crematoria policies without Python: a
// pure-Go loader and interpreter for the ONNX files that
// python-client/examples/train_ppo.py writes, and a crematoria.Bot that
// plays with them.
//
// The interpreter implements exactly the operators such a network uses
// (Operators lists them; docs/export.md documents the graph) for float32,
// integer (held as int64) and bool tensors. Load refuses, at load time
// and with a clear error, a file with another operator (ErrUnsupported),
// trained on another observation layout than crematoria.ObservationVersion
// (ErrObservationVersion), or whose inputs and outputs are not those of a
// policy (ErrSignature); it also runs the network once on a zero
// observation so that shape errors surface there too.
//
// A tour:
//
//	m, err := policy.Load("crematoria_ppo.onnx")
//	f := policy.Factory(m) // a crematoria.BotFactory
//	bot := f(0, seed)      // plays seat 0
//
// The jgym command seats such a bot as "policy:PATH" (jgym match
// policy:model.onnx Demo Demo Demo -s 1), and so does the server.
//
// The bot encodes the observation of its seat with crematoria.Observer,
// takes for every unit it owns the argmax of the masked logits and issues
// the commands in slot order (increasing unit id), as the environment does
// with an action and no action order.
//
// DecodeGraph gives the file's graph as the decoder reads it (Graph, Node,
// Attribute, ValueInfo and the initializers as Tensors), unchecked and
// unfolded, for tools that translate the same files: the C++ exporter
// (env/crematoria/cppexport) reads the models with it.
package policy
