package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"jgym/env/toy"
	"jgym/game"
)

// update rewrites the generated files (make generate).
var update = flag.Bool("update", false, "rewrite the files generated from the game definitions (python-client/jgym/_games.py, env/GAME/def_gen.go)")

// pyGames is the Python module generated from the game definitions: what
// the Python package must know without a server (the games it registers
// with Gymnasium at import, the observation layout of each, its strong
// bot).
const pyGames = "../../python-client/jgym/_games.py"

// renderPyGames renders _games.py from the registered games, leaving out
// those a test registered (they are not jgym's).
func renderPyGames(entries []game.Entry) []byte {
	var b bytes.Buffer
	b.WriteString(`"""The games jgym hosts, generated from their Go definitions: do not edit.

Written by ` + "`make generate`" + ` (go test ./cmd/jgym -run TestGeneratedPython -update)
from the registry of cmd/jgym/games.go; the test fails when it is stale.
"""

from __future__ import annotations

__all__ = ["GAMES", "NAMES", "OBSERVATION_VERSIONS", "STRONG_BOTS"]

`)
	var ids []string
	names, versions, strong := map[string]string{}, map[string]string{}, map[string]string{}
	for _, e := range entries {
		id := e.ID()
		spec := e.Env(nil).Spec()
		ids = append(ids, id)
		names[id], versions[id], strong[id] = e.Arena().Name(), spec.ObservationVersion, e.Strong()
	}
	dict := func(name, doc string, m map[string]string) {
		fmt.Fprintf(&b, "#: %s\n%s = {\n", doc, name)
		for _, id := range ids {
			fmt.Fprintf(&b, "    %q: %q,\n", id, m[id])
		}
		b.WriteString("}\n\n")
	}
	b.WriteString("#: The games this package registers with Gymnasium, as ``jgym/<id>``.\nGAMES = (")
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", id)
	}
	b.WriteString(")\n\n")
	dict("NAMES", "Each game's name (its traces and configuration files begin with it).", names)
	dict("OBSERVATION_VERSIONS", "The observation layout of each game this package knows.", versions)
	dict("STRONG_BOTS", "Each game's strong scripted bot.", strong)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// TestGeneratedPython checks that python-client/jgym/_games.py is what
// the game definitions make (with -update, writes it).
func TestGeneratedPython(t *testing.T) {
	var shipped []game.Entry
	for _, e := range games.Games() {
		if e.ID() != toy.Def.ID() { // registered by this package's tests only
			shipped = append(shipped, e)
		}
	}
	want := append(renderPyGames(shipped), '\n')
	if *update {
		if err := os.WriteFile(pyGames, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(pyGames)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run make generate (go test ./cmd/jgym -run TestGeneratedPython -update)\nwant:\n%s", pyGames, want)
	}
}
