package pandemic

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"jgym/course/coursetest"
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

func TestDivergenceError(t *testing.T) {
	for _, c := range []struct {
		d    Divergence
		want string
	}{
		{Divergence{Round: 12, Unit: 45, Field: "health", Want: "36", Got: "40", Line: 2231},
			"round 12, unit 45, health: want 36, got 40 (line 2231)"},
		{Divergence{Round: -1, Unit: -1, Field: "nb_units", Want: "15", Got: "16"}, "header, nb_units: want 15, got 16"},
	} {
		if got := c.d.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
	var d *Divergence
	if !errors.As(error(&Divergence{}), &d) {
		t.Error("a *Divergence is not found by errors.As")
	}
}

// TestVerifyPartialTraces checks the traces of aborted games: the trace a
// Match writes up to an abort verifies with its commands, and a trace cut
// by hand only when aborts are allowed.
func TestVerifyPartialTraces(t *testing.T) {
	tc := refTraceNamed(t, "pandemic_s602_Demo-Dummy-Demo-Dummy.res.gz")
	raw := coursetest.ReadGz(t, tc.path)
	_, log := loadRefTrace(t, tc)
	first := bytes.Index(raw, []byte("commands\n"))
	cut := first + 1 + bytes.Index(raw[first+1:], []byte("commands\n")) // after the state of round 1
	tr, err := ParseTrace(bytes.NewReader(raw[:cut]))
	if err != nil {
		t.Fatal(err)
	}
	short := &CommandLog{Rounds: log.Rounds[:1]}
	for _, c := range []struct {
		name    string
		o       VerifyOptions
		wantErr error
	}{
		{"rules", VerifyOptions{}, ErrIncompleteTrace},
		{"rules, aborts allowed", VerifyOptions{AllowAborted: true}, nil},
		{"replay, the log goes on", VerifyOptions{Commands: log, AllowAborted: true}, ErrIncompleteTrace},
		{"replay, log cut too", VerifyOptions{Commands: short}, ErrIncompleteTrace},
		{"replay, log cut too, aborts allowed", VerifyOptions{Commands: short, AllowAborted: true}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := VerifyWith(tr, c.o); !errors.Is(err, c.wantErr) || (err == nil) != (c.wantErr == nil) {
				t.Errorf("VerifyWith = %v, want %v", err, c.wantErr)
			}
		})
	}

	// A game the engine aborts in the virus phase (TestKilledTwice's
	// setting): its partial trace verifies with its log, as is.
	cfg := DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.NbUnits, cfg.InitialHealth, cfg.NbRounds = 24, 24, 4, 1, 300
	for seed := 1; seed <= 40; seed++ {
		raw, log, err := playFuzzGame(t, cfg, seed, [4]uint8{2, 2, 2, 2})
		if err == nil {
			continue
		}
		if !errors.Is(err, ErrKilledTwice) {
			t.Fatalf("seed %d: %v, want ErrKilledTwice", seed, err)
		}
		tr, perr := ParseTrace(bytes.NewReader(raw))
		if perr != nil {
			t.Fatal(perr)
		}
		if err := Verify(tr, log); err != nil {
			t.Errorf("seed %d: the trace of the aborted game: %v, want nil", seed, err)
		}
		if err := VerifyWith(tr, VerifyOptions{AllowAborted: true}); err != nil {
			t.Errorf("seed %d: rules: %v, want nil", seed, err)
		}
		return
	}
	t.Fatal("no game aborted")
}

func refTraceNamed(t testing.TB, base string) traceCase {
	t.Helper()
	for _, tc := range traceCases(t) {
		if filepath.Base(tc.path) == base {
			return tc
		}
	}
	t.Fatalf("no reference trace %s", base)
	return traceCase{}
}
