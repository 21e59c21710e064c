// Command jgym runs the EDA course's games (the table of games.go; the
// commands take --game, Crematoria by default), serves them to
// reinforcement-learning clients over gRPC, and checks, benchmarks and
// replays them.
//
// Usage:
//
//	jgym <command> [arguments]
//
// Run "jgym help" for the list of commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"jgym/sandbox"
	"jgym/server"
)

// command is one subcommand of the jgym binary.
type command struct {
	name  string
	usage string // one-line synopsis after the command name
	short string
	run   func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errUsage marks errors caused by bad command-line arguments (exit code 2).
var errUsage = errors.New("bad arguments")

func usageErr(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, a...)...)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	sandbox.Release() // the control groups and shared files of C++ bots' sandboxes
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		// No command is a usage error: the help goes to stderr.
		printHelp(stderr)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprintf(stdout, "usage: jgym %s %s\n\n%s\n", c.name, c.usage, c.short)
				return 0
			}
		}
		printHelp(stdout)
		return 0
	}
	if args[0] == "-v" || args[0] == "--version" || args[0] == "version" {
		fmt.Fprintln(stdout, versionString())
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "jgym: unknown command %q; run \"jgym help\" for the list\n", args[0])
		return 2
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "jgym %s: %v\nusage: jgym %s %s\n", c.name, err, c.name, c.usage)
		return 2
	default:
		fmt.Fprintf(stderr, "jgym %s: %v\n", c.name, err)
		return 1
	}
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "jgym: reinforcement-learning environments for the EDA course games.")
	fmt.Fprintln(w, "\nUsage: jgym <command> [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nRun \"jgym help <command>\" or \"jgym <command> -h\" for details.")
}

// version is jgym's release: jgym serve reports it (GetVersion), and the
// Python package of the same release (python-client/pyproject.toml, whose
// wheel carries this binary) has the same version; a test checks it.
const version = "0.2.0"

func versionString() string {
	return fmt.Sprintf("jgym %s (protocol %d)", version, server.ProtocolVersion)
}

// parseArgs parses flags that may appear before, between or after the
// positional arguments, as the kit's getopt does.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(c *command, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("jgym "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: jgym %s %s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short)
		fs.PrintDefaults()
	}
	return fs
}
