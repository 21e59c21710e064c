package pandemic

// The targets tensor of pandemic-obs-2 (docs/observation.md): for each
// unit of the observing seat, which of its four steps walk towards the
// kinds of target Pasteur sends units to, and how far the nearest of each
// kind is. The board tensor shows a network the cells around a unit; the
// cities, paths and masks it should walk to lie mostly beyond what it
// reads (the local network's crop), and the way there goes round walls:
// these are the walking distances Pasteur computes (pasteur.go).

// Target kinds of the targets tensor, in the order of its column groups.
const (
	// TargetCity: the cells of the cities the seat needs more units on:
	// not its own, or its own with an enemy unit on it, and fewer of its
	// units there than the strongest enemy's (one more when not its own).
	TargetCity = iota
	// TargetPath: the same for the paths.
	TargetPath
	// TargetBridge: the paths of TargetPath whose two cities are the
	// seat's (taking one joins two components).
	TargetBridge
	// TargetMask: the masks on the ground.
	TargetMask
	// TargetEnemy: the other players' units.
	TargetEnemy
	// NumTargetKinds is the number of target kinds.
	NumTargetKinds
)

// Columns of one target kind's group in the targets tensor: the four
// steps (Bottom, Right, Top, Left: a step to a cell nearer the target
// kind, walking through non-wall cells), then three distance bands.
const (
	TargetNear2   = 4 // the nearest is at most 2 steps away
	TargetNear6   = 5 // at most 6
	TargetNear15  = 6 // at most 15
	TargetColumns = 7 // columns per target kind
	// TargetFeatures is the number of columns of the targets tensor.
	TargetFeatures = NumTargetKinds * TargetColumns
)

// targetFields is the Observer's scratch space for the targets tensor.
// The walking distances to cities and paths come from the per-city and
// per-path fields of the map (pasteurMap, made once per map, as Pasteur
// does): the distance to the nearest of some cities is the least of
// theirs. Masks and enemy units move, and get a search each call.
type targetFields struct {
	walk           pasteurMap
	m              *pasteurMap // the map's fields, made for the static slices below
	types          []CellType
	cityOf, pathOf []int32
	count          [][NumPlayers]int16 // units of each player per city then path
	need           [TargetMask][]int   // the cities (TargetCity) or paths needed, per kind
	srcs           [NumTargetKinds][]Pos
	dist           [NumTargetKinds][]int16
}

// mapFields returns the distance fields of s's map, made again when s
// plays on another map (State's static slices, shared between copies).
func (tf *targetFields) mapFields(s *State) *pasteurMap {
	if tf.m == nil || !same(tf.types, s.Types) || !same(tf.cityOf, s.CityOf) || !same(tf.pathOf, s.PathOf) ||
		tf.m.rows != s.Rows || tf.m.cols != s.Cols {
		tf.m = newPasteurMap(s)
		tf.types, tf.cityOf, tf.pathOf = s.Types, s.CityOf, s.PathOf
	}
	return tf.m
}

// distAt is the walking distance from cell idx to the nearest target of
// kind k, -1 if none is reachable.
func (tf *targetFields) distAt(k, idx int) int16 {
	if k >= TargetMask {
		return tf.dist[k][idx]
	}
	fields := tf.m.pathDist
	if k == TargetCity {
		fields = tf.m.cityDist
	}
	best := int16(-1)
	for _, t := range tf.need[k] {
		if d := fields[t][idx]; d >= 0 && (best < 0 || d < best) {
			best = d
		}
	}
	return best
}

// Targets writes the targets tensor, bool [U, TargetFeatures], of seat me
// into dst (len U*TargetFeatures): for each unit of me on the board, per
// target kind (TargetCity ...), whether each step gets one closer to the
// nearest target of that kind, and the distance bands of the nearest; the
// other slots are all false.
func (ob *Observer) Targets(s *State, me int, dst []byte) {
	n := len(s.Units)
	dst = dst[:n*TargetFeatures]
	clear(dst)
	if len(s.PlayerUnits[me]) == 0 {
		return
	}
	tf := &ob.targets
	tf.mapFields(s)
	tf.sources(s, me)
	tf.walk.rows, tf.walk.cols = s.Rows, s.Cols
	for k := TargetMask; k < NumTargetKinds; k++ {
		tf.dist[k] = tf.walk.field(s, tf.srcs[k], tf.dist[k])
	}
	for _, id := range s.PlayerUnits[me] {
		u := &s.Units[id]
		if !s.OnBoard(u.Pos) {
			continue
		}
		here := s.Idx(u.Pos)
		row := dst[id*TargetFeatures : (id+1)*TargetFeatures]
		for k := 0; k < NumTargetKinds; k++ {
			g := row[k*TargetColumns : (k+1)*TargetColumns]
			cur := tf.distAt(k, here)
			if cur < 0 {
				continue
			}
			g[TargetNear2] = b2u(cur <= 2)
			g[TargetNear6] = b2u(cur <= 6)
			g[TargetNear15] = b2u(cur <= 15)
			for d := Bottom; d < None; d++ {
				if q := u.Pos.Add(d); s.OnBoard(q) {
					if f := tf.distAt(k, s.Idx(q)); f >= 0 && f < cur {
						g[d] = 1
					}
				}
			}
		}
	}
}

// sources lists the cities and paths seat me needs (need) and the cells of
// the masks and of the other players' units (srcs).
func (tf *targetFields) sources(s *State, me int) {
	nc := len(s.Cities)
	tf.count = unitsOn(s, tf.count)
	for k := range tf.srcs {
		tf.srcs[k] = tf.srcs[k][:0]
	}
	for id := range s.Units {
		if u := &s.Units[id]; u.Player != me && s.OnBoard(u.Pos) {
			tf.srcs[TargetEnemy] = append(tf.srcs[TargetEnemy], u.Pos)
		}
	}
	// needed reports whether target t (a city, or nc + a path) owned by
	// owner needs more of me's units: Pasteur's count.
	needed := func(t, owner int) bool {
		return int(tf.count[t][me]) < unitsNeeded(&tf.count[t], owner, me)
	}
	for k := range tf.need {
		tf.need[k] = tf.need[k][:0]
	}
	for k := range s.Cities {
		if needed(k, s.CityOwner[k]) {
			tf.need[TargetCity] = append(tf.need[TargetCity], k)
		}
	}
	for k := range s.Paths {
		pa := &s.Paths[k]
		if !needed(nc+k, s.PathOwner[k]) {
			continue
		}
		tf.need[TargetPath] = append(tf.need[TargetPath], k)
		if s.CityOwner[pa.A] == me && s.CityOwner[pa.B] == me {
			tf.need[TargetBridge] = append(tf.need[TargetBridge], k)
		}
	}
	for _, p := range s.Masks {
		if s.OnBoard(p) {
			tf.srcs[TargetMask] = append(tf.srcs[TargetMask], p)
		}
	}
}
