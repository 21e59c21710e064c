package moria

import (
	"strconv"

	"jgym/cppbot"
	"jgym/game"
)

// The messages of Moria's runner protocol (kit/moria/runner.cc,
// docs/cpp-bots.md; package cppbot frames them). All messages are ASCII
// tokens separated by spaces and newlines.
//
// Engine to runner, once:
//
//	init <me> <seed> <the 10 settings in configuration order>
//
// answered by "ready <name>". The seed is the game seed as the kit's int
// (its low 32 bits); the runner seeds the player's generator with
// seed + me + 1 (SPEC §1.5). Then every round:
//
//	round <r> <nunits>
//	<60 lines of 60 cell characters, as in the trace (SPEC §10.2)>
//	<nunits lines: <d|w|o|t|b> <player> <i> <j> <health>, as in the trace>
//	occupied <m> <cell> <id> ...         (cell = i*60 + j)
//	dwarves <n0> <ids...> <n1> <ids...> <n2> <ids...> <n3> <ids...>
//	wizards <n0> <ids...> ... <n3> <ids...>
//	orcs <n> <ids...>
//	trolls <n> <ids...>
//	balrog <id>
//	cells <c0> <c1> <c2> <c3>
//	treasures <t0> <t1> <t2> <t3>
//	status 0 0 0 0
//	play
//
// answered by "commands <n> <id> <dir> ..." (after the kit's filter,
// SPEC §8.1). Any answer may instead be "error <kind> <text>". The engine
// closes the runner's input at the end of the game.
//
// The grid characters carry everything of a cell but its unit (a cave
// with a treasure never has an owner, and only rocks have hits left); the
// occupied list gives the unit id of every cell that holds one, stale
// troll ids included (SPEC §8.11), as the kit's cell().id shows them.

// appendInit appends the init message.
func appendInit(b []byte, me, seed int, cfg *Config) []byte {
	b = append(b, "init "...)
	b = strconv.AppendInt(b, int64(me), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(int32(seed)), 10)
	for _, v := range cfg.Values() {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, '\n')
}

// appendRound appends the round message: the whole state as the player
// sees it at the start of the round (SPEC §7).
func appendRound(b []byte, s *State) []byte {
	res := s.Cfg.RockResistance
	b = append(b, "round "...)
	b = strconv.AppendInt(b, int64(s.Round), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(s.Units)), 10)
	b = append(b, '\n')
	n := 0
	for idx := range s.Cells {
		c := &s.Cells[idx]
		b = append(b, CellChar(c, res))
		if idx%Cols == Cols-1 {
			b = append(b, '\n')
		}
		if c.ID >= 0 {
			n++
		}
	}
	for id := range s.Units {
		b = AppendUnit(b, &s.Units[id])
		b = append(b, '\n')
	}
	b = append(b, "occupied "...)
	b = strconv.AppendInt(b, int64(n), 10)
	for idx := range s.Cells {
		if id := s.Cells[idx].ID; id >= 0 {
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(idx), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(id), 10)
		}
	}
	b = append(b, "\ndwarves"...)
	for p := range s.Dwarves {
		b = cppbot.AppendList(b, s.Dwarves[p])
	}
	b = append(b, "\nwizards"...)
	for p := range s.Wizards {
		b = cppbot.AppendList(b, s.Wizards[p])
	}
	b = append(b, "\norcs"...)
	b = cppbot.AppendList(b, s.Orcs)
	b = append(b, "\ntrolls"...)
	b = cppbot.AppendList(b, s.Trolls)
	b = append(b, "\nbalrog "...)
	b = strconv.AppendInt(b, int64(s.BalrogID), 10)
	b = append(b, '\n')
	b = cppbot.AppendInts(b, "cells", s.NbCells[:])
	b = cppbot.AppendInts(b, "treasures", s.NbTreasures[:])
	return append(b, "status 0 0 0 0\nplay\n"...)
}

// parseCommands parses "commands <n> <id> <dir> ..." into dst: at most
// game.MaxCommands commands, ids and directions 32-bit integers, directions 0..8.
func parseCommands(line []byte, dst []Command) ([]Command, error) {
	return cppbot.ParseCommands(line, game.MaxCommands, 11, dst, func(id, d int) (Command, bool) {
		return Command{ID: id, Dir: Dir(d)}, d >= 0 && d <= int(None)
	})
}
