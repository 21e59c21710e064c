// Package arena is the command line's game machinery, for every game: a
// game supplies an adapter (Game: its configurations, its bots, playing
// one game with its trace, checking a trace) and arena plays batches of
// games on a pool of goroutines and measures the players.
//
// A batch seats resolved players (registered bots, or "policy:REF" and
// "cpp:REF" files that a Loader loads) by a schedule of Seatings; each
// Result is stored at its game's index, so the results do not depend on
// the number of workers:
//
//	b, err := arena.NewBatch(game, game.DefaultConfig(), []string{"Riddick", "Demo", "Demo", "Demo"}, loader)
//	if err != nil { ... }
//	defer b.Close()
//	b.Workers = 4
//	results, err := b.Play(ctx, arena.EvalSchedule(200, 1))
//	var rep arena.EvalReport
//	rep.Summarize(results) // win rate, scores and ranks with 95% intervals
//
// TournamentSchedule and RateTournament rate a pool of players with
// TrueSkill. arena names no game; the games' packages provide their
// adapters (crematoria.Arena).
package arena
