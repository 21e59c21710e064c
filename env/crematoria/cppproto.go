package crematoria

import (
	"strconv"

	"jgym/cppbot"
	"jgym/game"
)

// The messages of Crematoria's runner protocol (kit/crematoria/runner.cc,
// docs/cpp-bots.md; package cppbot frames them). All messages are ASCII
// tokens separated by spaces and newlines.
//
// Engine to runner, once:
//
//	init <me> <seed> <the 11 settings in configuration order>
//
// answered by "ready <name>". Then every round:
//
//	round <r> <nunits>
//	<80 lines of 80 cell characters: level 0 rows 0..39, then level 1>
//	<nunits lines: <p|f|n|h> <player> <health> <turns> <i> <j> <k>>
//	occupied <m> <cell> <id> ...         (cell = k*3200 + i*80 + j)
//	furyans <n0> <ids...> <n1> <ids...> <n2> <ids...> <n3> <ids...>
//	pioneers <n0> <ids...> ... <n3> <ids...>
//	necromongers <n> <ids...>
//	hellhounds <n> <ids...>
//	cells <c0> <c1> <c2> <c3>
//	gems <g0> <g1> <g2> <g3>
//	status 0 0 0 0
//	play
//
// answered by "commands <n> <id> <dir> ..." (after the kit's filter,
// SPEC §8.1). Any answer may instead be "error <kind> <text>". The engine
// closes the runner's input at the end of the game.

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

// appendRound appends the round message: the whole state as the player
// sees it at the start of the round (SPEC §7.4.1).
func appendRound(b []byte, s *State) []byte {
	b = append(b, "round "...)
	b = strconv.AppendInt(b, int64(s.Round), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(s.Units)), 10)
	b = append(b, '\n')
	for idx := range s.Cells {
		b = append(b, cellChar(&s.Cells[idx], idx)) // the trace characters (SPEC §10.4)
		if idx%Cols == Cols-1 {
			b = append(b, '\n')
		}
	}
	for id := range s.Units {
		b = AppendUnit(b, &s.Units[id])
		b = append(b, '\n')
	}
	n := 0
	for idx := range s.Cells {
		if s.Cells[idx].ID >= 0 {
			n++
		}
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
	b = append(b, "\nfuryans"...)
	for g := range s.Furyans {
		b = cppbot.AppendList(b, s.Furyans[g])
	}
	b = append(b, "\npioneers"...)
	for g := range s.Pioneers {
		b = cppbot.AppendList(b, s.Pioneers[g])
	}
	b = append(b, "\nnecromongers"...)
	b = cppbot.AppendList(b, s.Necromongers)
	b = append(b, "\nhellhounds"...)
	b = cppbot.AppendList(b, s.Hellhounds)
	b = append(b, '\n')
	b = cppbot.AppendInts(b, "cells", s.NbCells[:])
	b = cppbot.AppendInts(b, "gems", s.NbGems[:])
	return append(b, "status 0 0 0 0\nplay\n"...)
}

// parseCommands parses "commands <n> <id> <dir> ..." into dst: at most
// game.MaxCommands commands, numbers of at most 9 characters, directions
// 0..10.
func parseCommands(line []byte, dst []Command) ([]Command, error) {
	return cppbot.ParseCommands(line, game.MaxCommands, 9, dst, func(id, d int) (Command, bool) {
		return Command{ID: id, Dir: Dir(d)}, d >= 0 && d <= int(None)
	})
}
