package course

import (
	"fmt"
	"strings"
)

// Divergence is the first place where a trace departs from what the engine
// does (replayed with its players' commands) or from what the rules allow
// (without them). Want is what the verifier expected there, Got what the
// trace holds.
type Divergence struct {
	Round int    // the round of the block that diverges; -1 for the header
	Unit  int    // unit id, or -1
	Field string // e.g. "health", "pos", "grid (3, 4)", "nb_cells", "movement"
	Want  string
	Got   string
	Line  int // line of the trace (1-based), 0 if unknown
}

func (d *Divergence) Error() string {
	var b strings.Builder
	if d.Round < 0 {
		b.WriteString("header")
	} else {
		fmt.Fprintf(&b, "round %d", d.Round)
	}
	if d.Unit >= 0 {
		fmt.Fprintf(&b, ", unit %d", d.Unit)
	}
	fmt.Fprintf(&b, ", %s: want %s, got %s", d.Field, d.Want, d.Got)
	if d.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", d.Line)
	}
	return b.String()
}

// DiffMoves compares a block of moves of a trace, got, with the engine's,
// want, line by line, and returns the first line that differs as a
// Divergence of the round in field ("movement"), or nil. firstLine is the
// line of the block's first move; unit gives a move's unit, text how its
// line reads. A move missing on either side shows as the block's "-1".
func DiffMoves[M comparable](round int, field string, firstLine int, want, got []M, unit func(M) int, text func(M) string) *Divergence {
	const end = `"-1" (end of the block)`
	for i := 0; i < len(want) || i < len(got); i++ {
		d := &Divergence{Round: round, Unit: -1, Field: field, Line: firstLine + i}
		switch {
		case i >= len(got):
			d.Unit, d.Want, d.Got = unit(want[i]), text(want[i]), end
		case i >= len(want):
			d.Unit, d.Want, d.Got = unit(got[i]), end, text(got[i])
		case want[i] != got[i]:
			d.Unit, d.Want, d.Got = unit(got[i]), text(want[i]), text(got[i])
		default:
			continue
		}
		return d
	}
	return nil
}
