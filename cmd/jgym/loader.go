package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"jgym/arena"
	"jgym/cppbot"
	"jgym/policy"
)

// The "prefix:PATH" seats of the commands you run yourself (match, eval,
// tournament, bench): PATH is a file of this machine. jgym serve never
// takes a path from a request (servebots.go).
//
//	policy:PATH  an ONNX policy exported by jgym.torch (python-client/examples/ppo.py)
//	             (docs/export.md), run by the pure-Go interpreter of package
//	             policy. A file is loaded and checked once per process and
//	             game (unsupported operators and a mismatched observation
//	             version fail there, before any game starts) and shared by
//	             every seat and game that names it while the file is
//	             unchanged: a loaded model is immutable.
//	cpp:PATH     a C++ bot written for the course kit, compiled with jgym's
//	             kit of the game (docs/cpp-bots.md). Environment variables:
//
//	JGYM_CPP_TIMEOUT  wall time a bot may take per round (default 10s; jgym serve 1s)
//	JGYM_CPP_STDERR   1: copy the bots' stderr (warnings, debug) to jgym's
//	JGYM_CPP_CACHE    compile cache (default $XDG_CACHE_HOME/jgym/cpp)
//	CXX               C++ compiler (default g++)

// prefixHelp describes the prefixes for jgym list.
var prefixHelp = map[string]string{
	"cpp":    "C++ bot: AI<Name>.cc built with the kit (g++ -std=c++11 -O2), or a prebuilt AI<Name>.o linked with it",
	"policy": "exported ONNX policy (jgym.torch, python-client/examples/ppo.py, docs/export.md), run in Go",
}

// pathLoader is the arena.Loader of the command line: a REF is a path.
type pathLoader struct {
	getenv func(string) string
	stderr io.Writer

	mu     sync.Mutex
	models map[policyKey]*policy.Model
}

var (
	_ arena.Loader    = (*pathLoader)(nil)
	_ arena.Describer = (*pathLoader)(nil)
)

// Describe says where the references of prefix seats point.
func (l *pathLoader) Describe() string {
	return "the path of an exported ONNX policy, or of a C++ bot AI<Name>.cc or AI<Name>.o"
}

// cliLoader loads the files of the commands' seats.
var cliLoader = newPathLoader(cliGetenv, os.Stderr)

// cliRoundTimeout is the wall time a C++ bot of the commands you run
// yourself (match, eval, tournament, bench, export-cpp) may take per round
// unless JGYM_CPP_TIMEOUT says otherwise. The timeout finds a bot that
// hangs; it is not the course's limit, which is CPU time per match
// (export-cpp --bench measures it). A busy machine can leave a bot that
// needs a few ms a round off the CPU for over a second (a docs run of
// jgym eval failed so, beside two training processes): those games must
// not fail. jgym serve keeps cppbot.DefaultRoundTimeout (1 s), since its
// bots hold a session's seats.
const cliRoundTimeout = "10s"

// cliGetenv is os.Getenv with cliRoundTimeout for an unset
// JGYM_CPP_TIMEOUT.
func cliGetenv(key string) string {
	v := os.Getenv(key)
	if key == "JGYM_CPP_TIMEOUT" && v == "" {
		return cliRoundTimeout
	}
	return v
}

func newPathLoader(getenv func(string) string, stderr io.Writer) *pathLoader {
	return &pathLoader{getenv: getenv, stderr: stderr, models: map[policyKey]*policy.Model{}}
}

// policyKey identifies a version of a policy file, checked against the
// observation of one game.
type policyKey struct {
	path        string
	size        int64
	mtime       time.Time
	observation string
}

// Policy loads the policy file at path, or returns the model already
// loaded from the same version of the file for the same observation.
func (l *pathLoader) Policy(path string, sig policy.Signature) (*policy.Model, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	key := policyKey{path, fi.Size(), fi.ModTime(), sig.ObservationVersion}
	l.mu.Lock()
	defer l.mu.Unlock()
	if m, ok := l.models[key]; ok {
		return m, nil
	}
	m, err := policy.Load(path, sig)
	if err != nil {
		return nil, err
	}
	l.models[key] = m
	return m, nil
}

// Cpp compiles the C++ bot at path (or links a prebuilt object) with
// kit k, with the options of the environment.
func (l *pathLoader) Cpp(path string, k *cppbot.Kit) (*cppbot.Program, error) {
	opts, err := cppOptions(l.getenv, l.stderr)
	if err != nil {
		return nil, err
	}
	return cppbot.Open(path, k, opts)
}

// cppOptions reads the cpp: options from the environment.
func cppOptions(getenv func(string) string, stderr io.Writer) (cppbot.Options, error) {
	var opts cppbot.Options
	if s := getenv("JGYM_CPP_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return opts, fmt.Errorf("JGYM_CPP_TIMEOUT=%q: want a positive duration such as 1s or 500ms", s)
		}
		opts.RoundTimeout = d
	}
	if getenv("JGYM_CPP_STDERR") == "1" {
		opts.Stderr = stderr
	}
	return opts, nil
}
