package pandemic

import (
	"math"
	"strconv"

	"jgym/cppbot"
	"jgym/game"
)

// The messages of Pandemic's runner protocol (kit/pandemic/runner.cc,
// docs/cpp-bots.md; package cppbot frames them). All messages are ASCII
// tokens separated by spaces and newlines.
//
// Engine to runner, once, with the map (which never changes):
//
//	init <me> <seed> <the 11 settings in configuration order>
//	cities <n>
//	<size> <i> <j> ...                  (one line per city, cells row-major)
//	paths <n>
//	<a> <b> <size> <i> <j> ...          (one line per path, cells in curve order)
//
// answered by "ready <name>". The two doubles are written in the shortest
// form that reads back as the same double. Then every round:
//
//	round <r>
//	<rows lines of cols cell characters, as in the trace: type and virus>
//	units <n>
//	<n lines: <player> <i> <j> <health> <damage> <turns> <immune> <mask>>
//	my_units <n0> <ids...> <n1> <ids...> <n2> <ids...> <n3> <ids...>
//	masks <m> <i> <j> ...               (in the engine's order)
//	city_owners <o> ...
//	path_owners <o> ...
//	scores <s0> <s1> <s2> <s3>
//	status 0 0 0 0
//	play
//
// answered by "commands <n> <id> <dir> ..." (the player's list after the
// kit's filter, SPEC §8.1: ids and directions as the player gave them).
// Any answer may instead be "error <kind> <text>". The engine closes the
// runner's input at the end of the game.

func appendInt(b []byte, x int) []byte { return strconv.AppendInt(b, int64(x), 10) }

func appendPosList(b []byte, cells []Pos) []byte {
	b = appendInt(b, len(cells))
	for _, p := range cells {
		b = append(b, ' ')
		b = appendInt(b, p.I)
		b = append(b, ' ')
		b = appendInt(b, p.J)
	}
	return b
}

// appendInit appends the init message of seat me: the settings of s's
// configuration and its map.
func appendInit(b []byte, me, seed int, s *State) []byte {
	cfg := s.Cfg
	b = append(b, "init "...)
	b = appendInt(b, me)
	b = append(b, ' ')
	b = appendInt(b, seed)
	for _, p := range cfg.intFields() {
		b = append(b, ' ')
		b = appendInt(b, *p)
	}
	for _, x := range [2]float64{cfg.InfectionFactor, cfg.MaskProtection} {
		b = append(b, ' ')
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	b = append(b, "\ncities "...)
	b = appendInt(b, len(s.Cities))
	b = append(b, '\n')
	for _, c := range s.Cities {
		b = appendPosList(b, c)
		b = append(b, '\n')
	}
	b = append(b, "paths "...)
	b = appendInt(b, len(s.Paths))
	b = append(b, '\n')
	for _, p := range s.Paths {
		b = appendInt(b, p.A)
		b = append(b, ' ')
		b = appendInt(b, p.B)
		b = append(b, ' ')
		b = appendPosList(b, p.Cells)
		b = append(b, '\n')
	}
	return b
}

func appendBool(b []byte, x bool) []byte {
	if x {
		return append(b, " 1"...)
	}
	return append(b, " 0"...)
}

func appendOwners(b []byte, label string, owners []int) []byte {
	b = append(b, label...)
	for _, o := range owners {
		b = append(b, ' ')
		b = appendInt(b, o)
	}
	return append(b, '\n')
}

// appendRound appends the round message: the state as the players see it
// at the start of the round (SPEC §7 step 4.1).
func appendRound(b []byte, s *State) []byte {
	b = append(b, "round "...)
	b = appendInt(b, s.Round)
	b = append(b, '\n')
	for idx, t := range s.Types {
		b = append(b, CellChar(t, int(s.Virus[idx])))
		if idx%s.Cols == s.Cols-1 {
			b = append(b, '\n')
		}
	}
	b = append(b, "units "...)
	b = appendInt(b, len(s.Units))
	b = append(b, '\n')
	for id := range s.Units {
		u := &s.Units[id]
		b = appendInt(b, u.Player)
		b = append(b, ' ')
		b = appendInt(b, u.Pos.I)
		b = append(b, ' ')
		b = appendInt(b, u.Pos.J)
		b = append(b, ' ')
		b = appendInt(b, u.Health)
		b = append(b, ' ')
		b = appendInt(b, u.Damage)
		b = append(b, ' ')
		b = appendInt(b, u.Turns)
		b = appendBool(b, u.Immune)
		b = appendBool(b, u.Mask)
		b = append(b, '\n')
	}
	b = append(b, "my_units"...)
	for _, ids := range s.PlayerUnits {
		b = append(b, ' ')
		b = appendInt(b, len(ids))
		for _, id := range ids {
			b = append(b, ' ')
			b = appendInt(b, id)
		}
	}
	b = append(b, "\nmasks "...)
	b = appendPosList(b, s.Masks)
	b = append(b, '\n')
	b = appendOwners(b, "city_owners", s.CityOwner)
	b = appendOwners(b, "path_owners", s.PathOwner)
	b = appendOwners(b, "scores", s.Scores[:])
	return append(b, "status 0 0 0 0\nplay\n"...)
}

// clampDir keeps a direction the player gave as a Dir: values beyond the
// range of Dir become its nearest end, which is as invalid as they are (the
// engine skips them, SPEC §8.2).
func clampDir(d int) Dir {
	return Dir(max(math.MinInt8, min(math.MaxInt8, d)))
}

// parseCommands parses "commands <n> <id> <dir> ..." into dst: at most
// game.MaxCommands commands, ids and directions any 32-bit integers (the kit's filter checks neither; directions beyond Dir's range are clamped, clampDir).
func parseCommands(line []byte, dst []Command) ([]Command, error) {
	return cppbot.ParseCommands(line, game.MaxCommands, 11, dst, func(id, d int) (Command, bool) {
		return Command{ID: id, Dir: clampDir(d)}, true
	})
}
