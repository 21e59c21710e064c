package toy

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"jgym/game"
)

// board builds a game of one unit per player (or as many as units) on the
// grid's picture ('#' walls, '.' free), the units at cells (row, col) in
// id order; its generator is the seed's.
func board(t *testing.T, units int, pic []string, at ...[2]int) *Game {
	t.Helper()
	cfg := Config{NbRounds: 5, Rows: len(pic), Cols: len(pic[0]), Units: units, Walls: strings.Count(strings.Join(pic, ""), "#"), Capture: 5}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	g := &Game{rng: NewRand(9), moved: make([]bool, len(at))}
	g.Cfg = &cfg
	g.Grid = []byte(strings.Join(pic, ""))
	for id, rc := range at {
		g.Units = append(g.Units, Unit{Player: id / units, Row: rc[0], Col: rc[1]})
	}
	if !g.place() {
		t.Fatal("units overlap")
	}
	return g
}

func pos(g *Game, id int) [2]int { return [2]int{g.Units[id].Row, g.Units[id].Col} }

// The commands are taken in turns from player round mod 4: in round 0
// player 0's unit captures player 1's, whose own command is then ignored;
// in round 1 player 1 moves first and captures player 0's unit. The
// captured unit lands on the first free cell the game's generator draws.
func TestTurnsAndCapture(t *testing.T) {
	pic := []string{"....", "....", ".#..", "...."}
	for _, tc := range []struct {
		round          int
		winner, victim int
		moves          []Command
		capturerEndsAt [2]int
		wantCaptures   [NumPlayers]int
	}{
		{0, 0, 1, []Command{{ID: 0, Dir: Right}}, [2]int{0, 1}, [NumPlayers]int{1, 0, 0, 0}},
		{1, 1, 0, []Command{{ID: 1, Dir: Left}}, [2]int{0, 0}, [NumPlayers]int{0, 1, 0, 0}},
	} {
		g := board(t, 1, pic, [2]int{0, 0}, [2]int{0, 1}, [2]int{3, 0}, [2]int{3, 3})
		g.Round = tc.round
		// The draw the rules make: cells until a free one (no wall, no
		// unit, the capturer already moved in).
		rng := g.rng
		var want [2]int
		for {
			i := rng.Intn(16)
			r, c := i/4, i%4
			if pic[r][c] == '.' && [2]int{r, c} != tc.capturerEndsAt && [2]int{r, c} != [2]int{3, 0} && [2]int{r, c} != [2]int{3, 3} {
				want = [2]int{r, c}
				break
			}
		}
		cmds := [NumPlayers][]Command{{{ID: 0, Dir: Right}}, {{ID: 1, Dir: Left}}, nil, {{ID: 3, Dir: Up}}}
		if err := g.Step(&cmds); err != nil {
			t.Fatal(err)
		}
		if pos(g, tc.winner) != tc.capturerEndsAt || pos(g, tc.victim) != want || g.Captures != tc.wantCaptures {
			t.Errorf("round %d: capturer at %v, captured at %v, captures %v; want %v, %v, %v",
				tc.round, pos(g, tc.winner), pos(g, tc.victim), g.Captures, tc.capturerEndsAt, want, tc.wantCaptures)
		}
		// Player 3's move is printed after the capture in round 0 (turns
		// 0, 1, 3) and before it in round 1 (turns 1, 2, 3, 0).
		wantMoves := append(tc.moves, Command{ID: 3, Dir: Up})
		if tc.round == 1 {
			wantMoves = []Command{{ID: 1, Dir: Left}, {ID: 3, Dir: Up}}
		}
		if !equalCmds(g.Moves, wantMoves) {
			t.Errorf("round %d: moves %v, want %v", tc.round, g.Moves, wantMoves)
		}
	}
}

func equalCmds(a, b []Command) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Commands into a wall, off the board, onto one's own unit, for another
// player's unit, a unit's second command and other directions are
// ignored; then the units paint their cells, and the scores count the
// cells and the captures.
func TestIgnoredMovesAndPaint(t *testing.T) {
	pic := []string{".#...", ".....", ".....", "....."}
	// Two units each: player 0 has units 0, 1; player 1 units 2, 3; ...
	g := board(t, 2, pic, [2]int{0, 0}, [2]int{1, 0}, [2]int{0, 4}, [2]int{3, 4}, [2]int{2, 1}, [2]int{2, 2}, [2]int{3, 0}, [2]int{1, 4})
	cmds := [NumPlayers][]Command{
		{{ID: 0, Dir: Right}, {ID: 0, Dir: Down}, {ID: 1, Dir: Left}, {ID: 2, Dir: Down}}, // wall, own unit, off the board, not its unit
		{{ID: 2, Dir: Up}, {ID: 3, Dir: Left}, {ID: 3, Dir: Up}},                          // off the board; moves; a second command
		{{ID: 4, Dir: Right}, {ID: 5, Dir: None}},                                         // own unit; not a move
		{{ID: 7, Dir: Left}}, // moves
	}
	if err := g.Step(&cmds); err != nil {
		t.Fatal(err)
	}
	// Turns: 0, 1, 2, 3 (7 moves), then 0, 1 (3 moves), 2, then 0, 1, then 0.
	want := []Command{{ID: 7, Dir: Left}, {ID: 3, Dir: Left}}
	if !equalCmds(g.Moves, want) {
		t.Errorf("moves %v, want %v", g.Moves, want)
	}
	wantGrid := "a#..b" + "a..d." + ".cc.." + "d..b."
	if string(g.Grid) != wantGrid {
		t.Errorf("grid %q, want %q", g.Grid, wantGrid)
	}
	g.Captures = [NumPlayers]int{0, 2, 0, 1}
	if got, want := g.Scores(), [NumPlayers]int{2, 2 + 10, 2, 2 + 5}; got != want {
		t.Errorf("scores %v, want %v", got, want)
	}
}

// A command naming a unit that does not exist aborts the round before
// anything moves; a match ends there, its trace after the last state,
// which Verify rejects as incomplete without the commands and accepts
// with them.
func TestAbort(t *testing.T) {
	g := board(t, 1, []string{"....", "....", "....", "...."}, [2]int{0, 0}, [2]int{0, 3}, [2]int{3, 0}, [2]int{3, 3})
	cmds := [NumPlayers][]Command{{{ID: 0, Dir: Right}}, {{ID: 4, Dir: Left}}}
	err := g.Step(&cmds)
	if !errors.Is(err, ErrBadUnit) || !errors.Is(err, game.ErrAbort) || g.Round != 0 || pos(g, 0) != [2]int{0, 0} {
		t.Fatalf("Step = %v, round %d, unit 0 at %v; want ErrBadUnit before any move", err, g.Round, pos(g, 0))
	}

	m, err := Def.NewMatch(smallConfig, 3, [NumPlayers]string{"a", "b", "c", "d"}, [NumPlayers]Bot{nil, &badBot{from: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	m.WriteTrace(&trace)
	m.Record()
	if err := m.Run(t.Context()); !errors.Is(err, ErrBadUnit) || m.Round() != 2 {
		t.Fatalf("Run = %v after %d rounds, want ErrBadUnit after 2", err, m.Round())
	}
	if n := strings.Count(trace.String(), "\nround "); n != 3 {
		t.Errorf("the trace holds %d states, want 3 (rounds 0..2)", n)
	}
	if err := Verify(trace.Bytes(), nil, nil); !errors.Is(err, game.ErrTruncated) || !strings.Contains(err.Error(), "after round 2 of 12") {
		t.Errorf("Verify without commands = %v, want the trace incomplete", err)
	}
	if err := Verify(trace.Bytes(), m.Log(), nil); err != nil {
		t.Errorf("Verify with commands = %v", err)
	}
}

// badBot commands a unit that does not exist from its round from on.
type badBot struct{ from, round int }

func (b *badBot) Play(s *State, o *Orders) {
	if b.round++; b.round >= b.from {
		o.Command(len(s.Units), Up)
	}
}

// Greedy, the strong bot, beats three Demos.
func TestGreedyBeatsDemo(t *testing.T) {
	wins := 0
	const games = 12
	for seed := range games {
		names := [NumPlayers]string{"Demo", "Demo", "Demo", "Demo"}
		names[seed%NumPlayers] = "Greedy"
		m, err := Def.NewBotMatch(DefaultConfig(), seed, names)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		sc, best := m.Scores(), 0
		for p := range sc {
			if sc[p] > sc[best] {
				best = p
			}
		}
		if best == seed%NumPlayers {
			wins++
		}
	}
	if wins < games*3/4 {
		t.Errorf("Greedy won %d of %d games against three Demos", wins, games)
	}
}

func TestParseConfig(t *testing.T) {
	def := DefaultConfig().Text()
	for _, c := range []struct {
		name, text string
		ok         bool
	}{
		{"the default text", def, true},
		{"other order, blank lines", "\nToy 1\ncapture 5\n\nwalls 10\nunits 3\ncols 10\nrows 10\nrounds 40\n", true},
		{"the small text", smallConfig.Text(), true},
		{"empty", "", false},
		{"another game", strings.Replace(def, "Toy 1", "Crematoria 1.2", 1), false},
		{"a setting missing", strings.Replace(def, "walls 10\n", "", 1), false},
		{"a setting twice", def + "walls 3\n", false},
		{"an unknown setting", def + "speed 3\n", false},
		{"not an integer", strings.Replace(def, "units 3", "units three", 1), false},
		{"two values", strings.Replace(def, "units 3", "units 3 4", 1), false},
		{"out of range", strings.Replace(def, "rows 10", "rows 3", 1), false},
		{"too many walls for the units", strings.Replace(strings.Replace(def, "walls 10", "walls 100", 1), "rows 10", "rows 4", 1), false},
	} {
		cfg, err := ParseConfig(strings.NewReader(c.text))
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrConfig)) {
			t.Errorf("%s: ParseConfig = %+v, %v; want ok %v", c.name, cfg, err, c.ok)
		}
	}
	for _, cfg := range []Config{DefaultConfig(), smallConfig} {
		got, err := ParseConfig(strings.NewReader(cfg.Text()))
		if err != nil || got != cfg {
			t.Errorf("ParseConfig(Text()) = %+v, %v; want %+v", got, err, cfg)
		}
	}
}
