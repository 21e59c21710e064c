package cppexport_test

import (
	"bytes"
	"fmt"
	"jgym/cppexport"
	"jgym/game"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"jgym/course/coursetest"
	"jgym/cppbot"
	"jgym/env/crematoria"
	"jgym/policy"
)

// kitDir holds jgym's kit headers, which the exported files are compiled
// against.
const kitDir = "../kit/crematoria"

// trainedModel is the example's trained policy (colleague F's), used when
// present; JGYM_EXPORT_MODEL overrides it.
const trainedModel = "../python-client/examples/models/crematoria_ppo.onnx"

var (
	workDir  string // exported files, per test binary
	cacheDir string // cppbot's compile cache, shared by the tests
)

func TestMain(m *testing.M) {
	var err error
	if workDir, err = os.MkdirTemp("", "cppexport-test-"); err == nil {
		cacheDir = filepath.Join(workDir, "cache")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	for _, b := range builds {
		if b.prog != nil {
			b.prog.Close()
		}
	}
	os.RemoveAll(workDir)
	os.Exit(code)
}

var needGXX = cppexport.NeedGXX

// testModel is a model the tests export.
type testModel struct {
	name string // short name, also the player's name
	path string
}

// models returns the models to test: the two of testdata, small.onnx with
// opponent_order score (scoreModel) and, if present, the trained one.
func models(t testing.TB) []testModel {
	ms := []testModel{{"Small", "testdata/small.onnx"}, {"Ops", "testdata/ops.onnx"}, {"SmallScore", scoreModel(t)}}
	p := os.Getenv("JGYM_EXPORT_MODEL")
	if p == "" {
		p = trainedModel
	}
	if _, err := os.Stat(p); err == nil {
		ms = append(ms, testModel{"Trained", p})
	} else {
		t.Logf("no trained model at %s: testing the testdata models only", p)
	}
	return ms
}

var scoreOnce struct {
	sync.Once
	path string
	err  error
}

// scoreModel writes, once per test binary, testdata/small.onnx with the
// metadata opponent_order = score into the work directory and returns its
// path: the same weights fed the opponents by decreasing score.
func scoreModel(t testing.TB) string {
	t.Helper()
	scoreOnce.Do(func() {
		raw, err := os.ReadFile("testdata/small.onnx")
		if err != nil {
			scoreOnce.err = err
			return
		}
		scoreOnce.path = filepath.Join(workDir, "small_score.onnx")
		scoreOnce.err = os.WriteFile(scoreOnce.path, coursetest.WithMetadata(raw, policy.KeyOpponentOrder, policy.OpponentsByScore), 0o644)
	})
	if scoreOnce.err != nil {
		t.Fatal(scoreOnce.err)
	}
	return scoreOnce.path
}

// built is an exported model, compiled.
type built struct {
	src   string // AI<Name>.cc
	prog  *cppbot.Program
	model *policy.Model
	err   error
}

var (
	builtMu sync.Mutex
	builds  = map[string]*built{}
)

// compiled exports and compiles a model once per test binary (dump: the debug
// variant that writes its inputs and logits to stderr; flags: extra
// compiler flags).
func compiled(t testing.TB, tm testModel, dump bool, stderr *syncBuffer, flags ...string) *built {
	t.Helper()
	needGXX(t)
	key := fmt.Sprintf("%s/%v/%p/%q", tm.path, dump, stderr, flags)
	builtMu.Lock()
	defer builtMu.Unlock()
	if b, ok := builds[key]; ok {
		if b.err != nil {
			t.Fatal(b.err)
		}
		return b
	}
	b := &built{}
	builds[key] = b
	b.err = func() error {
		raw, err := os.ReadFile(tm.path)
		if err != nil {
			return err
		}
		if b.model, err = policy.Parse(raw, crematoria.Def.PolicySignature()); err != nil {
			return err
		}
		src, err := export(raw, cppexport.Options{Name: tm.name, Source: tm.path}, dump)
		if err != nil {
			return err
		}
		dir := filepath.Join(workDir, fmt.Sprintf("%s-%v-%d", tm.name, dump, len(builds)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		b.src = filepath.Join(dir, "AI"+tm.name+".cc")
		if err := os.WriteFile(b.src, src, 0o644); err != nil {
			return err
		}
		opts := cppbot.Options{CacheDir: cacheDir, RoundTimeout: 20 * time.Second, StartTimeout: time.Minute, Flags: flags}
		if stderr != nil {
			opts.Stderr = stderr
			opts.StderrLimit = 1
		}
		k, err := crematoria.Def.CppKit()
		if err != nil {
			return err
		}
		b.prog, err = cppbot.Open(b.src, k, opts)
		return err
	}()
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.b.Bytes()...)
}

func (s *syncBuffer) Reset() {
	s.mu.Lock()
	s.b.Reset()
	s.mu.Unlock()
}

// play plays one game of Crematoria and returns its trace and the number of
// commands each seat gave.
func play(t testing.TB, cfg crematoria.Config, seed int, names [4]string, bots [4]crematoria.Bot) ([]byte, [4]int) {
	t.Helper()
	return playDef(t, crematoria.Def, cfg, seed, names, bots)
}

// shortConfig is the default configuration with fewer rounds.
func shortConfig(rounds int) crematoria.Config {
	cfg := crematoria.DefaultConfig()
	cfg.NbRounds = rounds
	return cfg
}

// crematoriaTarget is the game the tests export for.
var crematoriaTarget = cppTargetOf(crematoria.Def)

// export exports raw for Crematoria, with the debug dump if dump.
func export(raw []byte, opts cppexport.Options, dump bool) ([]byte, error) {
	if dump {
		opts = cppexport.WithDump(opts)
	}
	return cppexport.Export(raw, crematoriaTarget, opts)
}

// cppTargetOf is a game's side of an exported player.
func cppTargetOf(e game.Entry) cppexport.Target {
	t, ok := e.Export()
	if !ok {
		panic("no export target")
	}
	return t
}
