package riddick

import "jgym/env/crematoria"

// Static view of the map for the Riddick bot, built once per game, and the
// breadth-first searches it runs every round. Everything is kept on flat
// arrays indexed by "node": the passable (non-Rock) cells of level 0, in
// row-major order. Level 1 has no obstacles, so it needs no search at all:
// distances there are Chebyshev distances.

const (
	rFar     = int16(9999) // distance of unreachable nodes
	rNoNode  = int16(-1)
	rMaxElev = 64
)

// riddickMap is the part of the board that never changes during a game.
type riddickMap struct {
	n      int                          // number of level-0 nodes
	node   [crematoria.LevelCells]int16 // level-0 cell index -> node, -1 for Rock
	cell   []int16                      // node -> level-0 cell index
	row    []int8                       // node -> row
	col    []int8                       // node -> column
	nbr    [][8]int16                   // node -> neighbour node in direction 0..7, or -1
	adj    []int16                      // neighbours of node v: adj[start[v]:start[v+1]]
	start  []int32
	elev   []int16 // elevator index -> node
	elevI  []int   // elevator index -> row
	elevJ  []int   // elevator index -> column
	elevOf []int8  // node -> elevator index, or -1
	// edist[e][v] is the walking distance on level 0 from node v to the
	// elevator e, ignoring units.
	edist [][]int16
}

// newRiddickMap builds the static map from the first state of a game.
func newRiddickMap(s *crematoria.State) *riddickMap {
	m := &riddickMap{}
	for idx := 0; idx < crematoria.LevelCells; idx++ {
		m.node[idx] = rNoNode
		if s.Cells[idx].Type != crematoria.Rock {
			m.node[idx] = int16(len(m.cell))
			m.cell = append(m.cell, int16(idx))
		}
	}
	m.n = len(m.cell)
	m.row = make([]int8, m.n)
	m.col = make([]int8, m.n)
	m.nbr = make([][8]int16, m.n)
	m.elevOf = make([]int8, m.n)
	for v := 0; v < m.n; v++ {
		idx := int(m.cell[v])
		i, j := idx/crematoria.Cols, idx%crematoria.Cols
		m.row[v], m.col[v] = int8(i), int8(j)
		m.elevOf[v] = -1
		for d := crematoria.Bottom; d <= crematoria.LB; d++ {
			q := crematoria.Pos{I: i, J: j}.Add(d) // the column wraps, the row does not
			m.nbr[v][d] = rNoNode
			if q.I >= 0 && q.I < crematoria.Rows {
				m.nbr[v][d] = m.node[q.I*crematoria.Cols+q.J]
			}
		}
		if s.Cells[idx].Type == crematoria.Elevator && len(m.elev) < rMaxElev {
			m.elevOf[v] = int8(len(m.elev))
			m.elev = append(m.elev, int16(v))
			m.elevI = append(m.elevI, i)
			m.elevJ = append(m.elevJ, j)
		}
	}
	m.start = make([]int32, m.n+1)
	for v := 0; v < m.n; v++ {
		m.start[v] = int32(len(m.adj))
		for _, w := range m.nbr[v] {
			if w >= 0 {
				m.adj = append(m.adj, w)
			}
		}
	}
	m.start[m.n] = int32(len(m.adj))
	queue := make([]int16, 0, m.n)
	m.edist = make([][]int16, len(m.elev))
	for e, src := range m.elev {
		dist := make([]int16, m.n)
		m.distances(dist, queue, []int16{src}, nil, rFar)
		m.edist[e] = dist
	}
	return m
}

// distances fills dist with the breadth-first distance from the nearest
// source, through nodes that are not blocked (blocked may be nil), up to
// maxD. Nodes not reached get rFar. queue is scratch space of capacity m.n.
func (m *riddickMap) distances(dist []int16, queue []int16, srcs []int16, blocked []bool, maxD int16) []int16 {
	// Blocked nodes hold -1 during the search, so that one comparison
	// rejects both them and the nodes already reached.
	for v := range dist {
		dist[v] = rFar
	}
	if blocked != nil {
		for v, bl := range blocked {
			if bl {
				dist[v] = -1
			}
		}
	}
	q := queue[:0]
	for _, s := range srcs {
		if dist[s] != 0 {
			dist[s] = 0
			q = append(q, s)
		}
	}
	adj, start := m.adj, m.start
	for h := 0; h < len(q); h++ {
		v := q[h]
		nd := dist[v] + 1
		if nd > maxD {
			break
		}
		for _, n := range adj[start[v]:start[v+1]] {
			if dist[n] <= nd {
				continue
			}
			dist[n] = nd
			q = append(q, n)
		}
	}
	if blocked != nil {
		for v, bl := range blocked {
			if bl && dist[v] < 0 {
				dist[v] = rFar
			}
		}
	}
	return q
}

// voronoi holds the result of a multi-source search: for each source, the
// nearest target among the nodes that source reaches first.
type voronoi struct {
	dist  []int16 // per node
	lab   []int16 // per node: source index that reached it first
	first []int16 // per node: first step from its source towards it
	queue []int16
	// per source
	best  []int16 // target node, or -1
	bestD []int16
	bestV []int8
}

func newVoronoi(n int) *voronoi {
	return &voronoi{
		dist:  make([]int16, n),
		lab:   make([]int16, n),
		first: make([]int16, n),
		queue: make([]int16, 0, n),
	}
}

// run searches from all srcs at once through nodes that are not blocked and
// records, for each source, the nearest node with tval > 0 in the region it
// reaches first (ties go to the higher value(v), or tval[v] if value is nil,
// then to the first found). A
// region stops growing when its source has found its target, and the search
// stops at depth maxD.
func (vo *voronoi) run(m *riddickMap, srcs []int16, tval []int8, value func(int16) int8, blocked []bool, maxD int16) {
	// dist: -1 not reached, -2 blocked, else the distance.
	for v, bl := range blocked {
		vo.dist[v] = -1
		if bl {
			vo.dist[v] = -2
		}
	}
	ns := len(srcs)
	vo.best = resizeI16(vo.best, ns)
	vo.bestD = resizeI16(vo.bestD, ns)
	vo.bestV = resizeI8(vo.bestV, ns)
	q := vo.queue[:0]
	for si, s := range srcs {
		vo.best[si], vo.bestD[si], vo.bestV[si] = -1, -1, 0
		if vo.dist[s] >= 0 {
			continue // two sources on one node: the first one owns it
		}
		vo.dist[s], vo.lab[s], vo.first[s] = 0, int16(si), -1
		q = append(q, s)
	}
	adj, start := m.adj, m.start
	found, maxFound := 0, int16(0)
	for h := 0; h < len(q); h++ {
		v := q[h]
		d := vo.dist[v]
		if d > maxD || (found == ns && d > maxFound) {
			break
		}
		L := vo.lab[v]
		if d > 0 && tval[v] > 0 && (vo.best[L] < 0 || vo.bestD[L] == d) {
			tv := tval[v]
			if value != nil {
				tv = value(v)
			}
			switch {
			case vo.best[L] < 0:
				vo.best[L], vo.bestD[L], vo.bestV[L] = v, d, tv
				found++
				if d > maxFound {
					maxFound = d
				}
			case tv > vo.bestV[L]:
				vo.best[L], vo.bestV[L] = v, tv
			}
		}
		// A region stops growing once its source has found its target,
		// so that the other sources may search further.
		if d == maxD || (vo.best[L] >= 0 && vo.bestD[L] <= d) {
			continue
		}
		f := vo.first[v]
		for _, n := range adj[start[v]:start[v+1]] {
			if vo.dist[n] != -1 {
				continue
			}
			vo.dist[n], vo.lab[n] = d+1, L
			if d == 0 {
				vo.first[n] = n
			} else {
				vo.first[n] = f
			}
			q = append(q, n)
		}
	}
	vo.queue = q
}

// step returns the first step of source si towards its target, or -1.
func (vo *voronoi) step(si int) int16 {
	if b := vo.best[si]; b >= 0 {
		return vo.first[b]
	}
	return -1
}

func resizeI16(s []int16, n int) []int16 {
	if cap(s) < n {
		return make([]int16, n)
	}
	return s[:n]
}

func resizeI8(s []int8, n int) []int8 {
	if cap(s) < n {
		return make([]int8, n)
	}
	return s[:n]
}

// chebIJ is the Chebyshev distance between (i1, j1) and (i2, j2) with the
// horizontal wrap-around.
func chebIJ(i1, j1, i2, j2 int) int {
	v := i1 - i2
	if v < 0 {
		v = -v
	}
	h := j1 - j2
	if h < 0 {
		h = -h
	}
	if crematoria.Cols-h < h {
		h = crematoria.Cols - h
	}
	if v > h {
		return v
	}
	return h
}

// colDelta is the signed shortest column offset from j1 to j2, in
// [-Cols/2, Cols/2).
func colDelta(j1, j2 int) int {
	d := ((j2-j1)%crematoria.Cols + crematoria.Cols) % crematoria.Cols
	if d >= crematoria.Cols/2 {
		d -= crematoria.Cols
	}
	return d
}
