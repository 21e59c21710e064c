package pandemic

import (
	"encoding/binary"
	"math"
	"slices"

	"jgym/env"
	"jgym/policy"
)

// ObservationVersion names the observation and action layout that the
// encoder below writes; docs/observation.md defines it. pandemic-obs-2 is
// pandemic-obs-1's four tensors and the targets tensor (targets.go).
// Policies trained on pandemic-obs-1 still play (signature).
const ObservationVersion = "pandemic-obs-2"

// ObservationVersion1 is the first layout: board, units, globals,
// action_mask.
const ObservationVersion1 = "pandemic-obs-1"

// Sizes of the observation tensors of one seat.
const (
	// BoardPlanes is the number of planes of the board tensor: terrain,
	// virus, unit, health, conquest, flags.
	BoardPlanes = 6
	// UnitFeatures is the number of columns of the units tensor.
	UnitFeatures = 13
	// NumGlobals is the length of the globals tensor (float32).
	NumGlobals = 24
	// NumDirs is the number of directions of a unit slot's action.
	NumDirs = int(DirSize)
)

// Board planes.
const (
	PlaneTerrain  = iota // 0 wall, 1 grass, 2 city, 3 path
	PlaneVirus           // virus of the cell, 0..10
	PlaneUnit            // 0 no unit, else 1 + the relative owner of the unit
	PlaneHealth          // health of the unit on the cell (0..255, saturated)
	PlaneConquest        // 0 grass, wall or unowned, else 1 + the relative owner of the cell's city or path
	PlaneFlags           // FlagMask | FlagMasked | FlagRing | FlagInfected | FlagImmune
)

// Bits of the flags plane.
const (
	FlagMask     = 1 << iota // a mask lies on the cell
	FlagMasked               // the unit on the cell wears a mask
	FlagRing                 // a spawn cell: the ring at distance 1 from the edge
	FlagInfected             // the unit on the cell is infected
	FlagImmune               // the unit on the cell is immune
)

// Columns of the units tensor.
const (
	UnitMine      = iota // 1 if the observing player owns the unit
	UnitOwner            // relative owner, 0..3
	UnitHealth           // health (0..255, saturated)
	UnitRow              // row (saturated at 255)
	UnitCol              // column (saturated at 255)
	UnitDamage           // virus damage per round, 0 if not infected
	UnitTurns            // rounds infected (saturated at 255)
	UnitImmune           // 1 if immune
	UnitMasked           // 1 if it wears a mask
	UnitCellType         // type of its cell: 1 grass, 2 city, 3 path
	UnitCellVirus        // virus of its cell
	UnitConquest         // 0, else 1 + the relative owner of its cell's city or path
	UnitEnemies          // enemy units on the 4 neighbouring cells
)

// NumSlots returns the number of unit slots U of a configuration: every
// unit id (4 nb_units); a slot is the unit with that stable id.
func NumSlots(cfg *Config) int { return cfg.NumUnits() }

// BoardBytes returns the size of the board tensor of a configuration.
func BoardBytes(cfg *Config) int { return BoardPlanes * cfg.Rows * cfg.Cols }

// Rel returns the relative index of player pl seen by player me: 0 for me,
// then the others in seat order after me.
func Rel(pl, me int) uint8 { return uint8((pl - me + NumPlayers) % NumPlayers) }

func sat(x int) uint8 {
	switch {
	case x < 0:
		return 0
	case x > 255:
		return 255
	}
	return uint8(x)
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// Observer encodes the egocentric observation of one seat
// (pandemic-obs-1) into caller-owned buffers. Its zero value is ready to
// use; it keeps scratch space between calls and is not safe for concurrent
// use.
//
// The board is written plane by plane from what the Observer keeps of the
// map, which never changes during a game (State's static fields, shared
// between copies: the Observer keeps them to know when the map changed),
// and of the owners, which change seldom: the terrain plane, the spawn
// ring and the map's city and path cells are made once per map, the
// conquest plane again only when the seat or an owner changed.
type Observer struct {
	mp      boardMap
	sizes   []int
	scratch []int32
	income  incomeCache
	targets targetFields
	expert  expertOrders // the opt-in expert tensor (expert.go)
}

// incomeCache is the players' incomes (State.Income) and what they were
// computed from: the map's cities and paths (State's static slices), the
// bonuses and the owners, which change seldom.
type incomeCache struct {
	ok                   bool
	cities               [][]Pos
	paths                []PathInfo
	city, path, factor   int
	cityOwner, pathOwner []int
	income               [NumPlayers]int
	log                  [NumPlayers]float32 // the globals' income columns
}

// boardMap is what the Observer keeps of a map and its owners.
type boardMap struct {
	types          []CellType // the map it was made of (State's static slices)
	cityOf, pathOf []int32
	rows, cols     int
	terrain        []byte  // the terrain plane
	ring           []byte  // FlagRing on the spawn ring, the flags plane's base
	cells          []int32 // the cells of a city or path
	ownerOf        []int32 // their city k (>= 0) or path -1-k
	conq           []byte  // the conquest plane of seat me and the owners below
	me             int
	cityOwner      []int
	pathOwner      []int
	conqOK         bool
}

// same reports whether x and y are the same slice (the same memory).
func same[T any](x, y []T) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// update remakes the map's planes when s plays on another map.
func (m *boardMap) update(s *State) {
	n := s.Rows * s.Cols
	if same(m.types, s.Types) && same(m.cityOf, s.CityOf) && same(m.pathOf, s.PathOf) && m.rows == s.Rows && m.cols == s.Cols {
		return
	}
	m.types, m.cityOf, m.pathOf, m.rows, m.cols = s.Types, s.CityOf, s.PathOf, s.Rows, s.Cols
	m.terrain = append(m.terrain[:0], make([]byte, n)...)
	m.ring = append(m.ring[:0], make([]byte, n)...)
	m.conq = append(m.conq[:0], make([]byte, n)...)
	cells, ownerOf := m.cells[:0], m.ownerOf[:0]
	terrain, types := m.terrain[:n], s.Types[:n]
	cityOf, pathOf := s.CityOf[:n], s.PathOf[:n]
	for idx, t := range types {
		terrain[idx] = uint8(t)
		// Cities and paths are rarer than grass and walls.
		if c, p := cityOf[idx], pathOf[idx]; c&p >= 0 {
			if c >= 0 {
				cells, ownerOf = append(cells, int32(idx)), append(ownerOf, c)
			} else {
				cells, ownerOf = append(cells, int32(idx)), append(ownerOf, -1-p)
			}
		}
	}
	m.cells, m.ownerOf = cells, ownerOf
	// The ring: rows 1 and Rows-2, columns 1 and Cols-2, inside the edge.
	rows, cols := s.Rows, s.Cols
	if rows >= 3 && cols >= 3 {
		for _, i := range [2]int{1, rows - 2} {
			for j := 1; j <= cols-2; j++ {
				m.ring[i*cols+j] = FlagRing
			}
		}
		for i := 2; i <= rows-3; i++ {
			m.ring[i*cols+1] = FlagRing
			m.ring[i*cols+cols-2] = FlagRing
		}
	}
	m.conqOK = false
}

// conquest returns the conquest plane seen by me (len n), made again
// when the seat or an owner changed.
func (m *boardMap) conquest(s *State, me int) []byte {
	if m.conqOK && m.me == me && slices.Equal(m.cityOwner, s.CityOwner) && slices.Equal(m.pathOwner, s.PathOwner) {
		return m.conq
	}
	m.me, m.conqOK = me, true
	m.cityOwner = append(m.cityOwner[:0], s.CityOwner...)
	m.pathOwner = append(m.pathOwner[:0], s.PathOwner...)
	clear(m.conq)
	for e, idx := range m.cells {
		o := -1
		if k := m.ownerOf[e]; k >= 0 {
			o = s.CityOwner[k]
		} else {
			o = s.PathOwner[-1-k]
		}
		if o >= 0 {
			m.conq[idx] = 1 + Rel(o, me)
		}
	}
	return m.conq
}

// conquest returns the conquest code of cell idx seen by me.
func conquest(s *State, idx, me int) uint8 {
	o := -1
	if c := s.CityOf[idx]; c >= 0 {
		o = s.CityOwner[c]
	} else if p := s.PathOf[idx]; p >= 0 {
		o = s.PathOwner[p]
	}
	if o < 0 {
		return 0
	}
	return 1 + Rel(o, me)
}

// Board writes the board tensor, uint8 [6, rows, cols], seen by seat me
// into dst (len BoardBytes).
func (ob *Observer) Board(s *State, me int, dst []byte) {
	n := s.Rows * s.Cols
	dst = dst[:BoardPlanes*n]
	m := &ob.mp
	m.update(s)
	terrain := dst[PlaneTerrain*n : (PlaneTerrain+1)*n]
	virus := dst[PlaneVirus*n : (PlaneVirus+1)*n]
	unit := dst[PlaneUnit*n : (PlaneUnit+1)*n]
	health := dst[PlaneHealth*n : (PlaneHealth+1)*n]
	conq := dst[PlaneConquest*n : (PlaneConquest+1)*n]
	flags := dst[PlaneFlags*n : (PlaneFlags+1)*n]
	copy(terrain, m.terrain)
	copy(virus, s.Virus[:n])
	copy(conq, m.conquest(s, me))
	copy(flags, m.ring)
	clear(dst[PlaneUnit*n : (PlaneHealth+1)*n]) // unit and health
	// The masks and the units from their lists: the engine (and CopyFrom)
	// keeps MaskAt and UnitAt as the cells of Masks and of the units, so
	// these are the cells whose MaskAt is set and whose UnitAt names a
	// unit, without reading the other cells.
	for _, p := range s.Masks {
		if s.OnBoard(p) && s.MaskAt[s.Idx(p)] {
			flags[s.Idx(p)] |= FlagMask
		}
	}
	for id := range s.Units {
		u := &s.Units[id]
		if !s.OnBoard(u.Pos) {
			continue
		}
		idx := s.Idx(u.Pos)
		if s.UnitAt[idx] != int32(id) {
			continue
		}
		unit[idx] = 1 + Rel(u.Player, me)
		health[idx] = sat(u.Health)
		flags[idx] |= b2u(u.Mask)*FlagMasked | b2u(u.Damage > 0)*FlagInfected | b2u(u.Immune)*FlagImmune
	}
}

// Units writes the units tensor, uint8 [U, 13], seen by seat me into dst
// (len U*UnitFeatures).
func (ob *Observer) Units(s *State, me int, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*UnitFeatures]
	rows, cols := s.Rows, s.Cols
	for id := 0; id < n; id++ {
		u := &s.Units[id]
		row := dst[id*UnitFeatures : (id+1)*UnitFeatures : (id+1)*UnitFeatures]
		r := Rel(u.Player, me)
		unitScalars((*[UnitFeatures]byte)(row), u, r)
		p := u.Pos
		if !s.OnBoard(p) {
			row[UnitRow], row[UnitCol], row[UnitCellType], row[UnitCellVirus], row[UnitConquest], row[UnitEnemies] = 0, 0, 0, 0, 0, 0
			continue
		}
		idx := p.I*cols + p.J
		row[UnitRow], row[UnitCol] = sat(p.I), sat(p.J)
		row[UnitCellType] = uint8(s.Types[idx])
		row[UnitCellVirus] = s.Virus[idx]
		row[UnitConquest] = conquest(s, idx, me)
		enemies := uint8(0)
		enemy := func(q int) {
			if v := s.UnitAt[q]; v >= 0 && s.Units[v].Player != u.Player {
				enemies++
			}
		}
		if p.I+1 < rows {
			enemy(idx + cols)
		}
		if p.J+1 < cols {
			enemy(idx + 1)
		}
		if p.I > 0 {
			enemy(idx - cols)
		}
		if p.J > 0 {
			enemy(idx - 1)
		}
		row[UnitEnemies] = enemies
	}
}

// unitScalars writes the columns of a unit's row that read the unit alone,
// not its cell: mine, owner, health, damage, turns, immune, masked; r is
// the unit's owner seen by the observer. Units and unitsFromBoard share it.
func unitScalars(row *[UnitFeatures]byte, u *Unit, r uint8) {
	row[UnitMine] = b2u(r == 0)
	row[UnitOwner] = r
	row[UnitHealth] = sat(u.Health)
	row[UnitDamage] = sat(u.Damage)
	row[UnitTurns] = sat(u.Turns)
	row[UnitImmune] = b2u(u.Immune)
	row[UnitMasked] = b2u(u.Mask)
}

// Income returns the points player pl would score in a round if the
// owners stayed as they are (SPEC §8.12): cities, paths and components.
func (s *State) Income(pl int) int {
	var sizes []int
	return s.income(pl, &sizes, nil)
}

// income is Income with scratch space: *sizes is reused and updated.
func (s *State) income(pl int, sizes *[]int, scratch []int32) int {
	points := 0
	for k, o := range s.CityOwner {
		if o == pl {
			points += s.Cfg.BonusPerCityCell * len(s.Cities[k])
		}
	}
	for k, o := range s.PathOwner {
		if o == pl {
			points += s.Cfg.BonusPerPathCell * len(s.Paths[k].Cells)
		}
	}
	*sizes = s.Components(pl, (*sizes)[:0], scratch)
	for _, size := range *sizes {
		points += ComponentPoints(s.Cfg.FactorConnectedComponent, size)
	}
	return points
}

// Globals writes the globals tensor, float32 [24] little-endian, seen by
// seat me into dst (len 4*NumGlobals).
func (ob *Observer) Globals(s *State, me int, dst []byte) {
	var v [NumGlobals]float32
	nr := float32(s.Cfg.NbRounds)
	v[0] = float32(s.Round) / nr
	v[1] = float32(s.Cfg.NbRounds-s.Round) / nr
	v[2] = float32(b2u((s.Round+1)%MaskPeriod == 0 && s.Round+1 < s.Cfg.NbRounds))
	var cities, paths, units [NumPlayers]int
	for _, o := range s.CityOwner {
		if o >= 0 {
			cities[o]++
		}
	}
	for _, o := range s.PathOwner {
		if o >= 0 {
			paths[o]++
		}
	}
	for pl := range units {
		units[pl] = len(s.PlayerUnits[pl])
	}
	in := &ob.income
	if cfg := s.Cfg; !in.ok || !same(in.cities, s.Cities) || !same(in.paths, s.Paths) ||
		in.city != cfg.BonusPerCityCell || in.path != cfg.BonusPerPathCell || in.factor != cfg.FactorConnectedComponent ||
		!slices.Equal(in.cityOwner, s.CityOwner) || !slices.Equal(in.pathOwner, s.PathOwner) {
		in.ok, in.cities, in.paths = true, s.Cities, s.Paths
		in.city, in.path, in.factor = cfg.BonusPerCityCell, cfg.BonusPerPathCell, cfg.FactorConnectedComponent
		in.cityOwner = append(in.cityOwner[:0], s.CityOwner...)
		in.pathOwner = append(in.pathOwner[:0], s.PathOwner...)
		if len(ob.scratch) < 2*len(s.Cities) {
			ob.scratch = make([]int32, 2*len(s.Cities))
		}
		for pl := range in.income {
			in.income[pl] = s.income(pl, &ob.sizes, ob.scratch)
			in.log[pl] = float32(math.Log1p(float64(max(in.income[pl], 0))) / 16)
		}
	}
	frac := func(x, n int) float32 {
		if n == 0 {
			return 0
		}
		return float32(x) / float32(n)
	}
	for pl := 0; pl < NumPlayers; pl++ {
		r := int(Rel(pl, me))
		v[3+r] = float32(math.Log1p(float64(max(s.Scores[pl], 0))) / 16)
		v[7+r] = frac(cities[pl], len(s.CityOwner))
		v[11+r] = frac(paths[pl], len(s.PathOwner))
		v[15+r] = frac(units[pl], len(s.Units))
		v[19+r] = in.log[pl]
	}
	v[23] = float32(len(s.Masks)) / 10
	dst = dst[:4*NumGlobals]
	for i, x := range v {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(x))
	}
}

// Mask writes the action mask, bool [U, 5], of seat me into dst (len
// U*NumDirs): direction d is legal for slot id when CanMove accepts it;
// None is always legal, and it is the only legal choice of the slots the
// seat does not own.
func (ob *Observer) Mask(s *State, me int, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*NumDirs]
	rows, cols := s.Rows, s.Cols
	for id := 0; id < n; id++ {
		row := dst[id*NumDirs : (id+1)*NumDirs : (id+1)*NumDirs]
		row[Bottom], row[Right], row[Top], row[Left], row[None] = 0, 0, 0, 0, 1
		u := &s.Units[id]
		p := u.Pos
		if u.Player != me || !s.OnBoard(p) {
			continue
		}
		// CanMove: the target on the board, not a wall, not held by one
		// of me's units.
		idx := p.I*cols + p.J
		free := func(q int) uint8 {
			if s.Types[q] == Wall {
				return 0
			}
			v := s.UnitAt[q]
			return b2u(v < 0 || s.Units[v].Player != me)
		}
		if p.I+1 < rows {
			row[Bottom] = free(idx + cols)
		}
		if p.J+1 < cols {
			row[Right] = free(idx + 1)
		}
		if p.I > 0 {
			row[Top] = free(idx - cols)
		}
		if p.J > 0 {
			row[Left] = free(idx - 1)
		}
	}
}

// CanMove reports whether the engine carries out moving unit u in
// direction d, executed first in the round (SPEC §8.4): the target is on
// the board, not a wall, and not held by a unit of u's player. A target
// held by an enemy is an attack, which always takes place (and moves u when
// it kills). None is always accepted (it gives no command).
func CanMove(s *State, u *Unit, d Dir) bool {
	if d == None {
		return true
	}
	if !d.Valid() || !s.OnBoard(u.Pos) {
		return false
	}
	q := u.Pos.Add(d)
	if !s.OnBoard(q) {
		return false
	}
	qi := s.Idx(q)
	if s.Types[qi] == Wall {
		return false
	}
	v := s.UnitAt[qi]
	return v < 0 || s.Units[v].Player != u.Player
}

// specFor returns the spaces of a configuration: the board tensor has its
// rows and columns, the unit slots its units.
func specFor(cfg *Config) (env.Spec, error) {
	u := NumSlots(cfg)
	return env.Spec{
		ObservationVersion: ObservationVersion,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, cfg.Rows, cfg.Cols}, Low: 0, High: 255,
				Description: "planes: terrain, virus, unit (1+rel owner), health, conquest (1+rel owner), flags",
				Planes: []env.Plane{env.Code("terrain", 4), env.Scalar("virus", 1.0/10), env.Code("unit", 5),
					env.Scalar("health", 1.0/100), env.Code("conquest", 5), env.Bits("flags", 5)}},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: 255,
				Description: "per unit slot: mine, rel owner, health, row, col, damage, turns, immune, masked, cell type, cell virus, conquest, adjacent enemies",
				Columns: []env.Column{{Name: "mine", Scale: 1}, {Name: "rel owner", Scale: 1.0 / 3}, {Name: "health", Scale: 1.0 / 100},
					{Name: "row", Scale: 1.0 / float64(cfg.Rows)}, {Name: "col", Scale: 1.0 / float64(cfg.Cols)},
					{Name: "virus damage", Scale: 1.0 / 5}, {Name: "rounds infected", Scale: 1.0 / 50}, {Name: "immune", Scale: 1},
					{Name: "masked", Scale: 1}, {Name: "cell type", Scale: 1.0 / 3}, {Name: "cell virus", Scale: 1.0 / 10},
					{Name: "conquest", Scale: 1.0 / 4}, {Name: "adjacent enemies", Scale: 1.0 / 4}}},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: math.MaxFloat32,
				Description: "round, mask round, scores, cities, paths, units, income per relative player, masks (normalized)"},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "legal directions per unit slot (None always legal)"},
			{Name: "targets", Dtype: env.Bool, Shape: []int{u, TargetFeatures}, Low: 0, High: 1,
				Description: "per unit slot of mine, for each target kind (cities needing units, paths needing units, " +
					"such paths joining two of my cities, masks, enemy units): the steps bottom, right, top, left " +
					"that walk nearer its nearest cell, and whether it is within 2, 6, 15 steps"},
		},
		OptIn: []env.TensorSpec{expertSpec(u)},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction 0..4 (bottom, right, top, left, none) per unit slot; slots not owned are ignored"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot (the engine shuffles them)"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfigText,
		UnitRow:       3,
		UnitCol:       4,
		PolicyMask:    "action_mask",
	}, nil
}

// Encode writes player me's observation of s: the tensors of specFor, in
// its order, into obs (nil entries are not computed) (game.Encoder).
//
// When the board is asked for, the units tensor and the action mask read
// the cells around the units from its planes (dense bytes just written)
// rather than from the state's slices.
func (ob *Observer) Encode(s *State, me int, obs [][]byte) {
	var board []byte
	for i, dst := range obs {
		if dst == nil {
			continue
		}
		switch i {
		case 0:
			ob.Board(s, me, dst)
			board = dst
		case 1:
			if board != nil {
				unitsFromBoard(s, me, board, dst)
			} else {
				ob.Units(s, me, dst)
			}
		case 2:
			ob.Globals(s, me, dst)
		case 3:
			if board != nil {
				maskFromBoard(s, me, board, dst)
			} else {
				ob.Mask(s, me, dst)
			}
		case 4:
			ob.Targets(s, me, dst)
		case 5: // opt-in (specFor's OptIn)
			ob.expert.write(s, me, dst)
		}
	}
}

// unitsFromBoard is Units reading the cells from board, the board tensor
// of s seen by me: their terrain, virus and conquest planes, and the unit
// plane for the enemies around a unit. The unit plane holds the units
// whose cell names them (UnitAt), as the engine keeps it.
func unitsFromBoard(s *State, me int, board, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*UnitFeatures]
	rows, cols := s.Rows, s.Cols
	nc := rows * cols
	board = board[:BoardPlanes*nc]
	terrain := board[PlaneTerrain*nc : (PlaneTerrain+1)*nc]
	virus := board[PlaneVirus*nc : (PlaneVirus+1)*nc]
	unit := board[PlaneUnit*nc : (PlaneUnit+1)*nc]
	conq := board[PlaneConquest*nc : (PlaneConquest+1)*nc]
	for id := 0; id < n; id++ {
		u := &s.Units[id]
		row := dst[id*UnitFeatures : (id+1)*UnitFeatures : (id+1)*UnitFeatures]
		r := Rel(u.Player, me)
		unitScalars((*[UnitFeatures]byte)(row), u, r)
		p := u.Pos
		if uint(p.I) >= uint(rows) || uint(p.J) >= uint(cols) {
			row[UnitRow], row[UnitCol], row[UnitCellType], row[UnitCellVirus], row[UnitConquest], row[UnitEnemies] = 0, 0, 0, 0, 0, 0
			continue
		}
		idx := p.I*cols + p.J
		row[UnitRow], row[UnitCol] = sat(p.I), sat(p.J)
		row[UnitCellType] = terrain[idx]
		row[UnitCellVirus] = virus[idx]
		row[UnitConquest] = conq[idx]
		// A neighbour's unit plane is 0 (no unit) or 1 + its owner seen
		// by me: an enemy of u is neither 0 nor 1 + r.
		own := 1 + r
		enemies := uint8(0)
		if p.I+1 < rows {
			v := unit[idx+cols]
			enemies += b2u(v != 0 && v != own)
		}
		if p.J+1 < cols {
			v := unit[idx+1]
			enemies += b2u(v != 0 && v != own)
		}
		if p.I > 0 {
			v := unit[idx-cols]
			enemies += b2u(v != 0 && v != own)
		}
		if p.J > 0 {
			v := unit[idx-1]
			enemies += b2u(v != 0 && v != own)
		}
		row[UnitEnemies] = enemies
	}
}

// maskFromBoard is Mask reading the cells from board, the board tensor of
// s seen by me: a step is free when its terrain is not a wall (0) and its
// unit plane is not one of me's units (1).
func maskFromBoard(s *State, me int, board, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*NumDirs]
	rows, cols := s.Rows, s.Cols
	nc := rows * cols
	board = board[:BoardPlanes*nc]
	terrain := board[PlaneTerrain*nc : (PlaneTerrain+1)*nc]
	unit := board[PlaneUnit*nc : (PlaneUnit+1)*nc]
	for id := 0; id < n; id++ {
		row := dst[id*NumDirs : (id+1)*NumDirs : (id+1)*NumDirs]
		row[Bottom], row[Right], row[Top], row[Left], row[None] = 0, 0, 0, 0, 1
		u := &s.Units[id]
		p := u.Pos
		if u.Player != me || uint(p.I) >= uint(rows) || uint(p.J) >= uint(cols) {
			continue
		}
		idx := p.I*cols + p.J
		if p.I+1 < rows {
			row[Bottom] = b2u(terrain[idx+cols] != 0 && unit[idx+cols] != 1)
		}
		if p.J+1 < cols {
			row[Right] = b2u(terrain[idx+1] != 0 && unit[idx+1] != 1)
		}
		if p.I > 0 {
			row[Top] = b2u(terrain[idx-cols] != 0 && unit[idx-cols] != 1)
		}
		if p.J > 0 {
			row[Left] = b2u(terrain[idx-1] != 0 && unit[idx-1] != 1)
		}
	}
}

// signature is what a Pandemic policy takes and gives: the observation of
// docs/observation.md (pandemic-obs-2, or the first four tensors for a
// policy trained on pandemic-obs-1) on the default 70 x 70 board, with any
// multiple of 4 unit slots, and logits [1, U, 5]. The board's size is part
// of the board tensor's shape, so a policy trained on another board size
// does not load.
func signature() policy.Signature {
	cfg := DefaultConfig()
	spec, _ := specFor(&cfg)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	v1 := sig
	v1.ObservationVersion = ObservationVersion1
	v1.Inputs = sig.Inputs[:4] // board, units, globals, action_mask
	v1.OptIn = nil
	sig.Older = []policy.Signature{v1}
	return sig
}
