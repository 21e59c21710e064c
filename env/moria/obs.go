package moria

import (
	"encoding/binary"
	"math"
	"math/bits"

	"jgym/env"
	"jgym/policy"
)

// ObservationVersion names the observation and action layout that the
// encoder below writes; docs/observation.md defines it. moria-obs-2 is
// moria-obs-1's four tensors and the targets tensor (targets.go).
// Policies trained on moria-obs-1 still play (signature).
const ObservationVersion = "moria-obs-2"

// ObservationVersion1 is the first layout: board, units, globals,
// action_mask.
const ObservationVersion1 = "moria-obs-1"

// Sizes of the observation tensors of one seat.
const (
	// BoardPlanes is the number of planes of the board tensor.
	BoardPlanes = 7
	// BoardBytes is the size of the board tensor.
	BoardBytes = BoardPlanes * NumCells
	// UnitFeatures is the number of columns of the units tensor.
	UnitFeatures = 10
	// NumGlobals is the length of the globals tensor (float32).
	NumGlobals = 24
	// NumDirs is the number of directions of a unit slot's action.
	NumDirs = int(DirSize)
)

// Board planes.
const (
	planeTerrain  = iota // CellType 0..4
	planeOwner           // 0 none, 1 + rel owner
	planeTreasure        // 1 if a treasure
	planeRock            // hits left of a rock, 0 elsewhere
	planeUnit            // unit code (unitCode*)
	planeHealth          // health of the unit, in 1/250 of its maximum
	planeFlags           // flag* bits
)

// Unit codes of the board's unit plane.
const (
	unitCodeDwarf  = 1 // + rel owner
	unitCodeWizard = 5 // + rel owner
	unitCodeOrc    = 9
	unitCodeTroll  = 10
	unitCodeBalrog = 11
)

// Flag bits of the board's flags plane.
const (
	flagLethal    = 1  // ending the round here may be deadly: the Balrog may kill here this round
	flagBalrogAdj = 2  // within one cell of the Balrog: stepping here kills at once
	flagTrollAdj  = 4  // next to a troll (trolls attack adjacent dwarves and wizards)
	flagOrcAdj    = 8  // next to an orc
	flagDiamond   = 16 // within Manhattan 4 of the Balrog (orcs and trolls never enter)
	flagBirth     = 32 // a free abyss where an orc may be born this round
)

// NumSlots returns the number of unit slots U of a configuration: the ids
// of all dwarves and wizards.
func NumSlots(cfg *Config) int { return cfg.FirstOrc() }

// rel returns the relative index of clan p seen by clan me.
func rel(p, me int) uint8 { return uint8((p - me + NumPlayers) % NumPlayers) }

// Observer encodes the egocentric observation of one seat (moria-obs-2)
// into caller-owned buffers. Its zero value is ready to use; it is not
// safe for concurrent use.
type Observer struct {
	board   *boardCells     // the board planes from the cells, made on first use
	targets *targetSearches // the targets tensor's searches, made on first use
	expert  expertOrders    // the opt-in expert tensor (expert.go)
}

// unitCode returns the board code of unit u seen by clan me.
func unitCode(u *Unit, me int) uint8 {
	switch u.Type {
	case Dwarf:
		return unitCodeDwarf + rel(u.Player, me)
	case Wizard:
		return unitCodeWizard + rel(u.Player, me)
	case Orc:
		return unitCodeOrc
	case Troll:
		return unitCodeTroll
	}
	return unitCodeBalrog
}

// healthByte scales a unit's health to 0..250 of its maximum (the Balrog:
// 250).
func healthByte(u *Unit) uint8 {
	mx := u.Type.MaxHealth()
	if mx == 0 {
		return 250
	}
	return uint8(max(0, min(u.Health, mx)) * 250 / mx)
}

// Board writes the board tensor, uint8 [7, 60, 60], seen by clan me into
// dst (len BoardBytes).
func (ob *Observer) Board(s *State, me int, dst []byte) {
	dst = dst[:BoardBytes]
	plane := func(k int) []byte { return dst[k*NumCells : (k+1)*NumCells : (k+1)*NumCells] }
	unit, health, flags := plane(planeUnit), plane(planeHealth), plane(planeFlags)
	if ob.board == nil {
		ob.board = new(boardCells)
	}
	bc := ob.board
	bc.update(s, me)
	copy(dst, bc.planes[:]) // terrain, owner, treasure, rock
	clear(unit)
	clear(health)
	for i, r := range bc.unit {
		for ; r != 0; r &= r - 1 {
			idx := i*Cols + bits.TrailingZeros64(r)
			u := &s.Units[s.Cells[idx].ID]
			unit[idx], health[idx] = unitCode(u, me), healthByte(u)
		}
	}
	clear(flags)
	b := s.Units[s.BalrogID].Pos
	for _, d := range [5]Dir{None, Bottom, Right, Top, Left} {
		if c := b.Add(d); s.Inside(c) || d == None {
			stamp(flags, c, 1, flagLethal)
		}
	}
	stamp(flags, b, 1, flagBalrogAdj)
	for i := max(b.I-balrogSafeManh, 0); i <= min(b.I+balrogSafeManh, Rows-1); i++ {
		w := balrogSafeManh - absInt(i-b.I)
		for j := max(b.J-w, 0); j <= min(b.J+w, Cols-1); j++ {
			flags[i*Cols+j] |= flagDiamond
		}
	}
	for _, id := range s.Trolls {
		stamp(flags, s.Units[id].Pos, 1, flagTrollAdj)
	}
	for _, id := range s.Orcs {
		stamp(flags, s.Units[id].Pos, 1, flagOrcAdj)
	}
	for i, r := range bc.abyss {
		for r &^= bc.unit[i]; r != 0; r &= r - 1 {
			if j := bits.TrailingZeros64(r); absInt(i-b.I)+absInt(j-b.J) > birthSafeManh {
				flags[i*Cols+j] |= flagBirth
			}
		}
	}
}

// stamp ors f into the cells of a plane within Chebyshev distance r of p.
func stamp(plane []byte, p Pos, r int, f uint8) {
	for i := max(p.I-r, 0); i <= min(p.I+r, Rows-1); i++ {
		for j := max(p.J-r, 0); j <= min(p.J+r, Cols-1); j++ {
			plane[i*Cols+j] |= f
		}
	}
}

// Units writes the units tensor, uint8 [U, 10], seen by clan me into dst
// (len U*UnitFeatures).
func (ob *Observer) Units(s *State, me int, dst []byte) { units(s, me, dst, nil) }

// units is Units; occ, if not nil, holds bit j of row i for each cell
// i*Cols+j of s naming a unit (boardCells.unit), so that only those
// neighbours of a unit are read.
func units(s *State, me int, dst []byte, occ *[Rows]uint64) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*UnitFeatures]
	b := s.Units[s.BalrogID].Pos
	for id := 0; id < n; id++ {
		u := &s.Units[id]
		row := dst[id*UnitFeatures : (id+1)*UnitFeatures]
		r := rel(u.Player, me)
		row[0] = b2u(r == 0)
		row[1] = r
		row[2] = uint8(u.Type)
		row[3] = uint8(max(0, min(u.Health, 255)))
		clear(row[4:])
		if !u.Pos.OnBoard() {
			continue
		}
		row[4], row[5] = uint8(u.Pos.I), uint8(u.Pos.J)
		row[6] = uint8(s.Cells[u.Pos.Index()].Type)
		row[7] = uint8(min(Manh(u.Pos, b), 255))
		var enemies, ownAdj uint8
		count := func(vid int16) {
			if vid >= 0 {
				if v := &s.Units[vid]; v.Player == u.Player {
					ownAdj++
				} else if v.Type != Balrog {
					enemies++
				}
			}
		}
		if occ == nil {
			for d := Bottom; d < None; d++ {
				if t := u.Pos.Add(d); t.OnBoard() {
					count(s.Cells[t.Index()].ID)
				}
			}
		} else {
			// The cells around naming a unit: bits 0-2 of row i-1, i, i+1
			// for columns j-1 .. j+1 (the unit's own cell left out).
			i, j := u.Pos.I, u.Pos.J
			for a := max(i-1, 0); a <= min(i+1, Rows-1); a++ {
				m := occ[a] << 1 >> j & 7
				if a == i {
					m &^= 2
				}
				for ; m != 0; m &= m - 1 {
					count(s.Cells[a*Cols+j-1+bits.TrailingZeros64(m)].ID)
				}
			}
		}
		row[8], row[9] = enemies, ownAdj
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// Globals writes the globals tensor, float32 [24] little-endian, seen by
// clan me into dst (len 4*NumGlobals).
func (ob *Observer) Globals(s *State, me int, dst []byte) { globals(s, me, dst, -1) }

// globals is Globals; treasures, if not negative, is the number of cells
// of s with a treasure (boardCells.treasures).
func globals(s *State, me int, dst []byte, treasures int) {
	var v [NumGlobals]float32
	nr := float32(s.Cfg.NbRounds)
	v[0] = float32(s.Round) / nr
	v[1] = float32(s.Cfg.NbRounds-s.Round) / nr
	for p := 0; p < NumPlayers; p++ {
		r := rel(p, me)
		v[2+r] = float32(s.Score(p)) / 1000
		v[6+r] = float32(s.NbCells[p]) / 1000
		v[10+r] = float32(s.NbTreasures[p]) / IniTreasures
		v[14+r] = float32(len(s.Dwarves[p])+len(s.Wizards[p])) / float32(s.Cfg.ClanUnits())
	}
	v[18] = float32(len(s.Orcs)) / float32(s.Cfg.MaxNbOrcs)
	b := s.Units[s.BalrogID].Pos
	v[19], v[20] = float32(b.I)/Rows, float32(b.J)/Cols
	left := treasures
	if left < 0 {
		left = 0
		for idx := range s.Cells {
			if s.Cells[idx].Treasure {
				left++
			}
		}
	}
	v[21] = float32(left) / IniTreasures
	v[22] = float32(s.Cfg.TreasureValue) / 10
	v[23] = float32(s.Cfg.RockResistance) / 5
	dst = dst[:4*NumGlobals]
	for i, x := range v {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(x))
	}
}

// Mask writes the action mask, bool [U, 9], of clan me into dst (len
// U*NumDirs): direction d is legal for slot id when the engine accepts and
// prints the move from the observed state (CanMove). None is always legal.
func (ob *Observer) Mask(s *State, me int, dst []byte) {
	n := NumSlots(s.Cfg)
	dst = dst[:n*NumDirs]
	for id := 0; id < n; id++ {
		row := dst[id*NumDirs : (id+1)*NumDirs : (id+1)*NumDirs]
		u := &s.Units[id]
		row[None] = 1
		clear(row[:None])
		if u.Player != me || u.Health <= 0 || (u.Type != Dwarf && u.Type != Wizard) {
			continue
		}
		// CanMove for each direction, its checks of u made once.
		step := Dir(1)
		if u.Type == Wizard {
			step = 2 // orthogonal steps only
		}
		for d := Bottom; d < None; d += step {
			row[d] = b2u(canEnter(s, u, u.Pos.Add(d)))
		}
	}
}

// CanMove reports whether the engine accepts and prints the move of dwarf
// or wizard u in direction d from state s, executed first in the round
// (SPEC §8.2, §8.4): on the board; a wizard only orthogonally, onto an
// empty Cave, Outside or Abyss cell; a dwarf onto anything but Granite, a
// unit of its clan or the Balrog (it attacks units, digs rocks). Deadly
// moves (into an abyss, next to the Balrog) are accepted. None is always
// accepted (no command is given).
func CanMove(s *State, u *Unit, d Dir) bool {
	if d == None {
		return true
	}
	if !d.Valid() || u.Health <= 0 || (u.Type != Dwarf && u.Type != Wizard) || (u.Type == Wizard && d.Diagonal()) {
		return false
	}
	return canEnter(s, u, u.Pos.Add(d))
}

// canEnter is CanMove's rule for the target cell t of a live dwarf or
// wizard u (a wizard's move orthogonal), shared with Mask.
func canEnter(s *State, u *Unit, t Pos) bool {
	if uint(t.I) >= Rows || uint(t.J) >= Cols { // t.OnBoard(), cheaper to inline
		return false
	}
	c := &s.Cells[t.Index()]
	if c.ID >= 0 {
		v := &s.Units[c.ID]
		return u.Type == Dwarf && v.Player != u.Player && v.Type != Balrog
	}
	return c.Type != Granite && (c.Type != Rock || u.Type == Dwarf)
}

// specFor returns the spaces of a configuration.
func specFor(cfg *Config) (env.Spec, error) {
	u := NumSlots(cfg)
	return env.Spec{
		ObservationVersion: ObservationVersion,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, Rows, Cols}, Low: 0, High: 255,
				Description: "planes: terrain, rel owner, treasure, rock hits left, unit code, unit health, flags",
				Planes: []env.Plane{env.Code("cell type", 5), env.Code("rel owner", 5), env.Code("treasure", 2),
					env.Scalar("rock hits left", 1.0/5), env.Code("unit", 12), env.Scalar("unit health", 1.0/250), env.Bits("flags", 6)}},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: 255,
				Description: "per unit slot: mine, rel owner, type, health, row, col, cell type, Balrog distance, enemies and allies around",
				Columns: []env.Column{{Name: "mine", Scale: 1}, {Name: "rel owner", Scale: 1.0 / 3}, {Name: "type", Scale: 1},
					{Name: "health", Scale: 1.0 / 100}, {Name: "row", Scale: 1.0 / 60}, {Name: "col", Scale: 1.0 / 60},
					{Name: "cell type", Scale: 1.0 / 4}, {Name: "Balrog distance", Scale: 1.0 / 30},
					{Name: "others around", Scale: 1.0 / 8}, {Name: "allies around", Scale: 1.0 / 8}}},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: math.MaxFloat32,
				Description: "round, scores, cells, treasures, units, orcs, Balrog, treasures left, settings (normalized)"},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "legal directions per unit slot (None always legal)"},
			{Name: "targets", Dtype: env.Bool, Shape: []int{u, TargetFeatures}, Low: 0, High: 1,
				Description: "per unit slot of mine, for each of Balin's searches (a dwarf's assigned target, " +
					"the nearest target of any kind, a wizard's way to the dwarves): the steps along it " +
					"(directions 0..7), and whether its cost is at most 2, 6, 15"},
		},
		OptIn: []env.TensorSpec{expertSpec(u)},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction 0..8 per unit slot; slots not owned are ignored"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfigText,
		UnitRow:       4,
		UnitCol:       5,
		PolicyMask:    "action_mask",
	}, nil
}

// Encode writes clan me's observation of s: the tensors of specFor, in
// its order, then its opt-in ones, into obs (nil entries are not computed)
// (game.Encoder).
// When it writes the board, the units and globals tensors read the cells
// the board keeps (boardCells), which are then s's.
func (ob *Observer) Encode(s *State, me int, obs [][]byte) {
	var bc *boardCells // the board's cells, once they are s's
	for i, dst := range obs {
		if dst == nil {
			continue
		}
		switch i {
		case 0:
			ob.Board(s, me, dst)
			bc = ob.board
		case 1:
			if bc != nil {
				units(s, me, dst, &bc.unit)
			} else {
				ob.Units(s, me, dst)
			}
		case 2:
			if bc != nil {
				globals(s, me, dst, bc.treasures)
			} else {
				ob.Globals(s, me, dst)
			}
		case 3:
			ob.Mask(s, me, dst)
		case 4:
			ob.Targets(s, me, dst)
		case 5: // opt-in (specFor's OptIn)
			ob.expert.write(s, me, dst)
		}
	}
}

// signature is what a Moria policy takes and gives (docs/export.md): the
// observation moria-obs-2 of docs/observation.md (or the first four
// tensors for a policy trained on moria-obs-1) with any multiple of 4
// unit slots, and logits [1, U, 9].
func signature() policy.Signature {
	spec, _ := specFor(&defaultConfig)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	v1 := sig
	v1.ObservationVersion = ObservationVersion1
	v1.Inputs = sig.Inputs[:4] // board, units, globals, action_mask
	v1.OptIn = nil
	sig.Older = []policy.Signature{v1}
	return sig
}
