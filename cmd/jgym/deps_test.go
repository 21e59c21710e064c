package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// The import policy of DESIGN.md, checked on the non-test imports of
// every package of the module: cmd -> server -> vec -> env <- env/<game>.
//
//   - env imports only the standard library.
//   - env/<game>/... imports only the standard library, env, the core
//     packages and packages of the same game. A game's subpackage (a
//     strong bot of more than a few files: env/crematoria/riddick,
//     env/dominator/khan) imports its game; the game's own package never
//     imports its subpackages.
//   - the core packages (what every game shares and names no game: game,
//     the definition and everything written once over it; sandbox,
//     policy, cppbot, cppexport, kit, arena, course, dataset) import only
//     the standard library, env and each other; their test helpers
//     (coursetest, datasettest, gametest) may import internal/... too.
//   - vec imports only the standard library and env.
//   - server imports api, env, vec, gRPC, protobuf and zerolog, and no
//     concrete game.
//   - api imports only gRPC and protobuf.
//   - internal/... (test helpers) imports only the standard library.
//   - no package imports cmd.
//   - only cmd and benchmarks import concrete games (tests may too).
//
// It is a statement of policy (like go/build's deps_test.go): change it
// only with the design.

type goPackage struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) map[string]*goPackage {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	cmd := exec.Command("go", "list", "-e", "-deps", "-json", "jgym/...")
	cmd.Dir = "../.."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string]*goPackage{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = &p
	}
	return pkgs
}

func under(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

// corePackages are the roots of the packages every game may use; they
// name no game.
var corePackages = []string{"jgym/game", "jgym/sandbox", "jgym/policy", "jgym/cppbot", "jgym/cppexport", "jgym/kit", "jgym/arena", "jgym/course", "jgym/dataset"}

func isCore(path string) bool {
	for _, r := range corePackages {
		if under(path, r) {
			return true
		}
	}
	return false
}

// gameOf returns the game root (jgym/env/<game>) of a package, or "".
func gameOf(path string) string {
	rest, ok := strings.CutPrefix(path, "jgym/env/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return "jgym/env/" + name
}

func TestImportGraph(t *testing.T) {
	pkgs := listPackages(t)
	std := func(p string) bool { q, ok := pkgs[p]; return ok && q.Standard }
	if len(pkgs) == 0 || pkgs["jgym/env"] == nil {
		t.Fatal("go list found no jgym/env")
	}
	for path, p := range pkgs {
		if p.Standard || !under(path, "jgym") {
			continue
		}
		for _, imp := range p.Imports {
			bad := ""
			switch {
			case under(imp, "jgym/cmd"):
				bad = "nothing imports cmd"
			case gameOf(imp) != "" && gameOf(imp) != gameOf(path) && !under(path, "jgym/cmd") && !under(path, "jgym/benchmarks"):
				bad = "only cmd and benchmarks name concrete games"
			case path == "jgym/env" && !std(imp):
				bad = "env imports only the standard library"
			case gameOf(path) != "" && !std(imp) && imp != "jgym/env" && !isCore(imp) && gameOf(imp) != gameOf(path):
				bad = "a game imports only the standard library, env, the core packages and itself"
			case path == gameOf(path) && under(imp, path) && imp != path:
				bad = "a game's package never imports its subpackages (they import it)"
			case isCore(path) && !std(imp) && imp != "jgym/env" && !isCore(imp) && !(strings.HasSuffix(path, "test") && under(imp, "jgym/internal")):
				bad = "a core package imports only the standard library, env and the core packages"
			case under(path, "jgym/vec") && !std(imp) && imp != "jgym/env":
				bad = "vec imports only the standard library and env"
			case under(path, "jgym/server") && !std(imp) && !under(imp, "jgym/api") && imp != "jgym/env" && imp != "jgym/vec" &&
				!under(imp, "google.golang.org/grpc") && !under(imp, "google.golang.org/protobuf") && !under(imp, "github.com/rs/zerolog"):
				bad = "server imports api, env, vec, gRPC, protobuf and zerolog"
			case under(path, "jgym/api") && !std(imp) && !under(imp, "google.golang.org/grpc") && !under(imp, "google.golang.org/protobuf"):
				bad = "api imports only gRPC and protobuf"
			case under(path, "jgym/internal") && !std(imp):
				bad = "internal imports only the standard library"
			}
			if bad != "" {
				t.Errorf("%s imports %s: %s", path, imp, bad)
			}
		}
	}
	// Transitively, env, the core packages and the games stay within the
	// standard library.
	for path, p := range pkgs {
		if path != "jgym/env" && gameOf(path) == "" && !isCore(path) {
			continue
		}
		for _, d := range p.Deps {
			if !std(d) && !under(d, "jgym/env") && !isCore(d) && !(strings.HasSuffix(path, "test") && under(d, "jgym/internal")) {
				t.Errorf("%s depends on %s, outside the standard library", path, d)
			}
		}
	}
}
