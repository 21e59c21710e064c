// Package cppbot lets C++ bots written for a game's course kit take a seat
// in jgym games. It names no game: a game gives its Kit (the player API
// headers and the runner of kit/<game>, package kit) and an adapter that
// speaks its messages: a Protocol driven by a Bot (crematoria.CppBot).
//
// A bot is one AI<Name>.cc file written against the kit's player API, or
// a prebuilt object AI<Name>.o compiled against the course kit. Compile
// builds it, with g++ -std=c++11 -O2, together with the game's kit into an
// executable, cached under $XDG_CACHE_HOME/jgym/cpp by the content hash of
// the sources and the compiler version. The compiler runs in the sandbox
// (package sandbox) with only the kit's headers on the include path; a
// bot is a regular file of bounded size.
//
// A Program is a compiled bot; each game seat gets its own Process, which
// runs in the sandbox for the whole game (the player object lives the
// whole game, as in the kit). The game's adapter sends the init message
// (Ready) and every round's state (Ask), and parses the answers; the
// protocol is described in docs/cpp-bots.md.
//
// Failures are contained: a crash, a hang (no answer within
// Options.RoundTimeout), garbage output, a limit of the sandbox or an
// error the runner reports kill the process and make Err report a
// *BotError naming the bot and the round; the game ends that game only.
// Close kills the whole sandbox; Program.Close closes every Process of the
// program. A ProcessLimit caps the processes a server runs at once.
//
// Where the sandbox gives each bot a control group, its limits count all
// its processes together (memory with its /tmp, one CPU budget), and the
// bot runs only during its turns: it starts frozen and is frozen again
// once it has answered. Its executable is shared read-only by all its
// processes and capped (Options.MaxExecutableBytes).
// Options.RequireCounted refuses bots where there is no such group.
//
//	k, _ := crematoria.Def.CppKit()
//	prog, err := cppbot.Open("AIMine.cc", k, cppbot.Options{})
//	bot := crematoria.Def.NewCppBot(prog, 0, seed) // a crematoria.Bot
package cppbot
