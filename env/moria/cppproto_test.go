package moria

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/game"
)

func TestParseCommands(t *testing.T) {
	tests := []struct {
		line string
		want []Command
		err  error
	}{
		{"commands 0\n", nil, nil},
		{"commands 2 5 4 17 8\n", []Command{{ID: 5, Dir: Top}, {ID: 17, Dir: None}}, nil},
		{"commands 1 -3 0\n", []Command{{ID: -3, Dir: Bottom}}, nil},
		{"commands 1 2147483647 7\n", []Command{{ID: 2147483647, Dir: LB}}, nil},
		{"commands 1 5 9\n", nil, cppbot.ErrProtocol},
		{"commands 1 5 -1\n", nil, cppbot.ErrProtocol},
		{"commands 2 5 4\n", nil, cppbot.ErrProtocol},
		{"commands 1 5 4 6\n", nil, cppbot.ErrProtocol},
		{"commands 1 99999999999 4\n", nil, cppbot.ErrProtocol},
		{"commands 1001\n", nil, cppbot.ErrProtocol},
		{"commands x\n", nil, cppbot.ErrProtocol},
		{"hello\n", nil, cppbot.ErrProtocol},
	}
	for _, tc := range tests {
		got, err := parseCommands([]byte(tc.line), nil)
		if !errors.Is(err, tc.err) || (err == nil) != (tc.err == nil) {
			t.Errorf("parseCommands(%q) error = %v, want %v", tc.line, err, tc.err)
			continue
		}
		if err == nil && len(got)+len(tc.want) > 0 && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseCommands(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// The init message and the round message of a new game: the grid as in
// the trace, every unit, the occupied cells and the lists.
func TestAppendRound(t *testing.T) {
	g, err := New(DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	msg := string(appendRound(nil, &g.State))
	lines := strings.Split(msg, "\n")
	n := len(g.Units)
	if lines[0] != "round 0 125" {
		t.Errorf("header %q", lines[0])
	}
	for i := 1; i <= Rows; i++ {
		if len(lines[i]) != Cols {
			t.Fatalf("grid line %d has %d characters", i, len(lines[i]))
		}
	}
	if lines[1] != strings.Repeat("O", Cols) {
		t.Errorf("grid line 1 = %q", lines[1])
	}
	if !strings.HasPrefix(lines[61], "d 0 ") || lines[61+100] != "o -1 -1 -1 0" || !strings.HasPrefix(lines[61+n-1], "b -1 ") {
		t.Errorf("units %q, %q ... %q", lines[61], lines[61+100], lines[61+n-1])
	}
	occ := strings.Fields(lines[61+n])
	if occ[0] != "occupied" || occ[1] != "105" || len(occ) != 2+2*105 { // 100 clan units, 4 trolls, the Balrog
		t.Errorf("occupied line %.60q", lines[61+n])
	}
	if !strings.HasPrefix(lines[61+n+1], "dwarves 20 0 1 2 3 ") || !strings.HasPrefix(lines[61+n+2], "wizards 5 20 21 22 23 24 5 45 ") {
		t.Errorf("lists %q, %q", lines[61+n+1], lines[61+n+2])
	}
	want := []string{"orcs 0", "trolls 4 120 121 122 123", "balrog 124", "cells 20 20 20 20", "treasures 0 0 0 0", "status 0 0 0 0", "play", ""}
	if got := lines[len(lines)-len(want):]; !reflect.DeepEqual(got, want) {
		t.Errorf("tail %q, want %q", got, want)
	}
	if init := string(appendInit(nil, 2, 7, g.Cfg)); init != "init 2 7 4 200 20 5 20 4 10 5 60 60\n" {
		t.Errorf("init %q", init)
	}
	// The seed is the kit's int: its low 32 bits.
	if init := string(appendInit(nil, 0, 1<<32+5, g.Cfg)); !strings.HasPrefix(init, "init 0 5 ") {
		t.Errorf("init %q", init)
	}
}

// echoSource is a C++ test bot that prints, every round, everything the
// kit's API tells it (settings, every cell, every unit, the lists and
// counters, the defaults of bad queries) on one line of stderr, and gives
// no orders.
const echoSource = `// The echo test bot: it prints what the kit's API returns.
#include "Player.hh"

#define PLAYER_NAME Echo

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }

  static void cellOut(ostringstream& o, const Cell& c) {
    o << " " << c.type << "," << c.owner << "," << c.id << "," << c.turns << "," << c.treasure;
  }
  static void unitOut(ostringstream& o, const Unit& u) {
    o << " " << u.type << "," << u.id << "," << u.player << "," << u.health << "," << u.pos.i << "," << u.pos.j;
  }
  static void listOut(ostringstream& o, const vector<int>& v) {
    o << " [";
    for (size_t k = 0; k < v.size(); ++k) o << (k ? "," : "") << v[k];
    o << "]";
  }

  virtual void play() {
    ostringstream o;
    o << "echo " << round() << " " << me() << " " << nb_units() << " " << version();
    int s[] = {nb_players(), nb_rounds(), nb_dwarves(), nb_wizards(), max_nb_orcs(), nb_trolls(), treasure_value(),
               rock_resistance(), rows(), cols(), dwarves_health(), wizards_health(), orcs_health(), trolls_health(),
               min_damage_dwarves(), max_damage_dwarves(), min_damage_orcs(), max_damage_orcs(),
               min_damage_trolls(), max_damage_trolls(), ini_treasures(), inv_prob_abyss(), inv_prob_orc()};
    for (size_t k = 0; k < sizeof s / sizeof s[0]; ++k) o << " " << s[k];
    for (int i = 0; i < rows(); ++i)
      for (int j = 0; j < cols(); ++j) cellOut(o, cell(i, j));
    for (int id = 0; id < nb_units(); ++id) unitOut(o, unit(id));
    for (int p = 0; p < 4; ++p) listOut(o, dwarves(p));
    for (int p = 0; p < 4; ++p) listOut(o, wizards(p));
    listOut(o, orcs());
    listOut(o, trolls());
    o << " " << balrog_id();
    for (int p = 0; p < 4; ++p) o << " " << nb_cells(p) << "," << nb_treasures(p) << "," << status(p);
    cellOut(o, cell(Pos(-1, 5)));
    unitOut(o, unit(-1));
    o << " " << pos_ok(Pos(0, 59)) << pos_ok(60, 0) << player_ok(3) << player_ok(4) << nb_cells(4) << dwarves(-1).size();
    Pos p = Pos(5, 5) + TL;
    p += Pos(1, 2);
    o << " " << p << (Pos(1, 2) < Pos(1, 3)) << (Pos(2, 0) < Pos(1, 3)) << (p + LB == Pos(6, 5));
    cerr << o.str() << endl;
  }
};

RegisterPlayer(PLAYER_NAME);
`

// echoLine is what the echo bot prints for state s, seat me: the Go side
// of the kit's API (SPEC §11).
func echoLine(s *State, me int) string {
	var b strings.Builder
	cfg := s.Cfg
	fmt.Fprintf(&b, "echo %d %d %d %s", s.Round, me, len(s.Units), Version)
	for _, v := range cfg.Values() {
		fmt.Fprintf(&b, " %d", v)
	}
	for _, v := range []int{DwarfHealth, WizardHealth, OrcHealth, TrollHealth, MinDamageDwarf, MaxDamageDwarf,
		MinDamageOrc, MaxDamageOrc, MinDamageTroll, MaxDamageTroll, IniTreasures, InvProbAbyss, InvProbOrc} {
		fmt.Fprintf(&b, " %d", v)
	}
	b2i := func(x bool) int {
		if x {
			return 1
		}
		return 0
	}
	cell := func(c Cell) { fmt.Fprintf(&b, " %d,%d,%d,%d,%d", c.Type, c.Owner, c.ID, c.Turns, b2i(c.Treasure)) }
	unit := func(u Unit) {
		fmt.Fprintf(&b, " %d,%d,%d,%d,%d,%d", u.Type, u.ID, u.Player, u.Health, u.Pos.I, u.Pos.J)
	}
	list := func(v []int) {
		b.WriteString(" [")
		for k, x := range v {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprint(&b, x)
		}
		b.WriteString("]")
	}
	for idx := range s.Cells {
		cell(s.Cells[idx])
	}
	invalid := Unit{Type: Dwarf, ID: -1, Player: -1, Pos: NoPos}
	for id := range s.Units {
		if s.ValidID(id) {
			unit(s.Units[id])
		} else {
			unit(invalid)
		}
	}
	for p := range s.Dwarves {
		list(s.Dwarves[p])
	}
	for p := range s.Wizards {
		list(s.Wizards[p])
	}
	list(s.Orcs)
	list(s.Trolls)
	fmt.Fprintf(&b, " %d", s.BalrogID)
	for p := 0; p < NumPlayers; p++ {
		fmt.Fprintf(&b, " %d,%d,0", s.NbCells[p], s.NbTreasures[p])
	}
	cell(s.CellAt(-1, 5))
	unit(invalid)
	b.WriteString(" 1010-10 (5, 6)101")
	return b.String()
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// spectator runs a C++ bot on every state without using its orders, and
// records what the echo bot should print; inner gives the seat's orders.
type spectator struct {
	cpp   *CppBot
	me    int
	inner Bot
	want  []string
	stale int // cells seen holding a stale unit id
}

func (sp *spectator) Play(s *State, o *Orders) {
	sp.want = append(sp.want, echoLine(s, sp.me))
	for idx := range s.Cells {
		if id := s.Cells[idx].ID; id >= 0 && s.Units[id].Pos != PosOf(idx) {
			sp.stale++
		}
	}
	scratch := *Def.NewOrders()
	scratch.Reset(len(s.Units))
	sp.cpp.Play(s, &scratch)
	if sp.inner != nil {
		sp.inner.Play(s, o)
	}
}

func (sp *spectator) Err() error { return sp.cpp.Err() }

// The state a C++ player sees through the kit's API is the engine's, cell
// for cell and unit for unit, stale troll ids included: the echo bot
// prints it every round of a default game against Demos and of a crowded
// game whose Balrog ends it on a stale id (testdata/moria/aborts).
func TestCppStateRoundTrip(t *testing.T) {
	needCpp(t)
	aborts := filepath.Join(traceRoot(), "..", "aborts")
	crowded := loadConfigFile(t, filepath.Join(aborts, "crowded.cnf"))
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, filepath.Join(aborts, "moria_s460_Brawl-Brawl-Brawl-Brawl_crowded.cmd.gz"))))
	if err != nil {
		t.Fatal(err)
	}
	src := writeBot(t, t.TempDir(), "Echo", echoSource)
	tests := []struct {
		name  string
		cfg   Config
		seed  int
		seat  int
		inner func(p int) Bot
		abort bool
	}{
		{"default", withRounds(DefaultConfig(), 60), 3, 2, func(p int) Bot { return NewDemo(p, 3) }, false},
		{"crowded", crowded, 460, 1, func(p int) Bot { return replayBot{log, p} }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr syncBuffer
			opts := cppOpts()
			opts.Stderr, opts.StderrLimit = &stderr, 1
			sp := &spectator{cpp: Def.NewCppBot(compiled(t, src, opts), tc.seat, tc.seed), me: tc.seat, inner: tc.inner(tc.seat)}
			var bots [NumPlayers]Bot
			for p := range bots {
				bots[p] = tc.inner(p)
			}
			bots[tc.seat] = sp
			_, err := playTrace(tc.cfg, tc.seed, [4]string{"A", "B", "C", "D"}, bots)
			if tc.abort != errors.Is(err, ErrAbort) || (!tc.abort && err != nil) {
				t.Fatalf("the game ended with %v (abort expected: %v)", err, tc.abort)
			}
			sp.cpp.Close() // waits for the process, and so for its stderr
			var got []string
			for _, line := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(line, "echo ") {
					got = append(got, line)
				}
			}
			if len(got) != len(sp.want) {
				t.Fatalf("%d rounds echoed, %d played", len(got), len(sp.want))
			}
			for r := range got {
				if got[r] != sp.want[r] {
					g, w := strings.Fields(got[r]), strings.Fields(sp.want[r])
					k := 0
					for k < len(g) && k < len(w) && g[k] == w[k] {
						k++
					}
					t.Fatalf("round %d: token %d: C++ sees %q, the engine has %q", r, k, strings.Join(g[k:min(k+3, len(g))], " "), strings.Join(w[k:min(k+3, len(w))], " "))
				}
			}
			if tc.abort && sp.stale == 0 {
				t.Error("no stale troll id was seen: the game does not test them")
			}
			t.Logf("%d rounds (%d stale ids): the C++ player saw the engine's state", len(got), sp.stale)
		})
	}
}

// parseCommands reads any answer without panicking; what it accepts is a
// list of at most game.MaxCommands commands with directions 0..8, which it
// reads back the same once written out.
func FuzzParseCommands(f *testing.F) {
	for _, s := range []string{"commands 0\n", "commands 2 5 4 17 8\n", "commands 1 -3 0", "commands 1 5 9\n",
		"commands  1  5   4\n", "error exception boom\n", "commands 1 2147483648 1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		cmds, err := parseCommands(line, nil)
		if err != nil {
			if !errors.Is(err, cppbot.ErrProtocol) || len(cmds) != 0 {
				t.Fatalf("parseCommands(%q) = %v, %v", line, cmds, err)
			}
			return
		}
		if len(cmds) > game.MaxCommands {
			t.Fatalf("parseCommands(%q): %d commands", line, len(cmds))
		}
		b := fmt.Appendf(nil, "commands %d", len(cmds))
		for _, c := range cmds {
			if !c.Dir.Valid() {
				t.Fatalf("parseCommands(%q): direction %d", line, c.Dir)
			}
			b = fmt.Appendf(b, " %d %d", c.ID, c.Dir)
		}
		again, err := parseCommands(b, nil)
		if err != nil || !reflect.DeepEqual(again, cmds) && len(cmds) > 0 {
			t.Fatalf("%q read back as %v, %v; want %v", b, again, err, cmds)
		}
	})
}
