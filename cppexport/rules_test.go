package cppexport_test

import (
	"fmt"
	"jgym/cppexport"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"jgym/internal/strict"
)

// The rules of the course's judge on an exported file: it compiles
// without warnings, defines no global or static data, calls nothing
// beyond what the kit's players call, and follows the source rules.

// compileObject compiles a bot file against the kit into an object file
// with the flags given after the usual ones.
func compileObject(t *testing.T, src, obj string, flags ...string) {
	t.Helper()
	args := append([]string{"-std=c++11", "-O2", "-c", "-I", kitDir, "-o", obj, src}, flags...)
	out, err := exec.Command("g++", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("g++ %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if len(out) > 0 {
		t.Fatalf("g++ %s printed:\n%s", strings.Join(args, " "), out)
	}
}

var (
	objMu   sync.Mutex
	objects = map[string]string{}
)

// strictObject compiles the exported file of a model with every warning
// as an error, once per test binary, and returns the object file.
func strictObject(t *testing.T, tm testModel) string {
	t.Helper()
	b := compiled(t, tm, false, nil)
	objMu.Lock()
	defer objMu.Unlock()
	if obj, ok := objects[b.src]; ok {
		return obj
	}
	obj := strings.TrimSuffix(b.src, ".cc") + ".o"
	compileObject(t, b.src, obj, "-Wall", "-Wextra", "-Wpedantic", "-Werror")
	objects[b.src] = obj
	return obj
}

// TestCompilesWithoutWarnings compiles every exported file with
// g++ -std=c++11 -O2 -Wall -Wextra -Wpedantic -Werror.
func TestCompilesWithoutWarnings(t *testing.T) {
	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) { strictObject(t, tm) })
	}
}

// symbols returns the defined data symbols (nm types b, d, g, r, s, u, v
// in either case, but for the compiler's anonymous .LC constants) and the
// undefined symbols of an object file.
func symbols(t *testing.T, obj string) (data, undef map[string]bool) {
	t.Helper()
	out, err := exec.Command("nm", obj).Output()
	if err != nil {
		t.Fatalf("nm %s: %v", obj, err)
	}
	data, undef = map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "U":
			undef[f[1]] = true
		case len(f) == 2 && f[0] == "w":
			undef[f[1]] = true
		case len(f) == 3 && strings.Contains("bBdDgGrRsSuUvV", f[1]) && !strings.HasPrefix(f[2], ".LC"):
			data[f[2]] = true
		}
	}
	return data, undef
}

// allowedCalls are the functions the exported code may call beyond what
// the kit's own players call: memory, copies and the standard library's
// exceptions, nothing that touches a file, the clock or the system.
var allowedCalls = regexp.MustCompile(`^(memcpy|memmove|memset|_Znwm|_ZdlPv|_ZdlPvm|_ZSt17__throw_bad_alloc[v]?|_ZSt20__throw_length_error.*|_ZSt24__throw_out_of_range_fmt.*|_ZSt28__throw_bad_array_new_lengthv|_ZSt19__throw_logic_error.*)$`)

// kitTypeData are the vtables and type information of the kit's classes and
// of the player's own class (#), which any player may need.
var kitTypeData = regexp.MustCompile(`^_ZT[VIS](6Player|4Info|5State|8Settings|6Action|16Random_generator|#)$`)

// TestNoGlobals checks the rules of the course's judge on the object file
// of each exported player: it defines no data of its own (no global or
// static variable: every data symbol is one that the kit's Null or Demo
// player also has, such as typeinfo and vtables, besides the compiler's
// anonymous constants), and it calls nothing beyond what those players
// call, memory allocation and copies.
func TestNoGlobals(t *testing.T) {
	needGXX(t)
	if _, err := exec.LookPath("nm"); err != nil {
		strict.Skip(t, "nm not found")
	}
	dir := t.TempDir()
	baseData, baseUndef := map[string]bool{}, map[string]bool{}
	for _, name := range []string{"Null", "Demo"} {
		obj := filepath.Join(dir, name+".o")
		compileObject(t, filepath.Join(kitDir, "AI"+name+".cc"), obj)
		d, u := symbols(t, obj)
		for s := range d {
			baseData[strings.ReplaceAll(s, fmt.Sprint(len(name))+name, "#")] = true
		}
		for s := range u {
			baseUndef[s] = true
		}
	}
	// check returns what is wrong with the object of player name.
	check := func(obj, name string) (bad []string, ndata, nundef int) {
		data, undef := symbols(t, obj)
		if len(data) == 0 {
			t.Fatal("nm found no data symbol at all (typeinfo expected): is the check working?")
		}
		for s := range data {
			s2 := strings.ReplaceAll(s, fmt.Sprint(len(name))+name, "#")
			if !baseData[s2] && !kitTypeData.MatchString(s2) {
				bad = append(bad, "data symbol "+s+": the kit's players have none such (a global or static variable?)")
			}
		}
		for s := range undef {
			if !baseUndef[s] && !allowedCalls.MatchString(s) {
				bad = append(bad, "calls "+s+", which neither the kit's players nor the allowed list do")
			}
		}
		return bad, len(data), len(undef)
	}

	// The check catches globals, static locals, static members and calls.
	badSrc := filepath.Join(dir, "AIBad.cc")
	if err := os.WriteFile(badSrc, []byte(`#include "Player.hh"
#define PLAYER_NAME Bad
int counter;
struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }
  static int member;
  int next() { static int n = 0; return ++n; }
  virtual void play() { counter += next() + member; if (counter < 0) system("true"); }
};
int PLAYER_NAME::member = 1;
RegisterPlayer(PLAYER_NAME);
`), 0o644); err != nil {
		t.Fatal(err)
	}
	compileObject(t, badSrc, filepath.Join(dir, "Bad.o"))
	bad, _, _ := check(filepath.Join(dir, "Bad.o"), "Bad")
	for _, want := range []string{"counter", "_ZZN3Bad4nextEvE1n", "_ZN3Bad6memberE", "calls system"} {
		found := false
		for _, b := range bad {
			found = found || strings.Contains(b, want)
		}
		if !found {
			t.Errorf("the check misses %s in a bad player: %q", want, bad)
		}
	}

	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) {
			bad, ndata, nundef := check(strictObject(t, tm), tm.name)
			for _, b := range bad {
				t.Error(b)
			}
			if len(bad) == 0 {
				t.Logf("%d data symbols, all the kit's or the player's class's; %d undefined symbols, all allowed", ndata, nundef)
			}
		})
	}
}

// TestSourceRules checks the text of an exported file: one file, the
// kit's header only, no static data, no file or system call.
func TestSourceRules(t *testing.T) {
	for _, tm := range models(t) {
		t.Run(tm.name, func(t *testing.T) {
			raw, err := os.ReadFile(tm.path)
			if err != nil {
				t.Fatal(err)
			}
			src, err := cppexport.Export(raw, crematoriaTarget, cppexport.Options{Name: tm.name})
			if err != nil {
				t.Fatal(err)
			}
			text := string(src)
			var includes []string
			for _, line := range strings.Split(text, "\n") {
				l := strings.TrimSpace(line)
				if strings.HasPrefix(l, "#include") {
					includes = append(includes, l)
				}
				if strings.HasPrefix(l, "//") {
					continue
				}
				if strings.Contains(l, "static ") && !strings.HasPrefix(l, "static Player* factory()") && !strings.HasPrefix(l, "static void stamp(") {
					t.Errorf("static: %s", l)
				}
			}
			if len(includes) != 1 || includes[0] != `#include "Player.hh"` {
				t.Errorf("includes %q, want only Player.hh", includes)
			}
			code := regexp.MustCompile(`(?m)//.*$`).ReplaceAllString(text, "")
			forbidden := regexp.MustCompile(`\b(FILE|fopen|freopen|fstream|ifstream|ofstream|system|popen|fork|exec\w*|socket|getenv|time|clock|srand|rand|exit|_exit|abort|thread|mutex|asm|__asm__|goto|global|extern|volatile|cin|cout|printf|scanf|getchar|putchar)\b`)
			if m := forbidden.FindAllString(code, -1); len(m) > 0 {
				t.Errorf("forbidden names in the code: %q", m)
			}
			if !strings.Contains(code, "RegisterPlayer(PLAYER_NAME);") || !strings.Contains(code, "#define PLAYER_NAME "+tm.name) {
				t.Error("the player is not registered with RegisterPlayer(PLAYER_NAME)")
			}
		})
	}
}
