// Package toy is a tiny four-player grid game defined only through the
// core's definition (game.Def): the proof that a game needs nothing
// besides its rules and one definition file (def.go). It is registered in
// tests only; users never see it.
//
// # Rules
//
// The board has Rows x Cols cells; the generator (Rand, seeded with the
// game's seed) places Walls walls, then each player's Units units on free
// cells, in unit id order (unit id belongs to player id / Units). Every
// round each player commands some of its units to move one cell up,
// right, down or left (Game.Step says in which order the commands are
// taken and which are ignored). A unit moving onto an opponent's unit
// captures it: its player scores a capture, and the captured unit is put
// on a free cell the generator draws. Then every unit paints its cell in
// its player's colour. A player's score is the number of cells in its
// colour plus Capture points per capture. The game lasts NbRounds rounds.
//
// Abort: a command naming a unit id that does not exist aborts the game
// (ErrBadUnit, wrapping game.ErrAbort) before the round moves anything;
// the trace ends after the last state written. Commands in other
// directions are dropped by the player-side filter; commands for another
// player's unit, into a wall, off the board or onto one's own unit are
// ignored.
//
// # Files
//
// Config has a text form (Config.Text, ParseConfig) beginning "Toy 1";
// trace.go describes the trace (TraceWriter, ParseTrace); Verify checks a
// trace with or without the command log; Replay rebuilds its rounds for
// datasets; specFor and Observer are the observation; Demo and Greedy the
// bots besides the core's Null. The reference traces in
// testdata/toy/traces were written by this engine (there is no course
// engine of the toy).
package toy
