package gametest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"jgym/game"
)

// EncoderFixtureEnv, set to 1, makes CheckEncoderFixture write the fixture
// instead of checking it. Only the code before a change of the encoder
// may write it: a fixture written by the code under test proves nothing.
const EncoderFixtureEnv = "JGYM_WRITE_ENCODER_FIXTURE"

// encoderFixtureGames are the games of the fixture: seed and seats.
var encoderFixtureGames = []struct {
	seed  int
	seats [game.NumSeats]string
}{
	{1, Four("Demo")},
	{2, Four("Demo")},
	{3, [game.NumSeats]string{"Demo", "Null", "Demo", "Null"}},
}

// CheckEncoderFixture checks that the game's encoder writes the same
// bytes as the fixture at path records. The fixture has a line per round
// of a few bot games of the default configuration (the state before the
// first round included): the seed, the round, and for each observation
// tensor the first 12 hex digits of the SHA-256 of the tensor's bytes for
// seats 0, 1, 2 and 3 in turn (a fixture may record only the first
// tensors: those it was written with). Two encoders write every round: one shared
// by the four seats and every game (as a table of four learners keeps it),
// and one per seat (as a single learner's table keeps it); both must give
// the fixture's bytes, so an encoder that keeps state between calls must
// notice a change of seat, state and game.
func CheckEncoderFixture[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D], path string) {
	t.Helper()
	got := encoderFixture(t, d)
	if os.Getenv(EncoderFixtureEnv) == "1" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	// A fixture written before the game's observation gained a tensor
	// (appended after the others) records the tensors it had: each line is
	// compared on its fields, which must all be there.
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	if len(gl) != len(wl) {
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
	for i := range gl {
		g, w := strings.Fields(gl[i]), strings.Fields(wl[i])
		if len(g) < len(w) || strings.Join(g[:len(w)], " ") != wl[i] {
			t.Fatalf("%s line %d:\n got  %s\n want %s", path, i+1, gl[i], wl[i])
		}
	}
}

// encoderFixture plays the fixture's games and writes its lines.
func encoderFixture[C game.Config, G, S any, D game.Dir](t *testing.T, d *game.Def[C, G, S, D]) []byte {
	cfg := d.DefaultConfig()
	spec, err := d.EnvSpec(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	nt := len(spec.Observation)
	mk := func() [][]byte {
		obs := make([][]byte, nt)
		for i, ts := range spec.Observation {
			obs[i] = make([]byte, ts.Bytes())
		}
		return obs
	}
	shared := d.NewEncoder()
	var seat [game.NumSeats]game.Encoder[S]
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	a, b := mk(), mk()
	for _, g := range encoderFixtureGames {
		for p := range seat {
			seat[p] = d.NewEncoder()
		}
		m, err := d.NewBotMatch(cfg, g.seed, g.seats)
		if err != nil {
			t.Fatal(err)
		}
		for {
			hs := make([]hashWriter, nt)
			for p := range game.NumSeats {
				s := m.State()
				shared.Encode(s, p, a)
				seat[p].Encode(s, p, b)
				for i := range a {
					if !bytes.Equal(a[i], b[i]) {
						t.Fatalf("seed %d round %d seat %d tensor %s: the shared encoder and the seat's differ",
							g.seed, m.Round(), p, spec.Observation[i].Name)
					}
					hs[i].Write(a[i])
				}
			}
			fmt.Fprintf(w, "%d %d", g.seed, m.Round())
			for i := range hs {
				fmt.Fprintf(w, " %s", hs[i].sum())
			}
			fmt.Fprintln(w)
			if m.Done() {
				break
			}
			if err := m.PlayRound(); err != nil {
				t.Fatal(err)
			}
		}
	}
	w.Flush()
	return out.Bytes()
}

// hashWriter hashes the bytes written to it.
type hashWriter struct{ b []byte }

func (h *hashWriter) Write(p []byte) { h.b = append(h.b, p...) }

func (h *hashWriter) sum() string {
	s := sha256.Sum256(h.b)
	return hex.EncodeToString(s[:6])
}
