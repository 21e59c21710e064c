package riddick

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"jgym/env/crematoria"
	"jgym/game"
)

// checkedBot wraps a bot and fails the test when one of its rounds gives an
// order that the player-side filter or the engine would drop, or a move
// that cannot work (Up or Down off an elevator).
type checkedBot struct {
	crematoria.Bot
	t    *testing.T
	me   int
	name string
	cmds int
}

func (c *checkedBot) Play(s *crematoria.State, o *crematoria.Orders) {
	c.Bot.Play(s, o)
	t := c.t
	if o.Warnings != 0 {
		t.Errorf("%s seat %d round %d: %d orders dropped by the filter (duplicate id, id -1 or bad direction)", c.name, c.me, s.Round, o.Warnings)
	}
	if o.Count() > game.MaxCommands || o.Count() != len(o.List()) {
		t.Errorf("%s seat %d round %d: %d calls for %d orders", c.name, c.me, s.Round, o.Count(), len(o.List()))
	}
	for _, cmd := range o.List() {
		c.cmds++
		switch {
		case !s.ValidID(cmd.ID):
			t.Errorf("%s seat %d round %d: order for invalid id %d", c.name, c.me, s.Round, cmd.ID)
		case s.Units[cmd.ID].Player != c.me:
			t.Errorf("%s seat %d round %d: order for unit %d of group %d", c.name, c.me, s.Round, cmd.ID, s.Units[cmd.ID].Player)
		case !cmd.Dir.Valid() || cmd.Dir == crematoria.None:
			t.Errorf("%s seat %d round %d: direction %v", c.name, c.me, s.Round, cmd.Dir)
		case cmd.Dir == crematoria.Up || cmd.Dir == crematoria.Down:
			u := &s.Units[cmd.ID]
			if s.Cell(u.Pos).Type != crematoria.Elevator || (cmd.Dir == crematoria.Up) != (u.Pos.K == 0) {
				t.Errorf("%s seat %d round %d: %v from %v, not an elevator", c.name, c.me, s.Round, cmd.Dir, u.Pos)
			}
		}
	}
}

// edgeConfigs holds the course engine's edge-case configurations.
const edgeConfigs = "../../../testdata/crematoria/traces/edge"

func loadEdgeConfig(t *testing.T, name string) crematoria.Config {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(edgeConfigs, name))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := crematoria.ParseConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// playChecked plays one game with the named bots; the Riddick seats are
// checked.
func playChecked(t *testing.T, cfg crematoria.Config, seed int, names [crematoria.NumPlayers]string) *crematoria.Match {
	t.Helper()
	var bots [crematoria.NumPlayers]crematoria.Bot
	for p, n := range names {
		f, err := crematoria.Def.Bots.Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = f(p, seed)
		if n == "Riddick" {
			bots[p] = &checkedBot{Bot: bots[p], t: t, me: p, name: n}
		}
	}
	m, err := crematoria.Def.NewMatch(cfg, seed, names, bots)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("seed %d %v: %v", seed, names, err)
	}
	for p, b := range bots {
		if c, ok := b.(*checkedBot); ok && c.cmds == 0 {
			t.Errorf("seed %d: Riddick in seat %d gave no orders", seed, p)
		}
	}
	return m
}

func TestRiddickGivesCleanOrders(t *testing.T) {
	cases := []struct {
		name  string
		cfg   string // edge configuration, "" for the default
		seed  int
		names [crematoria.NumPlayers]string
	}{
		{"mirror", "", 1, [4]string{"Riddick", "Riddick", "Riddick", "Riddick"}},
		{"mirror 2", "", 13, [4]string{"Riddick", "Riddick", "Riddick", "Riddick"}},
		{"vs Demo", "", 2, [4]string{"Demo", "Riddick", "Demo", "Demo"}},
		{"vs Null", "", 3, [4]string{"Null", "Null", "Riddick", "Null"}},
		{"alt config", "alt.cnf", 3, [4]string{"Riddick", "Demo", "Riddick", "Null"}},
		{"23 elevators", "elev23.cnf", 2, [4]string{"Riddick", "Riddick", "Demo", "Riddick"}},
		{"fixed map", "fixed.cnf", 9, [4]string{"Demo", "Riddick", "Riddick", "Null"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := crematoria.DefaultConfig()
			if tc.cfg != "" {
				cfg = loadEdgeConfig(t, tc.cfg)
				if tc.cfg == "elev23.cnf" {
					cfg.NbRounds = 120
				}
			}
			playChecked(t, cfg, tc.seed, tc.names)
		})
	}
}

func TestRiddickIsDeterministic(t *testing.T) {
	trace := func() []byte {
		m, err := crematoria.Def.NewBotMatch(crematoria.DefaultConfig(), 5, [4]string{"Riddick", "Demo", "Riddick", "Riddick"})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		m.WriteTrace(&buf)
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := trace(), trace()
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
}

func TestRiddickBeatsDemos(t *testing.T) {
	for seat := 0; seat < crematoria.NumPlayers; seat++ {
		names := [4]string{"Demo", "Demo", "Demo", "Demo"}
		names[seat] = "Riddick"
		seed := 100 + seat
		m := playChecked(t, crematoria.DefaultConfig(), seed, names)
		w := m.Game.Winners()
		if len(w) != 1 || w[0] != seat {
			t.Errorf("seed %d: Riddick in seat %d, scores %v", seed, seat, m.Scores())
		}
	}
}

func TestNightBand(t *testing.T) {
	// xrel agrees with Daylight: 0..39 is night, the rest is daylight.
	for r := 0; r < 120; r += 7 {
		for j := 0; j < crematoria.Cols; j++ {
			x := xrel(j, r)
			if day := crematoria.Daylight(crematoria.Pos{I: 0, J: j, K: 1}, r); day != (x > 39) {
				t.Fatalf("round %d column %d: xrel %d, daylight %v", r, j, x, day)
			}
		}
		// The burning columns at the end of the round are x = 0 and 1.
		if t1 := crematoria.NightStart(r); xrel(t1, r) != 0 || xrel(t1+1, r) != 1 {
			t.Fatalf("round %d: burning columns %d, %d", r, t1, t1+1)
		}
	}
}

func TestRiddickGeometry(t *testing.T) {
	for _, tc := range []struct{ i1, j1, i2, j2, cheb, delta int }{
		{0, 0, 0, 0, 0, 0},
		{5, 10, 7, 13, 3, 3},
		{5, 78, 5, 1, 3, 3},
		{5, 1, 5, 78, 3, -3},
		{0, 0, 39, 40, 40, -40},
		{2, 20, 9, 19, 7, -1},
	} {
		if c := chebIJ(tc.i1, tc.j1, tc.i2, tc.j2); c != tc.cheb || c != crematoria.Cheb(crematoria.Pos{I: tc.i1, J: tc.j1, K: 0}, crematoria.Pos{I: tc.i2, J: tc.j2, K: 1}) {
			t.Errorf("chebIJ(%d,%d,%d,%d) = %d, want %d", tc.i1, tc.j1, tc.i2, tc.j2, c, tc.cheb)
		}
		if d := colDelta(tc.j1, tc.j2); d != tc.delta {
			t.Errorf("colDelta(%d, %d) = %d, want %d", tc.j1, tc.j2, d, tc.delta)
		}
	}
	for _, tc := range []struct {
		h    int
		want float64
	}{{50, 1.0 / 26}, {25, 1}, {10, 1}, {51, 0}, {38, 13.0 / 26}} {
		if got := killChance(tc.h); got != tc.want {
			t.Errorf("killChance(%d) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

// TestRiddickMap checks the static map against the board: neighbours and
// elevator distances.
func TestRiddickMap(t *testing.T) {
	g, err := crematoria.New(crematoria.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	m := newRiddickMap(&g.State)
	if len(m.elev) != g.Cfg.NbElevators {
		t.Fatalf("%d elevators, want %d", len(m.elev), g.Cfg.NbElevators)
	}
	for v := 0; v < m.n; v++ {
		p := crematoria.PosOf(int(m.cell[v]))
		for d := crematoria.Bottom; d <= crematoria.LB; d++ {
			q := p.Add(d)
			want := rNoNode
			if q.OnBoard() && g.Cells[q.Index()].Type != crematoria.Rock {
				want = m.node[q.Index()]
			}
			if m.nbr[v][d] != want {
				t.Fatalf("node %d %v direction %v: neighbour %d, want %d", v, p, d, m.nbr[v][d], want)
			}
		}
	}
	for e, ev := range m.elev {
		if m.edist[e][ev] != 0 {
			t.Errorf("elevator %d: distance to itself %d", e, m.edist[e][ev])
		}
		// Distances change by at most one between neighbours, and every
		// node but the elevator has a neighbour one step closer.
		for v := 0; v < m.n; v++ {
			dv := m.edist[e][v]
			if dv == rFar {
				t.Fatalf("elevator %d: node %d unreachable, caves are connected", e, v)
			}
			closer := dv == 0
			for _, w := range m.nbr[v] {
				if w < 0 {
					continue
				}
				if dw := m.edist[e][w]; dw < dv-1 || dw > dv+1 {
					t.Fatalf("elevator %d: nodes %d and %d at %d and %d", e, v, w, dv, dw)
				} else if dw == dv-1 {
					closer = true
				}
			}
			if !closer {
				t.Fatalf("elevator %d: node %d at %d has no closer neighbour", e, v, dv)
			}
		}
	}
}

func BenchmarkRiddickGame(b *testing.B) {
	for _, names := range [][4]string{
		{"Riddick", "Riddick", "Riddick", "Riddick"},
		{"Riddick", "Demo", "Demo", "Demo"},
	} {
		b.Run(names[0]+"-"+names[1], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m, err := crematoria.Def.NewBotMatch(crematoria.DefaultConfig(), 1+i%20, names)
				if err != nil {
					b.Fatal(err)
				}
				if err := m.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
