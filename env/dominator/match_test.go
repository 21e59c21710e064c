package dominator

import (
	"bytes"
	"context"
	"errors"
	"jgym/game"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestOrdersFilter(t *testing.T) {
	var o Orders
	o.Reset(128)
	for _, c := range []Command{{ID: 5, Dir: Top}, {ID: 5, Dir: Left}, {ID: -2, Dir: Dir(12)}, {ID: -2, Dir: Top}, {ID: 200, Dir: None}, {ID: 7, Dir: Dir(-1)}, {ID: 7, Dir: Right}} {
		o.Command(c.ID, c.Dir)
	}
	want := []Command{{ID: 5, Dir: Top}, {ID: -2, Dir: Dir(12)}, {ID: 200, Dir: None}, {ID: 7, Dir: Dir(-1)}}
	if got := o.List(); !reflect.DeepEqual(got, want) {
		t.Errorf("List() = %v, want %v (first command per id, nothing else checked)", got, want)
	}
	if o.Count() != 7 || o.Warnings != 3 || o.Err() != nil {
		t.Errorf("Count, Warnings, Err = %d, %d, %v, want 7, 3, nil", o.Count(), o.Warnings, o.Err())
	}
	o.Reset(128)
	if len(o.List()) != 0 || o.Count() != 0 {
		t.Errorf("Reset left %v", o.List())
	}
	for i := 0; i <= game.MaxCommands; i++ {
		o.Command(5, Top) // duplicates count too (SPEC §14.11)
	}
	if err := o.Err(); !errors.Is(err, game.ErrTooManyCommands) || !errors.Is(err, ErrAbort) {
		t.Errorf("Err after %d calls = %v, want game.ErrTooManyCommands", game.MaxCommands+1, err)
	}
}

// chatterbox gives one command too many in round 3.
type chatterbox struct{}

func (chatterbox) Play(v *State, o *Orders) {
	n := 10
	if v.Round == 3 {
		n = game.MaxCommands + 1
	}
	for i := 0; i < n; i++ {
		o.Command(0, None)
	}
}

// TestTooManyCommandsAborts checks that a player's 1001st command aborts
// the game in its round, the trace ending with the previous state.
func TestTooManyCommandsAborts(t *testing.T) {
	m, err := Def.NewMatch(DefaultConfig(), 3, [4]string{"Null", "Null", "Chatty", "Null"}, [4]Bot{nil, nil, chatterbox{}, nil})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	err = m.Run(context.Background())
	if !errors.Is(err, game.ErrTooManyCommands) || !strings.Contains(err.Error(), "round 4: player 2 (Chatty)") {
		t.Fatalf("Run = %v, want game.ErrTooManyCommands in round 4 by player 2", err)
	}
	if m.Round() != 3 || !strings.HasSuffix(buf.String(), "\n\n") || strings.Count(buf.String(), "movements") != 3 {
		t.Errorf("stopped at round %d with %d movements blocks, want 3", m.Round(), strings.Count(buf.String(), "movements"))
	}
	if err := m.PlayRound(); !errors.Is(err, ErrAbort) {
		t.Errorf("PlayRound after the abort = %v, want the abort again", err)
	}
}

func TestMatchNames(t *testing.T) {
	for _, names := range [][4]string{{"", "Null", "Null", "Null"}, {"Null", "Thirteen1234x", "Null", "Null"}, {"Null", "Null", "a b", "Null"}} {
		if _, err := Def.NewMatch(DefaultConfig(), 1, names, [NumPlayers]Bot{}); !errors.Is(err, ErrAbort) {
			t.Errorf("Def.NewMatch(%q) = %v, want ErrAbort", names, err)
		}
	}
	if _, err := Def.NewBotMatch(DefaultConfig(), 1, [4]string{"Null", "Nobody", "Null", "Null"}); !errors.Is(err, game.ErrUnknownBot) {
		t.Errorf("an unknown bot: %v, want game.ErrUnknownBot", err)
	}
	want := []string{"Demo", "DummyClone", "Khan", "Null", "Search"}
	if got := Def.Bots.Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Def.Bots.Names() = %v, want %v", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering Demo twice did not panic")
		}
	}()
	RegisterBot("Demo", NewDemo)
}

func TestWriteResults(t *testing.T) {
	s := &State{TotalScore: [4]int{10, 30, 30, 5}}
	var b strings.Builder
	if err := WriteResults(&b, s, [4]string{"A", "B", "C", "D"}); err != nil {
		t.Fatal(err)
	}
	want := "info: player A got score 10\ninfo: player B got score 30\ninfo: player C got score 30\ninfo: player D got score 5\n" +
		"info: player(s) B C got top score\n"
	if b.String() != want {
		t.Errorf("WriteResults wrote\n%s\nwant\n%s", b.String(), want)
	}
}

// TestDemoFewWitches plays Demos on a configuration with one witch each,
// where the kit's Demo reads past its witch list: jgym's gives the missing
// witch no order.
func TestDemoFewWitches(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbWitches, cfg.NbRounds = 1, 30
	m, err := Def.NewBotMatch(cfg, 5, [4]string{"Demo", "Demo", "Demo", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestDemoPlaySeat checks that the Demo gives the same orders from the
// real state (PlaySeat) as from its view (Play), every round of crowded
// brawls with lost units and of default games.
func TestDemoPlaySeat(t *testing.T) {
	crowd, err := ShippedConfig("generator3")
	if err != nil {
		t.Fatal(err)
	}
	crowd.Rows, crowd.Cols, crowd.NbFarmers, crowd.NbKnights, crowd.NbRounds = 25, 25, 40, 14, 120
	for _, c := range []struct {
		cfg  Config
		seed int
	}{{DefaultConfig(), 2}, {crowd, 3}, {crowd, 6}} {
		var bots [NumPlayers]Bot
		for p := range bots {
			bots[p] = newBrawler(p, c.seed, false)
		}
		m, err := Def.NewMatch(c.cfg, c.seed, [4]string{"a", "b", "c", "d"}, bots)
		if err != nil {
			t.Fatal(err)
		}
		var views, seats [NumPlayers]*Demo
		for p := range views {
			views[p], seats[p] = NewDemo(p, c.seed).(*Demo), NewDemo(p, c.seed).(*Demo)
		}
		var a, b Orders
		var v State
		lost := 0
		for !m.Done() {
			for p := 0; p < NumPlayers; p++ {
				a.Reset(len(m.Game.Units))
				b.Reset(len(m.Game.Units))
				m.State().View(p, &v)
				views[p].Play(&v, &a)
				seats[p].PlaySeat(m.State(), p, &b)
				if !slices.Equal(a.List(), b.List()) {
					t.Fatalf("seed %d round %d seat %d: Play gives %v, PlaySeat %v", c.seed, m.Round(), p, a.List(), b.List())
				}
			}
			for id := range m.Game.Units {
				if !m.Game.onGrid(id) {
					lost++
				}
			}
			if err := m.PlayRound(); errors.Is(err, ErrAbort) {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("seed %d: %d rounds, %d lost unit-rounds", c.seed, m.Round(), lost)
	}
	// The crowd3 reference games have units lost by the rebirth.
	lost := 0
	for _, name := range []string{"crowd3_s2_Chaos-Demo-Dummy-Chaos.res.gz", "crowd3_s5_Chaos-Demo-Dummy-Chaos.res.gz"} {
		tc := refTraceNamed(t, name)
		log := loadLog(t, tc.cmdPath)
		m, err := Def.NewMatch(tc.cfg, tc.seed, tc.names, [NumPlayers]Bot{})
		if err != nil {
			t.Fatal(err)
		}
		var views, seats [NumPlayers]*Demo
		for p := range views {
			views[p], seats[p] = NewDemo(p, tc.seed).(*Demo), NewDemo(p, tc.seed).(*Demo)
		}
		var a, b Orders
		var v State
		for r := 0; !m.Done(); r++ {
			for p := 0; p < NumPlayers; p++ {
				a.Reset(len(m.Game.Units))
				b.Reset(len(m.Game.Units))
				m.State().View(p, &v)
				views[p].Play(&v, &a)
				seats[p].PlaySeat(m.State(), p, &b)
				if !slices.Equal(a.List(), b.List()) {
					t.Fatalf("%s round %d seat %d: Play gives %v, PlaySeat %v", name, m.Round(), p, a.List(), b.List())
				}
			}
			for id := range m.Game.Units {
				if !m.Game.onGrid(id) {
					lost++
				}
			}
			if err := m.Step(log.Round(r)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if lost == 0 {
		t.Error("no lost unit seen in the crowd3 games")
	}
	t.Logf("crowd3: %d lost unit-rounds", lost)
}
