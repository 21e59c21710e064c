package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"jgym/arena"
	"jgym/env/crematoria"
	_ "jgym/env/crematoria/riddick" // registers Riddick, Crematoria's strong bot
	"jgym/env/dominator"
	_ "jgym/env/dominator/khan" // registers Khan, Dominator's strong bot
	"jgym/env/moria"
	"jgym/env/pandemic"
	"jgym/game"
)

// games are the games jgym plays, the first the default: each game's
// definition (a game.Entry). A strong bot that lives in a subpackage of
// its game (env/crematoria/riddick, env/dominator/khan) registers itself
// into the game's bots when imported, above. Tests register more (cmd/jgym's TestMain adds
// env/toy's).
var games = mustRegistry(
	crematoria.Def,
	dominator.Def,
	pandemic.Def,
	moria.Def,
)

func mustRegistry(gs ...game.Entry) *game.Registry {
	r, err := game.NewRegistry(gs...)
	if err != nil {
		panic(err)
	}
	return r
}

// tableGame is a registered game as the commands use it: its entry, with
// its command-line game's methods at hand.
type tableGame struct {
	arena.Game
	game.Entry
}

func tableOf(e game.Entry) tableGame { return tableGame{e.Arena(), e} }

// gameList returns the registered games, in order.
func gameList() []tableGame {
	var gs []tableGame
	for _, e := range games.Games() {
		gs = append(gs, tableOf(e))
	}
	return gs
}

// defaultGame is the game commands play without --game.
func defaultGame() tableGame { return tableOf(games.Games()[0]) }

// lookupGame returns the game named name, ignoring case.
func lookupGame(name string) (tableGame, bool) {
	for _, g := range games.Games() {
		if strings.EqualFold(g.Arena().Name(), name) {
			return tableOf(g), true
		}
	}
	return tableGame{}, false
}

// gameNames lists the games' names.
func gameNames() string { return strings.Join(games.Names(), ", ") }

// gameFlag adds --game and -g to fs.
func gameFlag(fs *flag.FlagSet) *string {
	name := fs.String("game", "", fmt.Sprintf("the game: %s (default %s)", gameNames(), defaultGame().Name()))
	fs.StringVar(name, "g", "", "same as --game")
	return name
}

// findGame returns the game of --game: the default when name is empty.
func findGame(name string) (tableGame, error) {
	if name == "" {
		return defaultGame(), nil
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
	return defaultGame(), nil
}
