package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"jgym/cppbot"
	"jgym/env/crematoria"
)

// The cpp: seat prefix: a C++ bot written for the course kit, compiled with
// jgym's kit (docs/cpp-bots.md). Environment variables:
//
//	JGYM_CPP_TIMEOUT  wall time a bot may take per round (default 1s)
//	JGYM_CPP_STDERR   1: copy the bots' stderr (warnings, debug) to jgym's
//	JGYM_CPP_CACHE    compile cache (default $XDG_CACHE_HOME/jgym/cpp)
//	CXX               C++ compiler (default g++)
func init() {
	botPrefixes = append(botPrefixes, botPrefix{
		prefix: "cpp",
		help:   "C++ bot: AI<Name>.cc built with the kit (g++ -std=c++11 -O2), or a prebuilt AI<Name>.o linked with it",
		open:   openCppBot,
	})
}

func openCppBot(path string) (crematoria.BotFactory, io.Closer, error) {
	opts, err := cppOptions(os.Getenv, os.Stderr)
	if err != nil {
		return nil, nil, err
	}
	k, err := crematoria.CppKit()
	if err != nil {
		return nil, nil, err
	}
	prog, err := cppbot.Open(path, k, opts)
	if err != nil {
		return nil, nil, err
	}
	return crematoria.CppFactory(prog), prog, nil
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
