// Package course holds what the games of the EDA course engine share
// beneath their rules, so that each game package (env/crematoria,
// env/dominator, env/pandemic, env/moria) supplies only what its rule sheet
// says:
//
//   - [Rand], the engine's random generator (every SPEC's §1): the same
//     31-bit linear congruential generator in every game, with the two
//     permutations the kits draw ([Rand.Perm] with n-1 draws, Crematoria and
//     Moria; [Rand.FullPerm] with n draws, Dominator and Pandemic) and
//     [LazyPerm], which pays only for the entries a caller reads.
//   - [TraceReader], the line reader of the engine's .res traces: strict
//     lines, canonical integers, errors that say where ([ParseError]), and
//     [ReadMoves] for the blocks of moves between two states.
//   - [Divergence], where a trace departs from what the engine does or from
//     what the rules allow, as every game's verifier reports it, and
//     [DiffMoves], which finds it in a block of moves.
//
// It imports only the standard library and names no game.
//
// # A tour
//
//	r := course.NewRand(seed)        // the board generator of a game
//	x := r.Int(0, 99)                // R(0, 99): two steps
//	order := r.PermInto(buf[:n])     // P(n) of Crematoria and Moria
//
//	tr, err := course.NewTraceReader(file, 4096) // plain or gzip
//	err = tr.Literal("Game")
//	seed, err := tr.IntAfter("Seed ")
package course
