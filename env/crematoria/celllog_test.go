package crematoria

import (
	"bytes"
	"testing"

	"jgym/game"
)

// encodeAll returns seat me's full observation of s by ob.
func encodeAll(ob *Observer, s *State, me int) []byte {
	u := NumSlots(s.Cfg)
	sizes := []int{BoardBytes, u * UnitFeatures, 4 * NumGlobals, u * NumDirs, u * PathColumns, u * SunColumns}
	obs := make([][]byte, len(sizes))
	var all []byte
	for i, n := range sizes {
		obs[i] = make([]byte, n)
	}
	ob.Encode(s, me, obs)
	for _, t := range obs {
		all = append(all, t...)
	}
	return all
}

// TestCellLog checks that an Observer kept between calls (which redoes
// only the cells the engine logged) writes what a new Observer writes,
// through the ways a state changes: rounds, copies by value and
// restores, CopyFrom, and cells written outside the engine.
func TestCellLog(t *testing.T) {
	g := newTestGame(t, 11)
	s := &g.State
	var kept Observer
	check := func(what string) {
		t.Helper()
		var fresh Observer
		if got, want := encodeAll(&kept, s, 0), encodeAll(&fresh, s, 0); !bytes.Equal(got, want) {
			t.Fatalf("%s (round %d): the kept observer differs from a new one", what, s.Round)
		}
		// The cache's copy of the cells is the state's (a stale cache may
		// still write the same bytes when a changed unit code made it
		// redo every cell).
		if kept.cells.cells != s.Cells {
			t.Fatalf("%s (round %d): the kept observer's cells are not the state's", what, s.Round)
		}
	}
	check("start")
	for r := 0; r < 20; r++ {
		playRounds(t, g, 1)
		check("round")
	}
	// The log is used: a round logs its writes, and the kept observer's
	// log is the state's.
	followed, _ := kept.cells.log.Place()
	if l, _ := s.cellLogOf(); l == nil || followed != l {
		t.Fatal("the state's log is not valid, or the observer does not follow it")
	}
	// A copy by value, rounds on the game, the copy restored: the
	// restore's changes are in no log.
	snap := g.State
	playRounds(t, g, 3)
	check("rounds after a copy")
	g.State = snap
	check("restored copy")
	if l, _ := s.cellLogOf(); l != nil {
		t.Fatal("a restored copy's log is still valid")
	}
	playRounds(t, g, 2)
	check("rounds after a restore")
	// The same with a copy whose rounds are played on the original...
	var other State
	other.CopyFrom(s)
	playRounds(t, g, 2)
	check("rounds after CopyFrom")
	// ... and CopyFrom into the state the observer follows.
	s.CopyFrom(&other)
	check("CopyFrom into the state")
	// The same two with the units unchanged (a changed unit code makes
	// the cache redo every cell, which would hide a stale log): cells
	// written as the engine writes them, logged.
	edit := func(st *State) {
		for idx := LevelCells; idx < NumCells; idx++ {
			if c := &st.Cells[idx]; c.Type == Outside && c.ID < 0 && idx%7 == 0 {
				st.noteCell(idx)
				c.Gem = !c.Gem
			}
		}
	}
	snap = g.State
	edit(s)
	check("logged edits")
	g.State = snap
	check("restored copy, units unchanged")
	edit(s) // the log valid again
	check("logged edits after a restore")
	other.CopyFrom(s)
	edit(&other)
	s.CopyFrom(&other)
	check("CopyFrom into the state, units unchanged")
	playRounds(t, g, 1)
	check("round after CopyFrom")
	// Cells written outside the engine.
	for idx := 0; idx < LevelCells; idx++ {
		if c := &s.Cells[idx]; c.Type == Cave && c.ID < 0 {
			c.Owner = int8((int(c.Owner) + 2) % NumPlayers)
		}
	}
	s.CellsChanged()
	check("cells edited")
	// Another observer interleaved on another seat and a copy.
	var ob2 Observer
	for r := 0; r < 5; r++ {
		playRounds(t, g, 1)
		encodeAll(&kept, &other, 0)
		encodeAll(&ob2, s, 1)
		check("interleaved")
	}
}

// TestCellLogWrap checks that the log's ring holds the writes it counts:
// more writes than it holds between two calls make the observer compare
// every cell.
func TestCellLogWrap(t *testing.T) {
	g := newTestGame(t, 12)
	s := &g.State
	var kept Observer
	encodeAll(&kept, s, 2)
	playRounds(t, g, 30)
	_, at := kept.cells.log.Place()
	if l, seq := s.cellLogOf(); l == nil || seq-at <= game.CellLogSize {
		t.Fatal("30 rounds did not fill the log: the test shows nothing")
	}
	var fresh Observer
	if !bytes.Equal(encodeAll(&kept, s, 2), encodeAll(&fresh, s, 2)) {
		t.Fatal("after a full log, the kept observer differs from a new one")
	}
}
