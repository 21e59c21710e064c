package game

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// Copy returns a copy of the match at its round that plays on as the
// original would: its engine (random generator included) and, with bots
// nil, its bots (their memories and generators) are copied in process,
// so that the copy given the same orders gives the same rounds, scores
// and trace bytes as the original. With bots not nil, the copy seats
// those bots instead (a search's own, for its rollouts; a nil one gives
// no orders) and the original's are not copied. Nothing is shared with
// the original: both may be played at once by two goroutines.
//
// The copy records its commands when the original does (it holds the
// original's record so far, so it can be saved) and writes no trace
// (WriteTraceFrom starts one). It costs microseconds where Clone, a
// replay of the recorded rounds, costs milliseconds (notebook
// states.md). An engine or bot holding what cannot be copied in process
// (a C++ bot, a channel, a C library's memory) gives an error wrapping
// ErrUnsaved.
func (m *Match[C, G, S, D]) Copy(bots *[NumSeats]Bot[S, D]) (*Match[C, G, S, D], error) {
	if m.err != nil {
		return nil, fmt.Errorf("%w: the game ended with an error", ErrUnsaved)
	}
	if bots == nil {
		for p, b := range m.Bots {
			if _, ok := b.(Unsaved); ok {
				return nil, fmt.Errorf("%w: player %d (%s) is a bot whose state cannot be copied", ErrUnsaved, p, m.Names[p])
			}
		}
	}
	c := new(Match[C, G, S, D])
	keep := []field{fieldOf(&m.def), fieldOf(&m.trace), fieldOf(&m.log), fieldOf(&m.err)}
	for p := range m.orders {
		keep = append(keep, fieldOf(&m.orders[p].rules))
	}
	if bots != nil {
		keep = append(keep, fieldOf(&m.Bots))
	}
	// The game's definition is shared (a policy bot points to it).
	shared := []block{{ptr: unsafe.Pointer(m.def), typ: reflect.TypeFor[Def[C, G, S, D]](), count: 1}}
	if err := deepCopy(reflect.TypeFor[Match[C, G, S, D]](), unsafe.Pointer(m), unsafe.Pointer(c), shared, keep...); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnsaved, err)
	}
	c.trace = nil
	if bots != nil {
		c.Bots = *bots
	}
	if m.log != nil {
		// Recorded lists are never written again (CommandLog.Record
		// copies them): the copy shares them; appends of either go to
		// memory of its own.
		c.log = &CommandLog[D]{First: m.log.First, Rounds: slices.Clip(m.log.Rounds), Present: slices.Clip(m.log.Present)}
	}
	return c, nil
}

// fieldOf is the field at p.
func fieldOf[T any](p *T) field { return field{unsafe.Pointer(p), reflect.TypeFor[T]()} }
