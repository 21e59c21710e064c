package cppbot_test

import (
	"bytes"
	"errors"
	"jgym/cppbot"
	"jgym/game"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"jgym/env/crematoria"
)

// A crashing, a hanging, an over-commanding and a throwing bot each end
// only their own game, with an error naming the bot and the round, while another game
// goes on in parallel and completes; no process is left behind.
func TestContainment(t *testing.T) {
	demo := compiled(t, filepath.Join(kitDir, "AIDemo.cc"), testOpts())
	tests := []struct {
		src   string
		want  error
		round int
		text  string
	}{
		{"AICrash.cc", cppbot.ErrCrashed, 5, "about to dereference a null pointer"},
		{"AIHang.cc", cppbot.ErrTimeout, 3, "no answer within 1.5s"},
		{"AIFlood.cc", game.ErrTooManyCommands, 7, "1001 commands in round 7"},
		{"AIThrow.cc", cppbot.ErrRunner, 2, "play() threw boom"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			opts := testOpts()
			opts.RoundTimeout = 1500 * time.Millisecond // short, but not flaky on a loaded machine
			bad := compiled(t, filepath.Join("testdata", tc.src), opts)

			// A good game in parallel.
			var wg sync.WaitGroup
			var good []byte
			var goodErr error
			names := [4]string{"Demo", "Demo", "Demo", "Demo"}
			goodBots := seats(t, 6, map[string]*cppbot.Program{"cpp:Demo": demo}, [4]string{"cpp:Demo", "cpp:Demo", "cpp:Demo", "cpp:Demo"})
			wg.Add(1)
			go func() {
				defer wg.Done()
				good, goodErr = playMatch(6, names, goodBots)
			}()

			b := crematoria.Def.NewCppBot(bad, 0, 1)
			bots := seats(t, 1, map[string]*cppbot.Program{"cpp:Demo": demo}, [4]string{"Null", "cpp:Demo", "Demo", "cpp:Demo"})
			bots[0] = b
			_, err := playMatch(1, [4]string{bad.Name, "Demo", "Demo", "Demo"}, bots)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			var be *cppbot.BotError
			if !errors.As(err, &be) || be.Round != tc.round || be.Seat != 0 || be.Bot != bad.Name {
				t.Fatalf("error %#v, want a cppbot.BotError for %s in round %d", be, bad.Name, tc.round)
			}
			msg := err.Error()
			for _, w := range []string{"cpp bot " + bad.Name + " (seat 0) in round " + strconv.Itoa(tc.round), tc.text} {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if b.Err() == nil {
				t.Error("Err() is nil after the failure")
			}
			pid := b.Process().Pid()
			b.Close()
			if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
				t.Errorf("process %d still exists after Close (kill 0: %v)", pid, err)
			}

			wg.Wait()
			if goodErr != nil {
				t.Fatalf("the parallel game failed: %v", goodErr)
			}
			if want := referenceTrace(t, 6, names); !bytes.Equal(want, good) {
				t.Fatalf("the parallel game: %s", firstDiff(want, good))
			}
			for _, gb := range goodBots {
				pid := gb.(*crematoria.CppBot).Process().Pid()
				waitGone(t, pid)
			}
		})
	}
}

// waitGone waits until a bot process that finished its game has exited and
// been reaped.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process %d still exists after the end of its game", pid)
}

// Programs that do not follow the protocol, or fail at start, are reported.
func TestProtocolErrors(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name  string
		exe   string
		want  error
		round int
		text  string
	}{
		{"garbage", script("garbage", "read l; echo ready Fake; read l; echo hello world; cat >/dev/null\n"), cppbot.ErrProtocol, 0, `"hello world"`},
		{"no ready", script("noready", "read l; echo hi; cat >/dev/null\n"), cppbot.ErrProtocol, 0, `want "ready <name>"`},
		{"bad dir", script("baddir", "read l; echo ready Fake; read l; echo commands 1 3 11; cat >/dev/null\n"), cppbot.ErrProtocol, 0, "bad command"},
		{"too many", script("toomany", "read l; echo ready Fake; read l; echo commands 1001; cat >/dev/null\n"), cppbot.ErrProtocol, 0, "bad command count"},
		{"exit", script("exit", "read l; echo ready Fake; exit 0\n"), cppbot.ErrCrashed, 0, "exited with status 0"},
		{"exit 3", script("exit3", "read l; exit 3\n"), cppbot.ErrCrashed, 0, "exit status 3"},
		{"missing", filepath.Join(dir, "does-not-exist"), cppbot.ErrStart, 0, "could not start"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := testOpts()
			opts.RoundTimeout = 5 * time.Second
			prog := cppbot.NewProgram(tc.exe, "AIFake.sh", testKit(t), opts)
			defer prog.Close()
			bots := [4]crematoria.Bot{crematoria.Def.NewCppBot(prog, 0, 1), crematoria.Null{}, crematoria.Null{}, crematoria.Null{}}
			_, err := playMatch(1, [4]string{"Fake", "Null", "Null", "Null"}, bots)
			var be *cppbot.BotError
			if !errors.Is(err, tc.want) || !errors.As(err, &be) || be.Round != tc.round || be.Bot != "Fake" {
				t.Fatalf("error %v, want %v in round %d", err, tc.want, tc.round)
			}
			if !strings.Contains(err.Error(), tc.text) {
				t.Errorf("error %q lacks %q", err, tc.text)
			}
		})
	}
}

// A bot that registers no player is reported at its start.
func TestNoRegisteredPlayer(t *testing.T) {
	prog := compiled(t, "testdata/AINoRegister.cc", testOpts())
	bots := [4]crematoria.Bot{crematoria.Def.NewCppBot(prog, 0, 1), crematoria.Null{}, crematoria.Null{}, crematoria.Null{}}
	_, err := playMatch(1, [4]string{"NoRegister", "Null", "Null", "Null"}, bots)
	if err == nil || !strings.Contains(err.Error(), "missing RegisterPlayer?") || !strings.Contains(err.Error(), "NoRegister") {
		t.Fatalf("error %v, want one about a missing RegisterPlayer", err)
	}
}

// Compile and link errors are reported with the compiler's message and the
// user's file name.
func TestCompileErrors(t *testing.T) {
	tests := []struct {
		src, stage string
		texts      []string
	}{
		{"testdata/AIBroken.cc", "compile", []string{"testdata/AIBroken.cc:10:", "undeclared_variable", "error"}},
		{"testdata/AIUnlinked.cc", "link", []string{"helper_defined_nowhere", "undefined reference"}},
		{"testdata/AIMissing.cc", "", []string{"no such file"}},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.src), func(t *testing.T) {
			t.Parallel()
			_, err := cppbot.Compile(tc.src, testKit(t), testOpts())
			if err == nil {
				t.Fatal("no error")
			}
			var ce *cppbot.CompileError
			if tc.stage != "" {
				if !errors.Is(err, cppbot.ErrCompile) || !errors.As(err, &ce) || ce.Stage != tc.stage {
					t.Fatalf("error %v, want a %s error", err, tc.stage)
				}
			}
			for _, w := range tc.texts {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), testCache) {
				t.Errorf("error shows the build folder: %q", err)
			}
		})
	}
}

// Compiling again is served from the cache.
func TestCompileCache(t *testing.T) {
	src := filepath.Join(kitDir, "AINull.cc")
	first, err := cppbot.Compile(src, testKit(t), testOpts())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	again, err := cppbot.Compile(src, testKit(t), testOpts())
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Errorf("recompiled to %s, want the cached %s", again, first)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cached compile took %v", d)
	}
}

// Close stops a bot in the middle of a round, and Program.Close stops every
// bot of the program; no process is left, not even a zombie.
func TestCloseDuringPlay(t *testing.T) {
	opts := testOpts()
	opts.RoundTimeout = time.Minute
	prog := compiled(t, filepath.Join("testdata", "AIHang.cc"), opts)
	bots := [4]*crematoria.CppBot{crematoria.Def.NewCppBot(prog, 0, 1), crematoria.Def.NewCppBot(prog, 1, 1), crematoria.Def.NewCppBot(prog, 2, 1), crematoria.Def.NewCppBot(prog, 3, 1)}
	var all [4]crematoria.Bot
	for p, b := range bots {
		all[p] = b
	}
	done := make(chan error)
	go func() {
		_, err := playMatch(1, [4]string{"Hang", "Hang", "Hang", "Hang"}, all)
		done <- err
	}()
	time.Sleep(time.Second) // the game is stuck in round 3 by now, normally
	bots[0].Close()
	select {
	case err := <-done:
		if !errors.Is(err, cppbot.ErrClosed) || !strings.Contains(err.Error(), "cpp bot Hang (seat 0) in round") {
			t.Fatalf("error %v, want cppbot.ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Play did not return after Close")
	}
	prog.Close()
	for _, b := range bots {
		if err := syscall.Kill(b.Process().Pid(), 0); err != syscall.ESRCH {
			t.Errorf("process %d still exists after Program.Close (kill 0: %v)", b.Process().Pid(), err)
		}
	}
	// Bots made after Program.Close are closed at once.
	late := crematoria.Def.NewCppBot(prog, 0, 1)
	late.Play(&crematoria.State{}, &crematoria.Orders{})
	if !errors.Is(late.Err(), cppbot.ErrClosed) && !errors.Is(late.Err(), cppbot.ErrStart) {
		t.Errorf("bot made after Close: Err() = %v", late.Err())
	}
}
