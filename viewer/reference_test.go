package viewer

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// refTrace reads what the browser tests check straight from a trace's text,
// line by line as each SPEC §10 lays the file out, independently of the
// page's parser: the settings, names, scores, grids, units and the colour
// every cell must be drawn in.
type refTrace struct {
	t         *testing.T
	game      string
	lines     []string
	settings  map[string]int
	names     []string
	rounds    int
	rows      int
	cols      int
	nbUnits   int
	roundLine map[int]int // index in lines of "round r"
}

// refUnit is a unit as a state block lists it (level is 0 but in Crematoria).
type refUnit struct {
	id, owner, i, j, health, level int
	typ                            string
}

func readRef(t *testing.T, game string, text []byte) *refTrace {
	t.Helper()
	tr := &refTrace{t: t, game: game, lines: strings.Split(string(text), "\n"),
		settings: map[string]int{}, roundLine: map[int]int{}}
	for k, line := range tr.lines {
		f := strings.Fields(line)
		switch {
		case len(f) > 1 && f[0] == "names" && tr.names == nil:
			tr.names = f[1:]
		case len(f) == 2 && tr.names == nil:
			if v, err := strconv.Atoi(f[1]); err == nil {
				tr.settings[f[0]] = v
			}
		case len(f) == 2 && f[0] == "round":
			r, _ := strconv.Atoi(f[1])
			tr.roundLine[r] = k
		}
	}
	s := tr.settings
	tr.rounds, tr.rows, tr.cols = s["nb_rounds"], s["rows"], s["cols"]
	p := s["nb_players"]
	switch game {
	case "Crematoria":
		tr.nbUnits = p*(s["nb_furyans"]+s["nb_pioneers"]) + s["max_nb_necromongers"] + s["nb_hellhounds"]
	case "Dominator":
		tr.nbUnits = p * (s["nb_farmers"] + s["nb_knights"] + s["nb_witches"])
	case "Pandemic":
		tr.nbUnits = p * s["nb_units"]
	case "Moria":
		tr.nbUnits = p*(s["nb_dwarves"]+s["nb_wizards"]) + s["max_nb_orcs"] + s["nb_trolls"] + 1
	}
	if tr.rows == 0 || len(tr.names) != p || tr.nbUnits == 0 {
		t.Fatalf("%s: cannot read the header (rows %d, names %v, units %d)", game, tr.rows, tr.names, tr.nbUnits)
	}
	return tr
}

// line returns the fields of the line k lines after "round r".
func (tr *refTrace) line(r, k int) []string {
	tr.t.Helper()
	l, ok := tr.roundLine[r]
	if !ok {
		tr.t.Fatalf("%s: round %d not found in the trace", tr.game, r)
	}
	return strings.Fields(tr.lines[l+k])
}

// lineAfter returns the fields of the first line after "round r" whose first
// field is key, and its index.
func (tr *refTrace) lineAfter(r int, key string) ([]string, int) {
	tr.t.Helper()
	for k := tr.roundLine[r] + 1; k < len(tr.lines); k++ {
		if f := strings.Fields(tr.lines[k]); len(f) > 0 && f[0] == key {
			return f, k
		}
	}
	tr.t.Fatalf("%s: no %q after round %d", tr.game, key, r)
	return nil, 0
}

// atoi converts a number of a reference trace (they are all well formed).
func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return v
}

func atois(f []string) []int {
	out := make([]int, len(f))
	for k, s := range f {
		out[k] = atoi(s)
	}
	return out
}

// scores returns the players' scores at round r by each game's rule.
func (tr *refTrace) scores(r int) []int {
	switch tr.game {
	case "Crematoria", "Moria":
		value := tr.settings["gem_value"]
		if tr.game == "Moria" {
			value = tr.settings["treasure_value"]
		}
		cells, extra := atois(tr.line(r, 1)[1:]), atois(tr.line(r, 2)[1:])
		for p := range cells {
			cells[p] += value * extra[p]
		}
		return cells
	default: // Dominator, Pandemic: the running total_score
		f, _ := tr.lineAfter(r, "total_score")
		return atois(f[1:])
	}
}

// detail returns a piece of text player p's scoreboard line must hold at round r.
func (tr *refTrace) detail(r, p int) string {
	switch tr.game {
	case "Crematoria":
		return tr.line(r, 1)[1+p] + " cell"
	case "Dominator":
		return "land " + tr.line(r, 1)[1+p] + " "
	case "Moria":
		return tr.line(r, 1)[1+p] + " cells · " + tr.line(r, 2)[1+p] + " treasure"
	default: // Pandemic: units owned
		n := 0
		for _, u := range tr.units(r) {
			if u.owner == p {
				n++
			}
		}
		return strconv.Itoa(n) + " units"
	}
}

// grid returns the board rows of round r (level 0 in Crematoria).
func (tr *refTrace) grid(r int) []string {
	l := tr.roundLine[r]
	switch tr.game {
	case "Crematoria":
		return tr.lines[l-1-2*tr.rows : l-1-tr.rows]
	case "Pandemic":
		// The rows follow the two column-label lines of the state block;
		// searching back from "round r" finds the second one first.
		k := l
		for !strings.HasPrefix(tr.lines[k], "   0") {
			k--
		}
		var out []string
		for _, line := range tr.lines[k+1 : k+1+tr.rows] {
			out = append(out, strings.Fields(line)[1])
		}
		return out
	default:
		return tr.lines[l-1-tr.rows : l-1]
	}
}

// units returns the units of round r.
func (tr *refTrace) units(r int) []refUnit {
	var out []refUnit
	switch tr.game {
	case "Pandemic":
		_, k := tr.lineAfter(r, "units")
		for id := 0; id < tr.nbUnits; id++ {
			v := atois(strings.Fields(tr.lines[k+1+id]))
			out = append(out, refUnit{id: id, owner: v[0], i: v[1], j: v[2], health: v[3], typ: "u"})
		}
	case "Crematoria": // type group health turns i j k
		for id := 0; id < tr.nbUnits; id++ {
			f := tr.line(r, 4+id)
			v := atois(f[1:])
			out = append(out, refUnit{id: id, typ: f[0], owner: v[0], health: v[1], i: v[3], j: v[4], level: v[5]})
		}
	default: // type player i j health
		for id := 0; id < tr.nbUnits; id++ {
			f := tr.line(r, 4+id)
			v := atois(f[1:])
			out = append(out, refUnit{id: id, typ: f[0], owner: v[0], i: v[1], j: v[2], health: v[3]})
		}
	}
	return out
}

// pandemicOwners maps every city and path cell of round r to its owner.
func (tr *refTrace) pandemicOwners(r int) map[[2]int]int {
	l := tr.roundLine[r]
	k := l
	for !strings.HasPrefix(tr.lines[k], "cities ") {
		k--
	}
	var tok []string
	for _, line := range tr.lines[k:l] {
		tok = append(tok, strings.Fields(line)...)
	}
	cityOwners := strings.Fields(tr.lines[tr.roundLineOf("city_owners", r)+1])
	pathOwners := strings.Fields(tr.lines[tr.roundLineOf("path_owners", r)+1])
	owners := map[[2]int]int{}
	pos := 1
	n := atoi(tok[pos])
	pos++
	for c := 0; c < n; c++ {
		size := atoi(tok[pos])
		pos++
		for x := 0; x < size; x++ {
			owners[[2]int{atoi(tok[pos]), atoi(tok[pos+1])}] = atoi(cityOwners[c])
			pos += 2
		}
	}
	if tok[pos] != "paths" {
		tr.t.Fatalf("Pandemic round %d: expected paths, found %q", r, tok[pos])
	}
	n = atoi(tok[pos+1])
	pos += 2
	for c := 0; c < n; c++ {
		size := atoi(tok[pos+2])
		pos += 3
		for x := 0; x < size; x++ {
			owners[[2]int{atoi(tok[pos]), atoi(tok[pos+1])}] = atoi(pathOwners[c])
			pos += 2
		}
	}
	return owners
}

// roundLineOf is the index of the first line starting with key after "round r".
func (tr *refTrace) roundLineOf(key string, r int) int {
	_, k := tr.lineAfter(r, key)
	return k
}

// pandemicMasks returns the mask cells of round r.
func (tr *refTrace) pandemicMasks(r int) map[[2]int]bool {
	l := tr.roundLine[r]
	k := l
	for !strings.HasPrefix(tr.lines[k], "masks ") {
		k--
	}
	out := map[[2]int]bool{}
	for _, line := range tr.lines[k+1 : l] {
		if f := strings.Fields(line); len(f) == 2 {
			out[[2]int{atoi(f[0]), atoi(f[1])}] = true
		}
	}
	return out
}

// Terrain colours drawn by static/games/*.js (keep in sync); Crematoria's
// rock and the player colours are declared in viewer_test.go.
var (
	caveColor    = rgb(0xdacdb3) // Crematoria and Moria caves
	wallColor    = rgb(0x36302b) // Dominator and Pandemic walls, Moria rock
	fieldColor   = rgb(0xd9d0bb) // Dominator free cell
	grassColor   = rgb(0xd9d3c3) // Pandemic
	cityColor    = rgb(0x7d8796)
	pathColor    = rgb(0xa89677)
	outsideColor = rgb(0x1c2333) // Moria
	graniteColor = rgb(0x75787e)
	abyssColor   = rgb(0x0a0a0f)
)

// cellCheck is a cell of the first board whose centre pixel must have colour want.
type cellCheck struct {
	i, j int
	want rgbColor
	what string
}

// cellChecks lists, for round r, the cells whose centre must show the plain
// terrain colour (the cells no unit, overlay or sprite can reach) and the
// cells whose centre must show a unit's owner colour.
func (tr *refTrace) cellChecks(r int) (terrain, units []cellCheck) {
	grid := tr.grid(r)
	near := make([][]bool, tr.rows) // cells a drawing other than the terrain may cover
	for i := range near {
		near[i] = make([]bool, tr.cols)
	}
	mark := func(ci, cj, radius int) {
		for i := ci - radius; i <= ci+radius; i++ {
			for j := cj - radius; j <= cj+radius; j++ {
				if i >= 0 && j >= 0 && i < tr.rows && j < tr.cols {
					near[i][j] = true
				}
			}
		}
	}
	count := map[[2]int]int{}
	all := tr.units(r)
	for _, u := range all {
		if u.i < 0 || u.j < 0 || u.i >= tr.rows || u.j >= tr.cols || u.level != 0 {
			continue
		}
		count[[2]int{u.i, u.j}]++
		switch {
		case tr.game == "Dominator", tr.game == "Crematoria":
			mark(u.i, u.j, 2) // witches' haunted areas, hellhounds' kill zones
		case tr.game == "Moria" && u.typ == "b":
			mark(u.i, u.j, 2) // the Balrog's kill zone
		default:
			mark(u.i, u.j, 0)
		}
	}
	var owners map[[2]int]int
	var masks map[[2]int]bool
	if tr.game == "Pandemic" {
		owners, masks = tr.pandemicOwners(r), tr.pandemicMasks(r)
		for m := range masks {
			mark(m[0], m[1], 0)
		}
	}
	for i, row := range grid {
		for j := 0; j < len(row); j++ {
			if near[i][j] {
				continue
			}
			c := row[j]
			want, ok := tr.terrainColor(c, owners[[2]int{i, j}])
			if ok {
				terrain = append(terrain, cellCheck{i, j, want, string(c)})
			}
		}
	}
	for _, u := range all {
		if u.i < 0 || u.j < 0 || u.i >= tr.rows || u.j >= tr.cols || u.level != 0 || count[[2]int{u.i, u.j}] != 1 {
			continue
		}
		switch {
		case tr.game == "Crematoria" && (u.typ == "p" || u.typ == "f") && u.health > 0,
			tr.game == "Dominator" && u.typ != "w" && grid[u.i][u.j] != 'X',
			tr.game == "Pandemic",
			tr.game == "Moria" && (u.typ == "d" || u.typ == "w") && u.health > 0:
			units = append(units, cellCheck{u.i, u.j, playerColors[u.owner], fmt.Sprintf("%s #%d of P%d", u.typ, u.id, u.owner)})
		}
	}
	return terrain, units
}

// terrainColor is the colour of cell character c (owner: of a Pandemic city
// or path cell), and false for characters drawn with more than one colour.
func (tr *refTrace) terrainColor(c byte, owner int) (rgbColor, bool) {
	digit := c >= '0' && c <= '9'
	switch tr.game {
	case "Crematoria":
		switch {
		case c == 'R':
			return rockColor, true
		case c == 'C':
			return caveColor, true
		case digit:
			return ownedColors[c-'0'], true
		}
	case "Dominator":
		switch {
		case c == 'X':
			return wallColor, true
		case c == '.':
			return fieldColor, true
		case digit:
			return ownedColors[c-'0'], true
		}
	case "Pandemic": // virus-free cells only
		switch c {
		case 'W':
			return wallColor, true
		case '.':
			return grassColor, true
		case ';', ',':
			if owner >= 0 {
				return ownedColors[owner], true
			}
			if c == ';' {
				return cityColor, true
			}
			return pathColor, true
		}
	case "Moria":
		switch {
		case c == 'O':
			return outsideColor, true
		case c == 'C':
			return caveColor, true
		case c == 'G':
			return graniteColor, true
		case c == 'R':
			return wallColor, true
		case c == 'A':
			return abyssColor, true
		case digit:
			return ownedColors[c-'0'], true
		}
	}
	return rgbColor{}, false
}
