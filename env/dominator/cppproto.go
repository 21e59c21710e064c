package dominator

import (
	"strconv"

	"jgym/cppbot"
	"jgym/game"
)

// The messages of Dominator's runner protocol (kit/dominator/runner.cc,
// docs/cpp-bots.md; package cppbot frames them). All messages are ASCII
// tokens separated by spaces and newlines.
//
// Engine to runner, once:
//
//	init <me> <seed> <the 13 settings in configuration order>
//
// answered by "ready <name>". Then every round, the player's rotated view
// of the state (SPEC §3.4, State.View):
//
//	round <r> <nunits>
//	<rows lines of cols cells: X wall, . no owner, 0-3 the owner>
//	<nunits lines: <f|k|w> <player> <i> <j> <health> <active>>
//	occupied <m> <cell> <id> ...         (cell = i*cols + j)
//	haunted <m> <cell> ...
//	land <l0> <l1> <l2> <l3>
//	total_score <t0> <t1> <t2> <t3>
//	farmers <n0> <ids...> <n1> <ids...> <n2> <ids...> <n3> <ids...>
//	knights <n0> <ids...> ... <n3> <ids...>
//	witches <n0> <ids...> ... <n3> <ids...>
//	status 0 0 0 0
//	play
//
// answered by "commands <n> <id> <dir> ..." (after the kit's filter,
// SPEC §8.1: ids and directions as the player gave them). Any answer may
// instead be "error <kind> <text>". The engine closes the runner's input
// at the end of the game.

// appendInit appends the init message.
func appendInit(b []byte, me, seed int, cfg *Config) []byte {
	b = append(b, "init "...)
	b = strconv.AppendInt(b, int64(me), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(seed), 10)
	for _, v := range cfg.Values() {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, '\n')
}

// appendLists appends a label and four id lists, each with its length.
func appendLists(b []byte, label string, lists *[NumPlayers][]int) []byte {
	b = append(b, label...)
	for _, v := range lists {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(len(v)), 10)
		for _, x := range v {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(x), 10)
		}
	}
	return append(b, '\n')
}

// appendRound appends the round message of a player's view v (State.View):
// the whole state as the player sees it at the start of the round.
func appendRound(b []byte, v *State) []byte {
	cols := v.Cfg.Cols
	b = append(b, "round "...)
	b = strconv.AppendInt(b, int64(v.Round), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(v.Units)), 10)
	b = append(b, '\n')
	occupied, haunted := 0, 0
	for idx := range v.Grid {
		c := &v.Grid[idx]
		b = append(b, CellChar(c)) // the trace characters (SPEC §10.4)
		if idx%cols == cols-1 {
			b = append(b, '\n')
		}
		if c.ID >= 0 {
			occupied++
		}
		if c.Haunted {
			haunted++
		}
	}
	for id := range v.Units {
		u := &v.Units[id]
		b = AppendUnit(b, u) // <f|k|w> player i j health
		if u.Active {
			b = append(b, " 1\n"...)
		} else {
			b = append(b, " 0\n"...)
		}
	}
	b = append(b, "occupied "...)
	b = strconv.AppendInt(b, int64(occupied), 10)
	for idx := range v.Grid {
		if id := v.Grid[idx].ID; id >= 0 {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(idx), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(id), 10)
		}
	}
	b = append(b, "\nhaunted "...)
	b = strconv.AppendInt(b, int64(haunted), 10)
	for idx := range v.Grid {
		if v.Grid[idx].Haunted {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(idx), 10)
		}
	}
	b = append(b, '\n')
	b = appendInts(b, "land", &v.Land)
	b = appendInts(b, "total_score", &v.TotalScore)
	b = appendLists(b, "farmers", &v.Farmers)
	b = appendLists(b, "knights", &v.Knights)
	b = appendLists(b, "witches", &v.Witches)
	return append(b, "status 0 0 0 0\nplay\n"...)
}

// parseCommands parses "commands <n> <id> <dir> ..." into dst: at most
// game.MaxCommands commands, ids and directions any 32-bit integers, as a player may pass them.
func parseCommands(line []byte, dst []Command) ([]Command, error) {
	return cppbot.ParseCommands(line, game.MaxCommands, 11, dst, func(id, d int) (Command, bool) {
		return Command{ID: id, Dir: Dir(d)}, true
	})
}
