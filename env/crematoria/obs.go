package crematoria

import (
	"encoding/binary"
	"fmt"
	"math"

	"jgym/env"
)

// ObservationVersion names the observation and action layout that the
// encoder below writes; docs/observation.md defines it. crematoria-obs-3
// is crematoria-obs-2's five tensors and the sun_paths tensor
// (sunpaths.go); crematoria-obs-2 is crematoria-obs-1's four tensors and
// the paths tensor (paths.go). Policies trained on the older versions
// still play (PolicySignature).
const ObservationVersion = "crematoria-obs-3"

// ObservationVersion2 is the second layout: board, units, globals,
// action_mask, paths.
const ObservationVersion2 = "crematoria-obs-2"

// ObservationVersion1 is the first layout: board, units, globals,
// action_mask.
const ObservationVersion1 = "crematoria-obs-1"

// Sizes of the observation tensors of one seat (docs/observation.md).
const (
	// BoardPlanes is the number of planes of the board tensor: level 0,
	// level 1, flags.
	BoardPlanes = 3
	// BoardBytes is the size of the board tensor.
	BoardBytes = BoardPlanes * LevelCells
	// UnitFeatures is the number of columns of the units tensor.
	UnitFeatures = 8
	// NumGlobals is the length of the globals tensor (float32).
	NumGlobals = 16
	// NumDirs is the number of directions of a unit slot's action.
	NumDirs = int(DirSize)
)

// Cell codes of the board planes 0 and 1: terrain in bits 0-2, the unit
// standing on the cell in bits 3-6.
const (
	codeRock          = 0 // level 0
	codeCave          = 1 // level 0, unowned
	codeElevator      = 2 // both levels
	codeOwnedCave     = 3 // level 0: + relative owner
	codeOutside       = 0 // level 1
	codeGem           = 1 // level 1
	unitPioneer       = 1 // + relative owner
	unitFuryan        = 5 // + relative owner
	unitHellhound     = 9
	unitNecromonger   = 10
	flagDaylight      = 1
	flagBurns         = 2
	flagNightStarts   = 4
	flagDescending    = 8
	flagLands         = 16
	flagNearHellhound = 32
	flagHellhound3    = 64
)

// NumSlots returns the number of unit slots U of a configuration: the ids
// of all Pioneers and Furyans.
func NumSlots(cfg *Config) int { return NumPlayers * (cfg.NbFuryans + cfg.NbPioneers) }

// rel returns the relative index of group g seen by group me.
func rel(g, me int) uint8 { return uint8((g - me + NumPlayers) % NumPlayers) }

// Observer encodes the egocentric observation of one seat
// (crematoria-obs-3) into caller-owned buffers. Its zero value is ready
// to use; it keeps scratch space between calls and is not safe for
// concurrent use.
type Observer struct {
	code  []uint8     // unit code by id, for the current observer
	paths *pathSearch // the searches of Paths
	sun   *sunSearch  // the searches of SunPaths
	cells *cellCache  // what Encode derived from the cells
}

func (ob *Observer) unitCodes(s *State, me int) []uint8 {
	if cap(ob.code) < len(s.Units) {
		ob.code = make([]uint8, len(s.Units))
	}
	c := ob.code[:len(s.Units)]
	for id := range s.Units {
		u := &s.Units[id]
		switch u.Type {
		case Pioneer:
			c[id] = unitPioneer + rel(u.Player, me)
		case Furyan:
			c[id] = unitFuryan + rel(u.Player, me)
		case Hellhound:
			c[id] = unitHellhound
		default:
			c[id] = unitNecromonger
		}
	}
	return c
}

// terrainLUTs returns the terrain codes seen by seat me by cell type and
// owner+1 (level 0), by type and gem (level 1): a table lookup per cell
// instead of a branch.
func terrainLUTs(me int) (lut0 [4][8]uint8, lut1 [4][2]uint8) {
	lut0[Cave][0] = codeCave
	for g := 0; g < NumPlayers; g++ {
		lut0[Cave][g+1] = codeOwnedCave + rel(g, me)
	}
	for o := range lut0[Elevator] {
		lut0[Elevator][o] = codeElevator
	}
	lut1[Outside] = [2]uint8{codeOutside, codeGem}
	lut1[Elevator] = [2]uint8{codeElevator, codeElevator}
	lut1[Cave] = [2]uint8{codeOutside, codeGem}
	lut1[Rock] = [2]uint8{codeOutside, codeGem}
	return lut0, lut1
}

// Board writes the board tensor, uint8 [3, 40, 80], seen by seat me into
// dst (len BoardBytes).
func (ob *Observer) Board(s *State, me int, dst []byte) {
	dst = dst[:BoardBytes]
	levelPlanes(s, me, ob.unitCodes(s, me), dst[:2*LevelCells])
	boardFlags(s, dst[2*LevelCells:])
}

// levelPlanes writes the board's two level planes seen by seat me into
// dst (len 2*LevelCells): each cell's terrain code, and its unit's code
// (codes, by unit id) shifted by 3.
func levelPlanes(s *State, me int, codes []uint8, dst []byte) {
	lut0, lut1 := terrainLUTs(me)
	level0 := dst[:LevelCells:LevelCells]
	for idx := range level0 {
		c := &s.Cells[idx]
		t := lut0[c.Type&3][uint8(c.Owner+1)&7]
		if c.ID >= 0 {
			t |= codes[c.ID] << 3
		}
		level0[idx] = t
	}
	level1 := dst[LevelCells : 2*LevelCells : 2*LevelCells]
	for idx := range level1 {
		c := &s.Cells[LevelCells+idx]
		t := lut1[c.Type&3][b2u(c.Gem)]
		if c.ID >= 0 {
			t |= codes[c.ID] << 3
		}
		level1[idx] = t
	}
}

// boardFlags writes the board's flags plane.
func boardFlags(s *State, flags []byte) {
	var col [Cols]uint8
	t1 := NightStart(s.Round)
	for j := range col {
		// Daylight: the columns outside the 40 from t1 (mod Cols).
		if (j-t1+Cols)%Cols >= Cols/2 {
			col[j] = flagDaylight
		}
	}
	n1 := (t1 + 40) % Cols
	col[t1] |= flagBurns
	col[(t1+1)%Cols] |= flagBurns
	col[n1] |= flagNightStarts
	col[(n1+1)%Cols] |= flagNightStarts
	for i := 0; i < Rows; i++ {
		copy(flags[i*Cols:(i+1)*Cols], col[:])
	}
	for _, id := range s.Necromongers {
		u := &s.Units[id]
		if u.Turns <= 0 || u.Health <= 0 || !u.Pos.OnBoard() {
			continue
		}
		f := uint8(flagDescending)
		if u.Turns == 1 {
			f |= flagLands
		}
		flags[u.Pos.I*Cols+u.Pos.J] |= f
	}
	for _, id := range s.Hellhounds {
		p := s.Units[id].Pos
		if !p.OnBoard() {
			continue
		}
		stampSquare(flags, p, 3, flagHellhound3)
		stampSquare(flags, p, 1, flagNearHellhound)
	}
}

// stampSquare ors f into the cells of a level plane within Chebyshev
// distance r of p (rows clipped, columns wrapped).
func stampSquare(plane []byte, p Pos, r int, f uint8) {
	for i := max(p.I-r, 0); i <= min(p.I+r, Rows-1); i++ {
		row := plane[i*Cols : (i+1)*Cols]
		j := p.J - r
		if j < 0 {
			j += Cols
		}
		for range 2*r + 1 {
			row[j] |= f
			if j++; j == Cols {
				j = 0
			}
		}
	}
}

// Units writes the units tensor, uint8 [U, 8], seen by seat me into dst
// (len U*UnitFeatures).
func (ob *Observer) Units(s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*UnitFeatures]
	for id := 0; id < n; id++ {
		u := &s.Units[id]
		row := dst[id*UnitFeatures : (id+1)*UnitFeatures]
		r := rel(u.Player, me)
		row[0] = b2u(r == 0)
		row[1] = r
		row[2] = b2u(u.Type == Furyan)
		h := u.Health
		if h < 0 {
			h = 0
		}
		row[3] = uint8(h)
		if u.Pos.OnBoard() {
			row[4], row[5], row[6] = uint8(u.Pos.I), uint8(u.Pos.J), uint8(u.Pos.K)
			row[7] = b2u(s.Cells[u.Pos.Index()].Type == Elevator)
		} else {
			row[4], row[5], row[6], row[7] = 0, 0, 0, 0
		}
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// Globals writes the globals tensor, float32 [16] little-endian, seen by
// seat me into dst (len 4*NumGlobals).
func (ob *Observer) Globals(s *State, me int, dst []byte) {
	var v [NumGlobals]float32
	nr := float32(s.Cfg.NbRounds)
	v[0] = float32(s.Round) / nr
	v[1] = float32(s.Cfg.NbRounds-s.Round) / nr
	v[2] = float32(NightStart(s.Round)) / Cols
	for g := 0; g < NumPlayers; g++ {
		r := rel(g, me)
		v[3+r] = float32(s.Score(g)) / 1000
		v[7+r] = float32(s.NbCells[g]) / 1000
		v[11+r] = float32(s.NbGems[g]) / 10
	}
	v[15] = float32(len(s.Necromongers)) / float32(s.Cfg.MaxNecros)
	dst = dst[:4*NumGlobals]
	for i, x := range v {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(x))
	}
}

// Mask writes the action mask, bool [U, 11], of seat me into dst (len
// U*NumDirs): direction d is legal for slot id when the engine accepts the
// move from the observed state (docs/observation.md, "action_mask").
func (ob *Observer) Mask(s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*NumDirs]
	for id := 0; id < n; id++ {
		row := dst[id*NumDirs : (id+1)*NumDirs]
		u := &s.Units[id]
		if u.Player != me || u.Health <= 0 || !u.Pos.OnBoard() {
			clear(row[:None])
			row[None] = 1
			continue
		}
		maskRow(s, u, row)
	}
}

// maskRow writes the mask row of a live unit u on the board: CanMove for
// each direction, with u's cell read once and the targets' cells found
// from offsets.
func maskRow(s *State, u *Unit, row []byte) {
	row = row[:NumDirs]
	p := u.Pos
	level := s.Cells[p.K*LevelCells : (p.K+1)*LevelCells]
	for d := Bottom; d < Up; d++ {
		i, j := p.I+dirDI[d], p.J+dirDJ[d]
		if i < 0 || i >= Rows {
			row[d] = 0
			continue
		}
		if j < 0 {
			j += Cols
		} else if j >= Cols {
			j -= Cols
		}
		row[d] = b2u(canEnter(s, u, &level[i*Cols+j]))
	}
	// Up from an Elevator of level 0, Down from one of level 1.
	row[Up], row[Down] = 0, 0
	if s.Cells[p.Index()].Type == Elevator {
		if p.K == 0 {
			row[Up] = b2u(canEnter(s, u, &s.Cells[LevelCells+p.I*Cols+p.J]))
		} else {
			row[Down] = b2u(canEnter(s, u, &s.Cells[p.I*Cols+p.J]))
		}
	}
	row[None] = 1
}

// canEnter is CanMove's test of the target cell tc of a move of u that
// stays on the board and leaves from an Elevator if it changes level.
func canEnter(s *State, u *Unit, tc *Cell) bool {
	if tc.ID < 0 {
		return tc.Type != Rock
	}
	v := &s.Units[tc.ID]
	switch {
	case v.Player == u.Player:
		return false
	case v.Type == Hellhound:
		return true
	case u.Type == Pioneer:
		return false
	}
	return true
}

// CanMove reports whether the engine accepts moving Pioneer or Furyan u in
// direction d from state s, executed first in the round (SPEC §8.4): the
// target is on the board and not Rock, Up and Down leave from an
// Elevator, the target holds no unit of u's group, and a Pioneer only
// enters an empty cell or (going Down) a hellhound's. Deadly moves are
// accepted. None is always accepted.
func CanMove(s *State, u *Unit, d Dir) bool {
	if d == None {
		return true
	}
	if !d.Valid() {
		return false
	}
	t := u.Pos.Add(d)
	if !t.OnBoard() {
		return false
	}
	if (d == Up || d == Down) && s.Cells[u.Pos.Index()].Type != Elevator {
		return false
	}
	return canEnter(s, u, &s.Cells[t.Index()])
}

// specFor returns the spaces of a configuration.
func specFor(cfg *Config) (env.Spec, error) {
	u := NumSlots(cfg)
	return env.Spec{
		ObservationVersion: ObservationVersion,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, Rows, Cols}, Low: 0, High: 127,
				Description: "planes: level 0 codes, level 1 codes, flags (terrain | unit<<3)",
				Planes:      []env.Plane{env.Code("level 0 code", 128), env.Code("level 1 code", 128), env.Bits("flags", 7)}},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: 100,
				Description: "per unit slot: mine, rel owner, type, health, row, col, level, on elevator",
				Columns: []env.Column{{Name: "mine", Scale: 1}, {Name: "rel owner", Scale: 1.0 / 3}, {Name: "type", Scale: 1},
					{Name: "health", Scale: 1.0 / 100}, {Name: "row", Scale: 1.0 / Rows}, {Name: "col", Scale: 1.0 / Cols},
					{Name: "level", Scale: 1}, {Name: "on elevator", Scale: 1}}},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: math.MaxFloat32,
				Description: "round, sun, scores, cells, gems, necromongers (normalized)",
				Columns:     globalColumns},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "legal directions per unit slot (None always legal)"},
			{Name: "paths", Dtype: env.Bool, Shape: []int{u, PathColumns}, Low: 0, High: 1,
				Description: "per unit slot and path field: moves that near the field's nearest cell, distance thresholds"},
			{Name: "sun_paths", Dtype: env.Bool, Shape: []int{u, SunColumns}, Low: 0, High: 1,
				Description: "per unit slot: moves that near an escape underground and a gem worth the trip before the sun, slack thresholds"},
		},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction 0..10 per unit slot; slots not owned are ignored"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfigText,
		UnitRow:       4,
		UnitCol:       5,
		WrapColumns:   true,
		PolicyMask:    "action_mask",
	}, nil
}

// globalColumns names the entries of the globals tensor, normalized as
// Globals writes them.
var globalColumns = func() []env.Column {
	c := []env.Column{{Name: "round", Scale: 1}, {Name: "rounds left", Scale: 1}, {Name: "night start", Scale: 1}}
	for _, what := range []string{"score", "cells", "gems"} {
		for r := range NumPlayers {
			c = append(c, env.Column{Name: fmt.Sprintf("%s of rel %d", what, r), Scale: 1})
		}
	}
	return append(c, env.Column{Name: "necromongers", Scale: 1})
}()

// Encode writes player me's observation of s: the tensors of specFor, in
// its order, into obs (nil entries are not computed) (game.Encoder).
func (ob *Observer) Encode(s *State, me int, obs [][]byte) {
	// The board's level planes and the cells the path searches read are
	// kept between calls, redone where the cells changed (cellCache).
	searches := len(obs) > 5 && obs[5] != nil || len(obs) > 4 && obs[4] != nil
	if searches || len(obs) > 0 && obs[0] != nil {
		if ob.cells == nil {
			ob.cells = new(cellCache)
		}
		ob.cells.update(s, me, ob.unitCodes(s, me))
	}
	if searches {
		if ob.paths == nil {
			ob.paths = new(pathSearch)
		}
		ps, cc := ob.paths, ob.cells
		ps.use(&cc.pass, &cc.elev, &cc.cave, &cc.free, &cc.gem, cc.terrainVer, cc.gemVer)
		ps.enemies(s, me)
	}
	for i, dst := range obs {
		if dst == nil {
			continue
		}
		switch i {
		case 0:
			dst = dst[:BoardBytes]
			copy(dst, ob.cells.planes[:])
			boardFlags(s, dst[2*LevelCells:])
		case 1:
			ob.Units(s, me, dst)
		case 2:
			ob.Globals(s, me, dst)
		case 3:
			ob.Mask(s, me, dst)
		case 4:
			ob.writePaths(s, me, dst)
		case 5:
			ob.writeSunPaths(s, me, dst)
		}
	}
}
