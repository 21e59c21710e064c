package dominator

import (
	"encoding/binary"
	"fmt"
	"math"

	"jgym/env"
	"jgym/policy"
)

// ObservationVersion names the observation and action layout the encoder
// below writes; docs/observation.md defines it. dominator-obs-2 is
// dominator-obs-1's five tensors and the targets tensor (targets.go).
// Policies trained on dominator-obs-1 still play (signature).
const ObservationVersion = "dominator-obs-2"

// ObservationVersion1 is the first layout: board, units, globals,
// action_mask, move_mask.
const ObservationVersion1 = "dominator-obs-1"

// Sizes of the observation tensors of one seat.
const (
	// BoardPlanes is the number of planes of the board tensor.
	BoardPlanes = 6
	// UnitFeatures is the number of columns of the units tensor.
	UnitFeatures = 8
	// NumGlobals is the length of the globals tensor (float32).
	NumGlobals = 18
	// NumDirs is the number of directions of a unit slot's action.
	NumDirs = int(DirSize)
)

// Planes of the board tensor.
const (
	PlaneTerrain = iota // 1 empty, 0 wall
	PlaneOwner          // 0 no owner, else 1 + relative owner
	PlaneUnit           // 0 no unit, else 1 + 3*relative owner + type
	PlaneHealth         // health in percent of the maximum (witches 100)
	PlaneHaunted        // 1 haunted
	PlaneThreat         // ThreatSleeping | ThreatWitchStep | ThreatKnight | MyBox
)

// Bits of the threat plane.
const (
	// ThreatSleeping marks cells within 2 of an inactive witch: they
	// become haunted when it wakes up.
	ThreatSleeping = 1 << iota
	// ThreatWitchStep marks cells within 3 of an enemy witch: one step of
	// hers can haunt them.
	ThreatWitchStep
	// ThreatKnight marks the 8 neighbours of an enemy knight.
	ThreatKnight
	// MyBox marks the cells of the observer's box, where its units are
	// reborn.
	MyBox
)

// NumSlots returns the number of unit slots U of a configuration: every
// unit id.
func NumSlots(cfg *Config) int { return cfg.NumUnits() }

// rel returns the relative index of player p seen by player me.
func rel(p, me int) int { return (p - me + 2*NumPlayers) % NumPlayers }

// ViewPos returns where player k sees the real position p on a board of
// side n (SPEC §3.4).
func ViewPos(p Pos, k, n int) Pos {
	switch k & 3 {
	case 1:
		return Pos{p.J, n - 1 - p.I}
	case 2:
		return Pos{n - 1 - p.I, n - 1 - p.J}
	case 3:
		return Pos{n - 1 - p.J, p.I}
	}
	return p
}

// RealPos is the inverse of ViewPos: the real position of position p of
// player k's view.
func RealPos(p Pos, k, n int) Pos {
	switch k & 3 {
	case 1:
		return Pos{n - 1 - p.J, p.I}
	case 2:
		return Pos{n - 1 - p.I, n - 1 - p.J}
	case 3:
		return Pos{p.J, n - 1 - p.I}
	}
	return p
}

// onGrid reports whether unit id stands on the board: lost units (SPEC
// §8.9) do not.
func (s *State) onGrid(id int) bool {
	p := s.Units[id].Pos
	return s.OnBoard(p) && int(s.Grid[p.I*s.Cfg.Cols+p.J].ID) == id
}

// Observer encodes the egocentric observation (dominator-obs-2) of player
// me into caller-owned buffers: the board turned so that me's box is the
// top-left one, players numbered relative to me (0 me, then the next
// seats). s is the real state and me a seat, or a player's view
// (State.View) and me = 0. Its zero value is ready to use; it keeps
// scratch space between calls and is not safe for concurrent use.
type Observer struct {
	threat  []uint8
	targets targetFields
	expert  expertOrders // the opt-in expert tensor (expert.go)
}

// Board writes the board tensor, uint8 [BoardPlanes, rows, cols], into
// dst.
func (ob *Observer) Board(s *State, me int, dst []byte) {
	n := s.Cfg.Rows
	cells := n * n
	dst = dst[:BoardPlanes*cells]
	ob.threats(s, me)
	terrain, owner, unit := dst[:cells], dst[cells:2*cells], dst[2*cells:3*cells]
	health, haunted, threat := dst[3*cells:4*cells], dst[4*cells:5*cells], dst[5*cells:6*cells]
	var ownerCode [NumPlayers + 2]uint8 // by owner+1
	for o := 0; o <= NumPlayers; o++ {
		ownerCode[o+1] = uint8(1 + rel(o, me))
	}
	// The real cells in order: view cell k = base + i*di + j*dj of real
	// cell (i, j) (ViewPos).
	base, di, dj := 0, n, 1
	switch me & 3 {
	case 1:
		base, di, dj = n-1, -1, n
	case 2:
		base, di, dj = n*n-1, -n, -1
	case 3:
		base, di, dj = (n-1)*n, 1, -n
	}
	for i := 0; i < n; i++ {
		k := base + i*di
		for j := 0; j < n; j, k = j+1, k+dj {
			ri := i*n + j
			c := &s.Grid[ri]
			terrain[k] = b2u(c.Type != Wall)
			owner[k] = ownerCode[c.Owner+1]
			haunted[k] = b2u(c.Haunted)
			threat[k] = ob.threat[ri]
			unit[k], health[k] = 0, 0
			if c.ID >= 0 {
				u := &s.Units[c.ID]
				unit[k] = uint8(1 + 3*rel(u.Player, me) + int(u.Type))
				health[k] = healthPercent(s.Cfg, u)
			}
		}
	}
}

// threats fills ob.threat, by real cell, for player me.
func (ob *Observer) threats(s *State, me int) {
	n := s.Cfg.Cols
	if len(ob.threat) != len(s.Grid) {
		ob.threat = make([]uint8, len(s.Grid))
	}
	clear(ob.threat)
	stamp := func(p Pos, r int, bit uint8) {
		for x := -r; x <= r; x++ {
			for y := -r + absInt(x); y <= r-absInt(x); y++ {
				if q := (Pos{p.I + x, p.J + y}); s.OnBoard(q) {
					ob.threat[q.I*n+q.J] |= bit
				}
			}
		}
	}
	for p := 0; p < NumPlayers; p++ {
		for _, id := range s.Witches[p] {
			w := &s.Units[id]
			if !s.onGrid(id) {
				continue
			}
			if !w.Active {
				stamp(w.Pos, 2, ThreatSleeping)
			}
			if p != me {
				stamp(w.Pos, 3, ThreatWitchStep)
			}
		}
	}
	for id := range s.Units {
		u := &s.Units[id]
		if u.Type != Knight || u.Player == me || !s.onGrid(id) {
			continue
		}
		for d := Bottom; d < None; d++ {
			if q := u.Pos.Add(d); s.OnBoard(q) {
				ob.threat[q.I*n+q.J] |= ThreatKnight
			}
		}
	}
	box := PlayerBox(me, s.Cfg.Rows, s.Cfg.Cols)
	for i := box.I0; i <= box.I1; i++ {
		for j := box.J0; j <= box.J1; j++ {
			ob.threat[i*n+j] |= MyBox
		}
	}
}

func healthPercent(c *Config, u *Unit) uint8 {
	if u.Type == Witch {
		return 100
	}
	h := 100 * max(u.Health, 0) / c.MaxHealth(u.Type)
	return uint8(min(h, 100))
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// Units writes the units tensor, uint8 [U, UnitFeatures], into dst: per
// unit id, mine, relative owner, type, health percent, row and column in
// the observer's frame, on the board (0 for a lost unit, whose row and
// column are 0), active (witches).
func (ob *Observer) Units(s *State, me int, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*UnitFeatures]
	for id := 0; id < n; id++ {
		u := &s.Units[id]
		row := dst[id*UnitFeatures : (id+1)*UnitFeatures]
		r := rel(u.Player, me)
		row[0] = b2u(r == 0)
		row[1] = uint8(r)
		row[2] = uint8(u.Type)
		row[3] = healthPercent(s.Cfg, u)
		row[4], row[5], row[6] = 0, 0, 0
		if s.onGrid(id) {
			vp := ViewPos(u.Pos, me, s.Cfg.Rows)
			row[4], row[5], row[6] = uint8(vp.I), uint8(vp.J), 1
		}
		row[7] = b2u(u.Type == Witch && u.Active)
	}
}

// Globals writes the globals tensor, float32 [NumGlobals] little-endian,
// into dst (len 4*NumGlobals): the round and the rounds left as fractions
// of nb_rounds; per relative player the land as a fraction of the cells
// that are not walls, the total score as a fraction of its maximum, the
// farmers and the knights as fractions of all units.
func (ob *Observer) Globals(s *State, me int, dst []byte) {
	var v [NumGlobals]float32
	nr := float32(s.Cfg.NbRounds)
	v[0] = float32(s.Round) / nr
	v[1] = float32(s.Cfg.NbRounds-s.Round) / nr
	cells := 0
	for idx := range s.Grid {
		if s.Grid[idx].Type != Wall {
			cells++
		}
	}
	cells = max(cells, 1)
	units := float32(max(len(s.Units), 1))
	for p := 0; p < NumPlayers; p++ {
		r := rel(p, me)
		v[2+r] = float32(s.Land[p]) / float32(cells)
		v[6+r] = float32(s.TotalScore[p]) / (float32(cells) * (nr + 1))
		v[10+r] = float32(len(s.Farmers[p])) / units
		v[14+r] = float32(len(s.Knights[p])) / units
	}
	dst = dst[:4*NumGlobals]
	for i, x := range v {
		binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(x))
	}
}

// mine reports whether unit slot id is one of me's units on the board:
// the slots Legal accepts a direction other than None for.
func mine(s *State, me, id int) bool {
	return s.Units[id].Player == me && s.onGrid(id)
}

// Legal reports whether the engine's validation (SPEC §8.2) accepts
// direction d, in me's frame, for unit id of player me standing on the
// board: None always; for me's units on the board the orthogonal
// directions, and the diagonal ones for knights. Lost units take None
// only: commanding them may abort the game (SPEC §8.4).
func Legal(s *State, me, id int, d Dir) bool {
	if d == None {
		return true
	}
	if id < 0 || id >= len(s.Units) || !d.Valid() {
		return false
	}
	u := &s.Units[id]
	return u.Player == me && s.onGrid(id) && (!d.Diagonal() || u.Type == Knight)
}

// Mask writes the action mask, bool [U, NumDirs], of player me into dst:
// Legal for every unit id and direction.
func (ob *Observer) Mask(s *State, me int, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*NumDirs]
	for id := 0; id < n; id++ {
		row := dst[id*NumDirs : (id+1)*NumDirs]
		if !mine(s, me, id) {
			clear(row)
			row[None] = 1
			continue
		}
		for d := Bottom; d <= None; d++ {
			row[d] = b2u(Legal(s, me, id, d))
		}
	}
}

// Works reports whether a legal move of unit id in direction d (me's
// frame) would be printed if it were the only command of the round (SPEC
// §8.4): the target is on the board and not a wall, and either free (and
// not haunted, unless the unit is a witch) or, for a knight, holds an
// enemy farmer or knight. None always works.
func Works(s *State, me, id int, d Dir) bool {
	if d == None {
		return true
	}
	if !Legal(s, me, id, d) {
		return false
	}
	u := &s.Units[id]
	t := u.Pos.Add(d.Rotate(me))
	if !s.OnBoard(t) {
		return false
	}
	c := &s.Grid[t.I*s.Cfg.Cols+t.J]
	switch {
	case c.Type == Wall:
		return false
	case c.ID < 0:
		return u.Type == Witch || !c.Haunted
	}
	v := &s.Units[c.ID]
	return u.Type == Knight && v.Type != Witch && v.Player != u.Player
}

// MoveMask writes the move mask, bool [U, NumDirs], of player me into dst:
// Works for every unit id and direction.
func (ob *Observer) MoveMask(s *State, me int, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*NumDirs]
	for id := 0; id < n; id++ {
		row := dst[id*NumDirs : (id+1)*NumDirs]
		if !mine(s, me, id) {
			clear(row)
			row[None] = 1
			continue
		}
		for d := Bottom; d <= None; d++ {
			row[d] = b2u(Works(s, me, id, d))
		}
	}
}

// specFor describes the spaces of a configuration: boards of up to 255
// rows, whose coordinates fit the observation's bytes.
func specFor(cfg *Config) (env.Spec, error) {
	if cfg.Rows > 255 {
		return env.Spec{}, fmt.Errorf("%w: boards of more than 255 rows do not fit the observation", env.ErrBadSetup)
	}
	u := NumSlots(cfg)
	return env.Spec{
		ObservationVersion: ObservationVersion,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, cfg.Rows, cfg.Cols}, Low: 0, High: 100,
				Description: "planes of the observer's view: terrain, owner, unit, health %, haunted, threat bits",
				Planes: []env.Plane{env.Code("terrain", 2), env.Code("owner", 5), env.Code("unit", 13),
					env.Scalar("health %", 1.0/100), env.Code("haunted", 2), env.Bits("threats", 4)}},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: 255,
				Description: "per unit id: mine, rel owner, type, health %, row, col, on board, active witch",
				Columns: []env.Column{{Name: "mine", Scale: 1}, {Name: "rel owner", Scale: 1.0 / 3}, {Name: "type", Scale: 1.0 / 2},
					{Name: "health %", Scale: 1.0 / 100}, {Name: "row", Scale: 1.0 / float64(cfg.Rows)},
					{Name: "col", Scale: 1.0 / float64(cfg.Cols)}, {Name: "on board", Scale: 1}, {Name: "active witch", Scale: 1}}},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: 1,
				Description: "round, rounds left; per rel player land, total score, farmers, knights (normalized)"},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "directions the engine's validation accepts per unit slot (None always)"},
			{Name: "move_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "legal directions whose move would succeed if executed first (None always)"},
			{Name: "targets", Dtype: env.Bool, Shape: []int{u, TargetFeatures}, Low: 0, High: 1,
				Description: "per unit slot of mine, what Khan walks a unit of its type to (farmers: cells to paint; " +
					"knights: cells next to prey; witches: enemy farmers and knights near my units): the directions " +
					"0..7 that step nearer, and whether the nearest is within 1, 3, 7, 15 steps"},
		},
		OptIn: []env.TensorSpec{expertSpec(u)},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction 0..8 of the observer's frame per unit slot; illegal ones are dropped"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfigText,
		UnitRow:       4,
		UnitCol:       5,
		// Moves the engine keeps but that cannot succeed (into a wall, a
		// unit of mine, a haunted cell) are masked from the policy.
		PolicyMask: "move_mask",
	}, nil
}

// Encode writes player me's observation of s: the tensors of specFor, in
// its order, then its opt-in ones, into obs (nil entries are not computed)
// (game.Encoder).
func (ob *Observer) Encode(s *State, me int, obs [][]byte) {
	for i, dst := range obs {
		if dst == nil {
			continue
		}
		switch i {
		case 0:
			ob.Board(s, me, dst)
		case 1:
			ob.Units(s, me, dst)
		case 2:
			ob.Globals(s, me, dst)
		case 3:
			ob.Mask(s, me, dst)
		case 4:
			ob.MoveMask(s, me, dst)
		case 5:
			ob.targetsOf(s, me, obs[0], dst)
		case 6: // opt-in (specFor's OptIn)
			ob.expert.write(s, me, dst)
		}
	}
}

// signature is what a Dominator policy takes and gives (docs/export.md):
// every observation tensor of dominator-obs-2 (docs/observation.md:
// board, units, globals, action_mask, move_mask and targets; the first
// five for a policy trained on dominator-obs-1) for the default 37 x 37
// board, with any multiple of 4 unit slots, and logits [1, U, 9].
func signature() policy.Signature {
	cfg := DefaultConfig()
	spec, _ := specFor(&cfg)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	v1 := sig
	v1.ObservationVersion = ObservationVersion1
	v1.Inputs = sig.Inputs[:5] // board, units, globals, action_mask, move_mask
	v1.OptIn = nil
	sig.Older = []policy.Signature{v1}
	return sig
}
