package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"jgym/arena"
	"jgym/cppexport"
	"jgym/dataset"
	"jgym/env"
	"jgym/env/crematoria"
	"jgym/env/dominator"
	"jgym/env/moria"
	"jgym/env/pandemic"
)

// tableGame is a game jgym plays: its adapter for the command line, and
// its env for jgym serve.
type tableGame struct {
	arena.Game
	// env returns the game as an env.Game whose "prefix:REF" seats l
	// loads.
	env func(l arena.Loader) env.Game
	// cppTarget is the game's side of an exported C++ player (jgym
	// export-cpp); nil if the game has none yet.
	cppTarget func() cppexport.Target
	// dataset is the game's side of jgym dataset; nil if the game has
	// none yet.
	dataset func() dataset.Source
}

// games are the games jgym plays; the first is the default.
var games = []tableGame{
	{
		Game:      crematoria.Def.Arena(),
		env:       crematoria.Def.Env,
		cppTarget: func() cppexport.Target { t, _ := crematoria.Def.Export(); return t },
		dataset:   crematoria.Def.Dataset,
	},
	{
		Game:      dominator.Arena(),
		env:       func(l arena.Loader) env.Game { return dominator.NewEnv(dominator.WithLoader(l)) },
		cppTarget: dominator.CppTarget,
		dataset:   dominator.Dataset,
	},
	{
		Game:      pandemic.Def.Arena(),
		env:       pandemic.Def.Env,
		cppTarget: func() cppexport.Target { t, _ := pandemic.Def.Export(); return t },
		dataset:   pandemic.Def.Dataset,
	},
	{
		Game:      moria.Arena(),
		env:       func(l arena.Loader) env.Game { return moria.NewEnv(moria.WithLoader(l)) },
		cppTarget: moria.CppTarget,
		dataset:   moria.Dataset,
	},
}

// lookupGame returns the game named name, ignoring case.
func lookupGame(name string) (tableGame, bool) {
	for _, g := range games {
		if strings.EqualFold(g.Name(), name) {
			return g, true
		}
	}
	return tableGame{}, false
}

// gameNames lists the games' names.
func gameNames() string {
	names := make([]string, len(games))
	for i, g := range games {
		names[i] = g.Name()
	}
	return strings.Join(names, ", ")
}

// gameFlag adds --game and -g to fs.
func gameFlag(fs *flag.FlagSet) *string {
	name := fs.String("game", "", fmt.Sprintf("the game: %s (default %s)", gameNames(), games[0].Name()))
	fs.StringVar(name, "g", "", "same as --game")
	return name
}

// findGame returns the game of --game: the default when name is empty.
func findGame(name string) (tableGame, error) {
	if name == "" {
		return games[0], nil
	}
	g, ok := lookupGame(name)
	if !ok {
		return g, usageErr("unknown game %q (games: %s)", name, gameNames())
	}
	return g, nil
}

// loadGameConfig reads a configuration file of game g, or returns g's
// default configuration when path is empty. A file that names another
// game is refused.
func loadGameConfig(g arena.Game, path string) (arena.Config, error) {
	if path == "" {
		return g.DefaultConfig(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(4096)
	if word := arena.GameOf(head); !strings.EqualFold(word, g.Name()) {
		if other, ok := lookupGame(word); ok {
			return nil, usageErr("config %s is a %s configuration, not %s: give --game %s", path, other.Name(), g.Name(), other.Name())
		}
	}
	cfg, err := g.ParseConfig(br)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// configGame returns the game a configuration file names: a game of the
// table, else the default game (whose parser then says what is wrong).
func configGame(path string) (tableGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return tableGame{}, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	if g, ok := lookupGame(arena.GameOf(head[:n])); ok {
		return g, nil
	}
	return games[0], nil
}
