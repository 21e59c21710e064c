package moria

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"jgym/course/coursetest"
	"jgym/game"
)

// loadRefTrace parses a reference trace and, if it has one, its command log.
func loadRefTrace(t testing.TB, tc traceCase) (*Trace, *CommandLog) {
	t.Helper()
	tr, err := ParseTrace(bytes.NewReader(coursetest.ReadGz(t, tc.path)))
	if err != nil {
		t.Fatal(err)
	}
	var log *CommandLog
	if tc.cmdPath != "" {
		if log, err = ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, tc.cmdPath))); err != nil {
			t.Fatal(err)
		}
	}
	return tr, log
}

// TestVerifyAcceptsBrawls checks verify on games with far more fighting
// than the reference games: many attacks on one unit in a round, captures,
// orcs and trolls hit, rocks dug to abysses, in several configurations.
func TestVerifyAcceptsBrawls(t *testing.T) {
	crowded := DefaultConfig()
	crowded.NbDwarves, crowded.NbTrolls, crowded.MaxNbOrcs, crowded.RockResistance = 30, 10, 40, 2
	short := DefaultConfig()
	short.NbRounds, short.NbWizards, short.RockResistance = 80, 12, 1
	for _, c := range []struct {
		name string
		cfg  Config
		seed int
	}{
		{"default", DefaultConfig(), 7},
		{"default", DefaultConfig(), 1234},
		{"crowded, soft rock", crowded, 5},
		{"many wizards, rock of one hit", short, 99},
	} {
		t.Run(fmt.Sprintf("%s seed %d", c.name, c.seed), func(t *testing.T) {
			t.Parallel()
			raw, log, err := playBrawl(c.cfg, c.seed, true)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ParseTrace(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(tr, nil); err != nil {
				t.Errorf("rules: got %v, want nil", err)
			}
			if err := Verify(tr, log); err != nil {
				t.Errorf("replay: got %v, want nil", err)
			}
		})
	}
}

// TestVerifyAbortedTrace checks the trace of an aborted game: its replay
// must abort right after its last state; without commands it is reported
// as truncated once its rounds pass.
func TestVerifyAbortedTrace(t *testing.T) {
	dir := filepath.Join(traceRoot(), "..", "aborts")
	cfg := loadConfigFile(t, filepath.Join(dir, "crowded.cnf"))
	log, err := ParseCommandLog(bytes.NewReader(coursetest.ReadGz(t, filepath.Join(dir, "moria_s460_Brawl-Brawl-Brawl-Brawl_crowded.cmd.gz"))))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Def.NewMatch(cfg, 460, [4]string{"Brawl", "Brawl", "Brawl", "Brawl"}, [4]Bot{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	for !m.Done() && m.Step(log.Round(m.Round())) == nil {
	}
	tr, err := ParseTrace(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Truncated() || len(tr.States) != 149 {
		t.Fatalf("parsed %d states, truncated %v, want 149 and true", len(tr.States), tr.Truncated())
	}
	if err := Verify(tr, log); err != nil {
		t.Errorf("replay: got %v, want nil", err)
	}
	if err := Verify(tr, nil); !errors.Is(err, ErrTruncated) {
		t.Errorf("rules: got %v, want ErrTruncated", err)
	}
	// Cut one round earlier, the replay does not abort where the trace ends.
	cut := buf.Bytes()[:bytes.LastIndex(buf.Bytes(), []byte("movements\n"))]
	tr, err = ParseTrace(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	var d *Divergence
	if err := Verify(tr, log); !errors.As(err, &d) || d.Round != 148 || d.Got != "end of file" {
		t.Errorf("replay of a cut trace: got %v, want a divergence in round 148", err)
	}
}

func TestVerifyConfigMismatch(t *testing.T) {
	tc := refTraceNamed(t, "moria_s3_Demo-Null-Demo-Null.res.gz")
	tr, log := loadRefTrace(t, tc)
	rounds := DefaultConfig()
	rounds.NbRounds = 100
	value := DefaultConfig()
	value.TreasureValue++
	fixed := DefaultConfig()
	fixed.Fixed = make([]string, Rows)
	for i := range fixed.Fixed {
		fixed.Fixed[i] = strings.Repeat("C", Cols)
	}
	for _, c := range []struct {
		name      string
		cfg       *Config
		log       *CommandLog
		field     string
		wantRound int
	}{
		{"nb_rounds", &rounds, nil, "nb_rounds", -1},
		{"treasure_value (invisible in the states)", &value, log, "treasure_value", -1},
		{"a FIXED map instead of GENERATOR", &fixed, nil, "grid (0, 0)", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := VerifyWith(tr, VerifyOptions{Config: c.cfg, Commands: c.log})
			var d *Divergence
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a *Divergence", err)
			}
			if d.Field != c.field || d.Round != c.wantRound {
				t.Errorf("got round %d field %q (%v), want round %d field %q", d.Round, d.Field, d, c.wantRound, c.field)
			}
		})
	}
}

func TestVerifyBadCommandLog(t *testing.T) {
	tc := refTraceNamed(t, "moria_s2_Null-Null-Null-Null.res.gz")
	tr, _ := loadRefTrace(t, tc)
	tooLong := &CommandLog{Rounds: make([][NumPlayers][]Command, 201)}
	dup := &CommandLog{Rounds: make([][NumPlayers][]Command, 2)}
	dup.Rounds[1][2] = []Command{{ID: 55, Dir: Top}, {ID: 55, Dir: Left}}
	moved := &CommandLog{Rounds: make([][NumPlayers][]Command, 2)}
	moved.Rounds[0][0] = []Command{{ID: 5, Dir: Top}, {ID: 6, Dir: Left}, {ID: 7, Dir: Right}, {ID: 8, Dir: Bottom}, {ID: 9, Dir: BR}}
	for _, c := range []struct {
		name string
		log  *CommandLog
		file bool // a bad command file rather than a divergence
	}{
		{"more rounds than the game", tooLong, true},
		{"a unit commanded twice", dup, true},
		{"commands the Null players never gave", moved, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Verify(tr, c.log)
			var d *Divergence
			if got := errors.Is(err, game.ErrCommandFile); got != c.file || (!c.file && !errors.As(err, &d)) {
				t.Errorf("got %v, want a bad command file: %v", err, c.file)
			}
		})
	}
}

func TestDivergenceError(t *testing.T) {
	for _, c := range []struct {
		d    Divergence
		want string
	}{
		{Divergence{Round: 12, Unit: 45, Field: "health", Want: "36", Got: "40", Line: 2231},
			"round 12, unit 45, health: want 36, got 40 (line 2231)"},
		{Divergence{Round: -1, Unit: -1, Field: "treasure_value", Want: "10", Got: "11"}, "header, treasure_value: want 10, got 11"},
	} {
		if got := c.d.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

// TestVerifyAcceptsRingFull checks games where the outside ring runs out
// of room and units are reborn inside Moria (SPEC §8.11 step 6): Null
// players leave their reborn units on the ring.
func TestVerifyAcceptsRingFull(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbDwarves, cfg.NbTrolls = 40, 12
	m, err := Def.NewBotMatch(cfg, 1, [4]string{"Null", "Null", "Null", "Null"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	inside := 0
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
		for _, id := range m.Game.round.reborn {
			if !onRing(m.Game.Units[id].Pos) {
				inside++
			}
		}
	}
	if inside == 0 {
		t.Fatal("no unit was reborn inside Moria: the test does not exercise the full ring")
	}
	tr, err := ParseTrace(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(tr, nil); err != nil {
		t.Errorf("rules: got %v, want nil (%d rebirths inside Moria)", err, inside)
	}
}
