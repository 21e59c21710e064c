// Package cppbot lets C++ bots written for the course kit of Crematoria
// take a seat in jgym games.
//
// A bot is one AI<Name>.cc file written against the kit's player API
// (SPEC §11), or a prebuilt object AI<Name>.o compiled against the course
// kit. Compile builds it, with g++ -std=c++11 -O2, together with jgym's own
// implementation of the kit headers and a runner (kit/crematoria in the
// repository, embedded in this package) into an executable, cached under
// $XDG_CACHE_HOME/jgym/cpp by the content hash of the sources and the
// compiler version. The headers reproduce the memory layout of the course
// kit (SPEC §11.9), so a prebuilt object links and reads its state as it
// does in the course program.
//
// A Program is a compiled bot; each game seat gets its own Bot, which runs
// one process for the whole game (the player object lives the whole game,
// as in the kit). Every round the Bot sends the state to the process and
// reads back the commands; the protocol is described in docs/cpp-bots.md.
//
// Failures are contained: a crash, a hang (no answer within
// Options.RoundTimeout), garbage output or more than 1000 commands in a
// round kill the process and make the Bot give no orders and report a
// *BotError from Err, naming the bot and the round. crematoria.Match checks
// Err after every Play (crematoria.BotErr) and ends that game only. Close
// kills the process group; Program.Close closes every Bot of the program.
//
// The files under kit/ are a copy of the repository's kit/crematoria, since
// go:embed cannot reach outside the package: after changing the kit, run
// go generate ./env/crematoria/cppbot (a test checks that they match).
package cppbot
