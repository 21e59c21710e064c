package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"jgym/arena"
	"jgym/cppbot"
	"jgym/cppexport"
)

func init() {
	register(&command{
		name:  "export-cpp",
		usage: "[--game NAME] {MODEL.onnx --name NAME [-o AI<NAME>.cc] [--check] | AI<Name>.cc} [--bench [--cpu-budget 500ms]] [-s SEEDS] [-i CONFIG]",
		short: "write a trained policy as one C++ player file for the course kit (docs/cpp-bots.md)",
		run:   runExportCpp,
	})
}

func runExportCpp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["export-cpp"]
	fs := newFlagSet(c, stderr)
	gameName := gameFlag(fs)
	name := fs.String("name", "", "the player's name, PLAYER_NAME (required for a model; at most 12 characters)")
	out := fs.String("o", "", "output file (default AI<NAME>.cc in the current directory)")
	fs.StringVar(out, "output", "", "same as -o")
	check := fs.Bool("check", false, "compile the file and check that it plays exactly as policy:MODEL (one game per seed, against three Demos)")
	bench := fs.Bool("bench", false, "compile the file, play whole games against three Demos and report the CPU time, peak memory and source size of the player, "+
		"and whether it is within the CPU budget (--cpu-budget)")
	seeds := fs.String("s", "", "comma-separated seeds of the --check and --bench games; the seat turns with the seed: seed mod 4 (default 1 for --check, 1,2,3 for --bench)")
	budget := fs.Duration("cpu-budget", defaultCPUBudget, "the CPU time per match the --bench verdict compares with")
	cfgPath := fs.String("i", "", "configuration file of the --check and --bench games (default: the game's default)")
	fs.StringVar(cfgPath, "input", "", "same as -i")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one model file (or, with --bench alone, one AI<Name>.cc), got %d arguments", len(pos))
	}
	if *budget <= 0 {
		return usageErr("--cpu-budget %v: want a positive duration such as 500ms", *budget)
	}
	g, err := findGame(*gameName)
	if err != nil {
		return err
	}
	target, ok := g.Export()
	if !ok {
		return usageErr("export-cpp does not write %s players: the game has no course kit", g.Name())
	}
	model := pos[0]
	// A C++ file is benchmarked as it is: nothing to export or to check
	// against.
	source := strings.HasSuffix(model, ".cc")
	switch {
	case source && (*check || !*bench):
		return usageErr("%s is a C++ file: only --bench takes one (--check and the export take the ONNX model)", model)
	case source && *out != "":
		return usageErr("-o: %s is benchmarked as it is, not written", model)
	case !source && *name == "":
		return usageErr("missing --name NAME (the player's name)")
	}
	if *name != "" {
		if err := target.CheckName(*name); err != nil {
			return usageErr("%v", err)
		}
	}
	spec := *seeds
	if spec == "" {
		spec = "1"
		if *bench {
			spec = "1,2,3"
		}
	}
	var seedList []int
	for _, s := range strings.Split(spec, ",") {
		sd, err := parseSeed(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		seedList = append(seedList, sd)
	}
	if *bench && len(seedList) > maxBenchSeeds {
		return usageErr("--bench plays at most %d games (-s gives %d seeds)", maxBenchSeeds, len(seedList))
	}
	cfg, err := loadGameConfig(g, *cfgPath)
	if err != nil {
		return err
	}
	if source {
		*out = model
		if *name == "" {
			*name = cppbot.BotName(model)
		}
	} else {
		if *out == "" {
			*out = "AI" + *name + ".cc"
		}
		if base := strings.TrimSuffix(filepath.Base(*out), filepath.Ext(*out)); base != "AI"+*name {
			fmt.Fprintf(stderr, "jgym export-cpp: warning: the kit expects player %s in a file named AI%s.cc\n", *name, *name)
		}
		if err := cppexport.ExportFile(model, *out, target, cppexport.Options{Name: *name}); err != nil {
			return err
		}
		fi, err := os.Stat(*out)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: player %s, %d bytes\n", *out, *name, fi.Size())
	}
	if !*check && !*bench {
		return nil
	}

	start := time.Now()
	loader := &programLoader{Loader: newPathLoader(cliGetenv, stderr)}
	cpp, err := g.NewPlayer("cpp:"+*out, loader)
	if err != nil {
		return err
	}
	defer cpp.Close()
	fmt.Fprintf(stdout, "built %s in %.1f s (g++ -std=c++11 -O2 with jgym's kit, or the compile cache)\n", *out, time.Since(start).Seconds())
	demo, err := g.NewPlayer("Demo", nil)
	if err != nil {
		return err
	}
	defer demo.Close()
	if *check {
		pol, err := g.NewPlayer("policy:"+model, cliLoader)
		if err != nil {
			return err
		}
		defer pol.Close()
		for _, sd := range seedList {
			if err := ctx.Err(); err != nil {
				return err
			}
			seat := sd % arena.Seats
			want, err := exportGame(ctx, g, cfg, sd, seat, *name, pol, demo)
			if err != nil {
				return fmt.Errorf("check: policy:%s: %w", model, err)
			}
			got, err := exportGame(ctx, g, cfg, sd, seat, *name, cpp, demo)
			if err != nil {
				return fmt.Errorf("check: %s: %w", *out, err)
			}
			if !bytes.Equal(got, want) {
				return fmt.Errorf("check: seed %d, seat %d: the trace of cpp:%s differs from policy:%s's at line %s",
					sd, seat, *out, model, diffLine(got, want))
			}
			fmt.Fprintf(stdout, "check: seed %d, seat %d: cpp:%s and policy:%s play the same game (%d rounds, traces equal byte for byte)\n",
				sd, seat, *out, model, cfg.Rounds())
		}
	}
	if *bench {
		return benchPlayer(ctx, stdout, benchSpec{game: g, cfg: cfg, seeds: seedList, name: *name, src: *out,
			player: cpp, demo: demo, prog: loader.program, budget: *budget})
	}
	return nil
}

// exportGame plays one game with p in seat (named name in the trace) and
// Demos elsewhere, and returns its trace.
func exportGame(ctx context.Context, g tableGame, cfg arena.Config, seed, seat int, name string, p, demo arena.Player) ([]byte, error) {
	t := &arena.Table{Config: cfg, Seed: seed, Players: make([]arena.Player, arena.Seats), Names: make([]string, arena.Seats)}
	for s := range t.Players {
		t.Players[s], t.Names[s] = demo, "Demo"
	}
	t.Players[seat], t.Names[seat] = p, name
	var buf bytes.Buffer
	t.Trace = &buf
	if err := g.Play(ctx, t); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// diffLine returns the number of the first line where a and b differ.
func diffLine(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range la {
		if i >= len(lb) || !bytes.Equal(la[i], lb[i]) {
			return strconv.Itoa(i + 1)
		}
	}
	return strconv.Itoa(len(la) + 1)
}
