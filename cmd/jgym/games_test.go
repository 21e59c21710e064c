package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jgym/arena"
	"jgym/cppexport"
	"jgym/dataset"
	"jgym/env"
)

// fakeGame is a second game of the table: its configurations begin
// "Fake 1.0", its traces "Game\n\nSeed N\n\nFake 1.0\n", and it verifies a
// trace by that header.
type fakeGame struct{}

type fakeConfig struct{ rounds int }

func (c fakeConfig) Rounds() int { return c.rounds }

type fakePlayer string

func (p fakePlayer) Name() string { return string(p) }
func (fakePlayer) Close() error   { return nil }

func (fakeGame) Name() string                { return "Fake" }
func (fakeGame) Bots() []string              { return []string{"Ann", "Bob"} }
func (fakeGame) DefaultConfig() arena.Config { return fakeConfig{3} }

func (fakeGame) ParseConfig(r io.Reader) (arena.Config, error) {
	var rounds int
	if _, err := fmt.Fscanf(r, "Fake 1.0\nrounds %d\n", &rounds); err != nil {
		return nil, fmt.Errorf("bad configuration: %w", err)
	}
	return fakeConfig{rounds}, nil
}

func (fakeGame) NewPlayer(name string, _ arena.Loader) (arena.Player, error) {
	if name != "Ann" && name != "Bob" {
		return nil, fmt.Errorf("unknown bot %q", name)
	}
	return fakePlayer(name), nil
}

func (fakeGame) Play(_ context.Context, t *arena.Table) error {
	if t.Trace == nil {
		t.Trace = io.Discard
	}
	fmt.Fprintf(t.Trace, "Game\n\nSeed %d\n\nFake 1.0\nrounds %d\nnames %s\n", t.Seed, t.Config.Rounds(), strings.Join(t.TraceNames(), " "))
	t.Scores = []int{t.Seed, 1, 2, 3}
	return nil
}

func (fakeGame) Verify(trace, commands []byte, cfg arena.Config) error {
	if !bytes.HasPrefix(trace, []byte("Game\n\nSeed ")) {
		return errors.New("not a Fake trace")
	}
	if cfg != nil && !bytes.Contains(trace, []byte(fmt.Sprintf("rounds %d\n", cfg.Rounds()))) {
		return errors.New("other rounds")
	}
	return nil
}

// fakeEntry is fakeGame as a registry entry: no env, dataset or export.
type fakeEntry struct{}

func (fakeEntry) Arena() arena.Game                { return fakeGame{} }
func (fakeEntry) ID() string                       { return "Fake-v0" }
func (fakeEntry) Strong() string                   { return "Bob" }
func (fakeEntry) Env(arena.Loader) env.Game        { return nil }
func (fakeEntry) Dataset() dataset.Source          { return nil }
func (fakeEntry) Export() (cppexport.Target, bool) { return cppexport.Target{}, false }

// withFakeGame adds fakeGame to the table for the test.
func withFakeGame(t *testing.T) {
	t.Helper()
	saved := games
	games = mustRegistry(append(saved.Games(), fakeEntry{})...)
	t.Cleanup(func() { games = saved })
}

func TestGameTable(t *testing.T) {
	withFakeGame(t)
	dir := t.TempDir()
	fakeCnf := filepath.Join(dir, "fake.cnf")
	os.WriteFile(fakeCnf, []byte("Fake 1.0\nrounds 7\n"), 0o644)
	altCnf := filepath.Join(tracesDir, "edge/alt.cnf")
	fakeRes := filepath.Join(dir, "fake.res")
	otherRes := filepath.Join(dir, "other.res")
	os.WriteFile(otherRes, []byte("Game\n\nSeed 1\n\nMystery 1.0\n"), 0o644)
	crem := filepath.Join(tracesDir, "crematoria_s1_Demo-Demo-Demo-Demo.res.gz")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{"--game", []string{"match", "--game", "Fake", "Ann", "Bob", "Ann", "Ann", "-s", "5", "-o", fakeRes}, 0,
			"", "info: player Ann got score 5\n"},
		{"-g, any case", []string{"match", "-g", "fAKE", "Ann", "Bob", "Ann", "Ann", "-s", "5", "-i", fakeCnf}, 0,
			"Fake 1.0\nrounds 7\nnames Ann Bob Ann Ann\n", ""},
		{"a bot of another game", []string{"match", "--game", "fake", "Demo", "Bob", "Ann", "Ann", "-s", "5"}, 1,
			"", `player 0: unknown bot "Demo"`},
		{"unknown game", []string{"match", "--game", "Chess", "Ann", "Bob", "Ann", "Ann", "-s", "5"}, 2,
			"", `unknown game "Chess" (games: ` + gameNames() + `)`},
		{"a configuration of another game", []string{"match", "Demo", "Demo", "Demo", "Demo", "-s", "1", "-i", fakeCnf}, 2,
			"", "is a Fake configuration, not Crematoria: give --game Fake"},
		{"a Crematoria configuration for Fake", []string{"eval", "-g", "fake", "Ann", "--opponents", "Bob", "-i", altCnf}, 2,
			"", "is a Crematoria configuration, not Fake: give --game Crematoria"},
		{"eval", []string{"eval", "-g", "fake", "Ann", "--opponents", "Bob", "-n", "4"}, 0,
			"Ann vs Bob, Bob, Bob: 4 games", ""},
		{"tournament", []string{"tournament", "-g", "fake", "Ann", "Bob", "-n", "4", "-i", fakeCnf}, 0,
			"tournament: 2 bots, 4 games", ""},
		{"bench", []string{"bench", "-g", "fake", "--bots", "Ann,Ann,Bob,Bob", "--games", "2", "--trace"}, 0,
			"2 games x 3 rounds, trace true", ""},
		{"list", []string{"list"}, 0,
			"Crematoria (default):\nDemo\n", ""},
		{"list, Crematoria's prefixes", []string{"list"}, 0,
			"Riddick\nSearch\ncpp:PATH\t", ""},
		{"list, the other game", []string{"list"}, 0,
			"\n\nFake (--game fake):\nAnn\nBob\ncpp:PATH\t", ""},
		{"verify, each trace with its game", []string{"verify", fakeRes, crem}, 0,
			"OK " + fakeRes + "\nOK " + crem + "\n", ""},
		{"verify, a trace of an unknown game", []string{"verify", otherRes}, 1,
			`FAIL ` + otherRes + `: a trace of "Mystery", a game jgym does not play (games: ` + gameNames() + `)`, ""},
		{"verify -i of one game, traces of both", []string{"verify", "-i", fakeCnf, fakeRes, crem}, 1,
			"FAIL " + fakeRes + ": other rounds\nFAIL " + crem + ": a Crematoria trace, and -i " + fakeCnf + " is a Fake configuration\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runJgym(tc.args...)
			if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("jgym %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					strings.Join(tc.args, " "), code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}
