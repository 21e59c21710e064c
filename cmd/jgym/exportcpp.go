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

	"jgym/cppbot"
	"jgym/cppexport"
	"jgym/env/crematoria"
	"jgym/policy"
)

func init() {
	register(&command{
		name:  "export-cpp",
		usage: "MODEL.onnx --name NAME [-o AI<NAME>.cc] [--check] [--bench] [-s SEEDS] [-i CONFIG]",
		short: "write a trained policy as one C++ player file for the course kit (docs/cpp-bots.md)",
		run:   runExportCpp,
	})
}

func runExportCpp(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["export-cpp"]
	fs := newFlagSet(c, stderr)
	name := fs.String("name", "", "the player's name, PLAYER_NAME (required; at most 12 characters)")
	out := fs.String("o", "", "output file (default AI<NAME>.cc in the current directory)")
	fs.StringVar(out, "output", "", "same as -o")
	check := fs.Bool("check", false, "compile the file and check that it plays exactly as policy:MODEL (one game per seed, against three Demos)")
	bench := fs.Bool("bench", false, "compile the file and report the CPU time its process uses for one game against three Demos")
	seeds := fs.String("s", "1", "comma-separated seeds of the --check and --bench games (the seat turns with the seed: seed mod 4)")
	cfgPath := fs.String("i", "", "configuration file of the --check and --bench games (default: the embedded default.cnf)")
	fs.StringVar(cfgPath, "input", "", "same as -i")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErr("want one model file, got %d arguments", len(pos))
	}
	if *name == "" {
		return usageErr("missing --name NAME (the player's name)")
	}
	target := crematoria.CppTarget()
	if err := target.CheckName(*name); err != nil {
		return usageErr("%v", err)
	}
	var seedList []int
	for _, s := range strings.Split(*seeds, ",") {
		sd, err := parseSeed(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		seedList = append(seedList, sd)
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	model := pos[0]
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
	if !*check && !*bench {
		return nil
	}

	opts, err := cppOptions(os.Getenv, stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	k, err := crematoria.CppKit()
	if err != nil {
		return err
	}
	prog, err := cppbot.Open(*out, k, opts)
	if err != nil {
		return err
	}
	defer prog.Close()
	fmt.Fprintf(stdout, "built %s in %.1f s (g++ -std=c++11 -O2 with jgym's kit, or the compile cache)\n", *out, time.Since(start).Seconds())
	if *check {
		m, err := policy.Load(model, crematoria.PolicySignature())
		if err != nil {
			return err
		}
		for _, sd := range seedList {
			if err := ctx.Err(); err != nil {
				return err
			}
			seat := sd % crematoria.NumPlayers
			want, err := exportGame(cfg, sd, seat, *name, crematoria.NewPolicyBot(m, seat))
			if err != nil {
				return fmt.Errorf("check: policy:%s: %w", model, err)
			}
			bot := crematoria.NewCppBot(prog, seat, sd)
			got, err := exportGame(cfg, sd, seat, *name, bot)
			bot.Close() // reaped now, not during --bench
			if err != nil {
				return fmt.Errorf("check: %s: %w", *out, err)
			}
			if !bytes.Equal(got, want) {
				return fmt.Errorf("check: seed %d, seat %d: the trace of cpp:%s differs from policy:%s's at line %s",
					sd, seat, *out, model, diffLine(got, want))
			}
			fmt.Fprintf(stdout, "check: seed %d, seat %d: cpp:%s and policy:%s play the same game (%d rounds, traces equal byte for byte)\n",
				sd, seat, *out, model, cfg.NbRounds)
		}
	}
	if *bench {
		sd := seedList[0]
		seat := sd % crematoria.NumPlayers
		u0, s0, ok := cppexport.ChildrenCPU()
		if !ok {
			return fmt.Errorf("bench: this system does not report the CPU time of child processes")
		}
		t0 := time.Now()
		bot := crematoria.NewCppBot(prog, seat, sd)
		_, err := exportGame(cfg, sd, seat, *name, bot)
		bot.Close() // waits for the process, so that its CPU time is counted
		wall := time.Since(t0)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		u1, s1, _ := cppexport.ChildrenCPU()
		user, sys := u1-u0, s1-s0
		cpu := user + sys
		fmt.Fprintf(stdout, "bench: seed %d, seat %d, %d rounds against three Demos: the player's process used %.3f s of CPU (user %.3f s, system %.3f s), %.2f ms per round; game wall time %.2f s\n",
			sd, seat, cfg.NbRounds, cpu.Seconds(), user.Seconds(), sys.Seconds(), cpu.Seconds()*1000/float64(cfg.NbRounds), wall.Seconds())
	}
	return nil
}

// exportGame plays one game with bot in seat and Demos elsewhere, and
// returns its trace.
func exportGame(cfg crematoria.Config, seed, seat int, name string, bot crematoria.Bot) ([]byte, error) {
	var names [crematoria.NumPlayers]string
	var bots [crematoria.NumPlayers]crematoria.Bot
	for p := range bots {
		names[p], bots[p] = "Demo", crematoria.NewDemo(p, seed)
	}
	names[seat], bots[seat] = name, bot
	m, err := crematoria.NewMatchWithBots(cfg, seed, names, bots)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	if err := m.Run(); err != nil {
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
