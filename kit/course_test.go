package kit_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"jgym/cppexport"
	"jgym/env/crematoria"
	"jgym/env/dominator"
	"jgym/env/moria"
	"jgym/env/pandemic"
	"jgym/internal/strict"
	"jgym/kit"
)

// jgym's kit must accept no program the course's kit rejects. Where the
// course's headers declare a member without const or take an enum, so do
// jgym's; these tests hold that, and check that every player of the
// repository (the examples, the test players, the docs' players, the
// exported ones) compiles with the course's declarations and with the
// more lenient ones jgym's kit had before (a player must build in both).

// lenient lists, per game, the course's declarations in jgym's kit and
// the lenient form they had in jgym's kit before: const members, int
// arguments. Each "course" text must occur exactly once in its file.
var lenient = map[string][]struct{ file, course, old string }{
	"pandemic": {
		{"Player.hh", "int me() {", "int me() const {"},
		{"State.hh", "vector<int> my_units(int pl) {", "vector<int> my_units(int pl) const {"},
	},
	"dominator": {
		{"State.hh", "vector<int> farmers(int pl) {", "vector<int> farmers(int pl) const {"},
		{"State.hh", "vector<int> knights(int pl) {", "vector<int> knights(int pl) const {"},
		{"State.hh", "vector<int> witches(int pl) {", "vector<int> witches(int pl) const {"},
		{"Structs.hh", "inline bool dir_ok(Dir dir) {", "inline bool dir_ok(int dir) {"},
		{"Structs.hh", "inline bool ut_ok(UnitType ut) {", "inline bool ut_ok(int ut) {"},
	},
}

var games = []string{"crematoria", "dominator", "moria", "pandemic"}

// The two kits a player is compiled against.
const (
	courseDecl  = "course"  // jgym's kit as it is: the course's declarations
	lenientDecl = "lenient" // jgym's kit with the declarations of lenient
)

var (
	kitsOnce sync.Once
	kitsDir  string
	kitsErr  error
)

// kitDir returns a folder holding game's kit headers with the
// declarations decl, written once per test binary.
func kitDir(t *testing.T, game, decl string) string {
	t.Helper()
	kitsOnce.Do(func() {
		kitsDir, kitsErr = os.MkdirTemp("", "jgym-kit-test-")
		if kitsErr != nil {
			return
		}
		for _, g := range games {
			for _, d := range []string{courseDecl, lenientDecl} {
				if kitsErr = writeKit(filepath.Join(kitsDir, g+"-"+d), g, d); kitsErr != nil {
					return
				}
			}
		}
	})
	if kitsErr != nil {
		t.Fatal(kitsErr)
	}
	return filepath.Join(kitsDir, game+"-"+decl)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if kitsDir != "" {
		os.RemoveAll(kitsDir)
	}
	os.Exit(code)
}

// writeKit writes the headers of game's kit into dir, with the lenient
// declarations if decl is lenientDecl.
func writeKit(dir, game, decl string) error {
	fsys, err := kit.FS(game)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".hh") {
			return err
		}
		b, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		if decl == lenientDecl {
			for _, r := range lenient[game] {
				if r.file != path {
					continue
				}
				if n := bytes.Count(b, []byte(r.course)); n != 1 {
					return fmt.Errorf("kit/%s/%s holds %q %d times, want once", game, path, r.course, n)
				}
				b = bytes.Replace(b, []byte(r.course), []byte(r.old), 1)
			}
		}
		return os.WriteFile(filepath.Join(dir, path), b, 0o644)
	})
}

func needGXX(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("g++"); err != nil {
		strict.Skip(t, "g++ not found")
	}
}

// syntax compiles src (a file) with g++ -std=c++11 -fsyntax-only against
// the kit in dir and returns the compiler's output and error.
func syntax(dir, src string) ([]byte, error) {
	return exec.Command("g++", "-std=c++11", "-fsyntax-only", "-I", dir, src).CombinedOutput()
}

// syntaxOf compiles the C++ text code as syntax does.
func syntaxOf(t *testing.T, dir, code string) ([]byte, error) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "AISnippet.cc")
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	return syntax(dir, src)
}

// TestKitRejectsWhatTheCourseRejects compiles, for each declaration where
// the course's kit is stricter than jgym's was, a use the course rejects
// and the same use written as the course accepts it. With jgym's kit the
// first must fail to compile and the second compile; with the former
// lenient declarations both compile (so the first fails for the
// declaration, not for a typo).
func TestKitRejectsWhatTheCourseRejects(t *testing.T) {
	needGXX(t)
	cases := []struct {
		game, name, rejected, accepted, diagnostic string
	}{
		{"pandemic", "me on a const Player",
			"int f(const Player& p) { return p.me(); }",
			"int f(Player& p) { return p.me(); }", "discards qualifiers"},
		{"pandemic", "me in a const member",
			"struct Mine : Player { int rel(int pl) const { return (pl - me() + 4) % 4; } };",
			"struct Mine : Player { int rel(int pl) { return (pl - me() + 4) % 4; } };", "discards qualifiers"},
		{"pandemic", "my_units on a const State",
			"size_t f(const State& s) { return s.my_units(0).size(); }",
			"size_t f(State& s) { return s.my_units(0).size(); }", "discards qualifiers"},
		{"dominator", "farmers on a const State",
			"size_t f(const State& s) { return s.farmers(0).size(); }",
			"size_t f(State& s) { return s.farmers(0).size(); }", "discards qualifiers"},
		{"dominator", "knights on a const State",
			"size_t f(const State& s) { return s.knights(0).size(); }",
			"size_t f(State& s) { return s.knights(0).size(); }", "discards qualifiers"},
		{"dominator", "witches on a const State",
			"size_t f(const State& s) { return s.witches(0).size(); }",
			"size_t f(State& s) { return s.witches(0).size(); }", "discards qualifiers"},
		{"dominator", "dir_ok of an int",
			"bool f() { return dir_ok(3); }",
			"bool f() { return dir_ok(Dir(3)); }", "invalid conversion from 'int' to 'Dir'"},
		{"dominator", "ut_ok of an int",
			"bool f() { return ut_ok(1); }",
			"bool f() { return ut_ok(UnitType(1)); }", "invalid conversion from 'int' to 'UnitType'"},
	}
	for _, c := range cases {
		t.Run(c.game+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			prog := func(body string) string { return "#include \"Player.hh\"\n" + body + "\n" }
			out, err := syntaxOf(t, kitDir(t, c.game, courseDecl), prog(c.rejected))
			if err == nil {
				t.Errorf("jgym's kit/%s accepts %q, which the course's kit rejects", c.game, c.rejected)
			} else if got := strings.ReplaceAll(string(out), "‘", "'"); !strings.Contains(strings.ReplaceAll(got, "’", "'"), c.diagnostic) {
				t.Errorf("jgym's kit/%s rejects %q without %q:\n%s", c.game, c.rejected, c.diagnostic, out)
			}
			if out, err := syntaxOf(t, kitDir(t, c.game, courseDecl), prog(c.accepted)); err != nil {
				t.Errorf("jgym's kit/%s rejects %q: %v\n%s", c.game, c.accepted, err, out)
			}
			if out, err := syntaxOf(t, kitDir(t, c.game, lenientDecl), prog(c.rejected)); err != nil {
				t.Errorf("the lenient kit/%s rejects %q too: %v\n%s", c.game, c.rejected, err, out)
			}
		})
	}
}

// player is a C++ player of the repository and the game of its kit.
type player struct {
	name, game string
	src        string // the file to compile
}

// exportedRE reads the game of an exported player from its first line.
var exportedRE = regexp.MustCompile(`^// AI\w+\.cc: a (\w+) player for the course kit`)

// examplePlayers returns the players of the repository: the kits' own,
// the test players (but AIBroken.cc, which must not compile), the shipped
// exported files and the players of the docs.
func examplePlayers(t *testing.T) []player {
	t.Helper()
	var ps []player
	add := func(pattern string, gameOf func(path string) string) {
		files, err := filepath.Glob(filepath.Join("..", pattern))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no file matches %s", pattern)
		}
		for _, f := range files {
			if filepath.Base(f) == "AIBroken.cc" {
				continue
			}
			g := gameOf(f)
			if g == "" {
				t.Fatalf("%s: cannot tell its game", f)
			}
			ps = append(ps, player{name: strings.TrimPrefix(f, "../"), game: g, src: f})
		}
	}
	add("kit/*/AI*.cc", func(p string) string { return filepath.Base(filepath.Dir(p)) })
	add("env/*/testdata/AI*.cc", func(p string) string { return filepath.Base(filepath.Dir(filepath.Dir(p))) })
	add("cppbot/testdata/AI*.cc", func(string) string { return "crematoria" }) // cppbot's tests use Crematoria's kit
	add("python-client/examples/models/AI*.cc", func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := exportedRE.FindSubmatch(b); m != nil {
			return strings.ToLower(string(m[1]))
		}
		return ""
	})
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, "../README.md")
	n := 0
	for _, d := range docs {
		for _, b := range docPlayers(t, d) {
			n++
			ps = append(ps, b)
		}
	}
	if n < 4 {
		t.Fatalf("found %d players in the docs, want one per game at least", n)
	}
	return ps
}

var (
	fenceRE  = regexp.MustCompile("^\\s*```(\\w*)")
	kitRefRE = regexp.MustCompile("kit/(crematoria|dominator|moria|pandemic)")
)

// docPlayers returns the players of a doc: its cpp blocks that include
// Player.hh, each for the kit the text named last before it, written to
// a temporary file.
func docPlayers(t *testing.T, doc string) []player {
	t.Helper()
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var ps []player
	game, lang := "", ""
	var block []string
	start := 0
	for i, line := range strings.Split(string(b), "\n") {
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			if lang == "" && block == nil {
				lang, block, start = m[1], []string{}, i+1
				if lang == "" {
					lang = "text"
				}
				continue
			}
			code := strings.Join(block, "\n")
			if lang == "cpp" && strings.Contains(code, `#include "Player.hh"`) {
				if game == "" {
					t.Fatalf("%s:%d: a player before any kit/<game> is named", doc, start)
				}
				src := filepath.Join(t.TempDir(), fmt.Sprintf("AIDoc%d.cc", start))
				if err := os.WriteFile(src, []byte(code+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				ps = append(ps, player{name: fmt.Sprintf("%s:%d (%s)", strings.TrimPrefix(doc, "../"), start, game), game: game, src: src})
			}
			lang, block = "", nil
			continue
		}
		if block != nil {
			block = append(block, line)
			continue
		}
		if ms := kitRefRE.FindAllStringSubmatch(line, -1); ms != nil {
			game = ms[len(ms)-1][1]
		}
	}
	return ps
}

// TestExamplePlayersCompileEitherWay compiles every player of the
// repository against its game's kit with the course's declarations and
// with the lenient ones.
func TestExamplePlayersCompileEitherWay(t *testing.T) {
	needGXX(t)
	ps := examplePlayers(t)
	counts := map[string]int{}
	for _, p := range ps {
		counts[p.game]++
	}
	for _, g := range games {
		if counts[g] == 0 {
			t.Errorf("no example player of %s", g)
		}
	}
	for _, p := range ps {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			compileBothWays(t, p)
		})
	}
}

// compileBothWays compiles p against its game's two kits (once where
// they are the same: the games without lenient declarations).
func compileBothWays(t *testing.T, p player) {
	t.Helper()
	decls := []string{courseDecl, lenientDecl}
	if len(lenient[p.game]) == 0 {
		decls = decls[:1]
	}
	for _, decl := range decls {
		if out, err := syntax(kitDir(t, p.game, decl), p.src); err != nil {
			t.Errorf("%s does not compile with the %s declarations of kit/%s: %v\n%s", p.name, decl, p.game, err, out)
		}
	}
}

// targets are the exporters of the four games: each definition's C++
// target with its policies' signature (what jgym export-cpp uses).
var targets = map[string]func() (cppexport.Target, bool){
	"crematoria": crematoria.Def.Export,
	"dominator":  dominator.Def.Export,
	"moria":      moria.Def.Export,
	"pandemic":   pandemic.Def.Export,
}

// TestExportedPlayersCompileEitherWay exports every ONNX policy the
// repository ships (python-client/examples/models/<game>_*.onnx, one at
// least per game) and compiles the file against its game's two kits.
func TestExportedPlayersCompileEitherWay(t *testing.T) {
	needGXX(t)
	models, err := filepath.Glob("../python-client/examples/models/*.onnx")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(models)
	seen := map[string]bool{}
	dir := t.TempDir()
	for _, m := range models {
		game, _, _ := strings.Cut(filepath.Base(m), "_")
		export, ok := targets[game]
		if !ok {
			t.Errorf("%s: no game %q", m, game)
			continue
		}
		seen[game] = true
		t.Run(filepath.Base(m), func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			target, ok := export()
			if !ok {
				t.Fatalf("%s has no C++ target", game)
			}
			src, err := cppexport.Export(raw, target, cppexport.Options{Name: "Shipped", Source: m})
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, strings.TrimSuffix(filepath.Base(m), ".onnx"), "AIShipped.cc")
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, src, 0o644); err != nil {
				t.Fatal(err)
			}
			compileBothWays(t, player{name: "export of " + filepath.Base(m), game: game, src: file})
		})
	}
	for _, g := range games {
		if !seen[g] {
			t.Errorf("no shipped model of %s in python-client/examples/models", g)
		}
	}
}
