//go:build linux

package cppbot_test

import (
	"errors"
	"fmt"
	"jgym/cppbot"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jgym/env/crematoria"
	"jgym/sandbox"
)

// The tests of issue 31 (items 2, 3 and 4): what a bot can make the
// machine hold or burn is bounded and counted over all its processes.
// Where the sandbox has no control groups they check the refusal path
// instead: a bot with Options.RequireCounted is refused, saying why.

// countedOrRefused reports whether the default sandbox gives bots a
// control group. Where it does not, it checks that src, with
// RequireCounted, is refused at compile time and at start (the error
// wraps sandbox.ErrUncounted), and the caller returns.
func countedOrRefused(t *testing.T, src string) bool {
	t.Helper()
	needSandbox(t)
	sb, _ := sandbox.Default()
	if sb.Counted() == nil {
		return true
	}
	t.Logf("no control groups here, checking the refusal path: %v", sb.Counted())
	checkRefused(t, src, sb)
	return false
}

// checkRefused checks that a bot is refused, with RequireCounted, by a
// sandbox without control groups.
func checkRefused(t *testing.T, src string, sb *sandbox.Sandbox) {
	t.Helper()
	opts := testOpts()
	opts.Sandbox, opts.RequireCounted = sb, true
	if _, err := cppbot.Compile(src, testKit(t), opts); !errors.Is(err, sandbox.ErrUncounted) {
		t.Errorf("Compile with RequireCounted = %v, want sandbox.ErrUncounted", err)
	}
	// A bot built before (the operator's, or a cached one) is refused at
	// start.
	exe, err := cppbot.Compile(filepath.Join(kitDir, "AINull.cc"), testKit(t), testOpts())
	if err != nil {
		t.Fatal(err)
	}
	prog := cppbot.NewProgram(exe, "AINull.cc", testKit(t), opts)
	defer prog.Close()
	b := crematoria.Def.NewCppBot(prog, 0, 1)
	if err := b.Err(); !errors.Is(err, cppbot.ErrStart) || !errors.Is(err, sandbox.ErrUncounted) {
		t.Errorf("start with RequireCounted = %v, want ErrStart wrapping sandbox.ErrUncounted", err)
	}
}

// The refusal path runs everywhere, with a sandbox made without control
// groups.
func TestUncountedRefused(t *testing.T) {
	needSandbox(t)
	sb, err := sandbox.New(sandbox.Options{NoCgroups: true})
	if err != nil {
		t.Fatal(err)
	}
	checkRefused(t, filepath.Join(kitDir, "AIDemo.cc"), sb)
}

// writeBot writes a hostile bot's source in dir and returns its path.
func writeBot(t *testing.T, dir string, h hostileBot) string {
	t.Helper()
	src := filepath.Join(dir, "AI"+h.name+".cc")
	if err := os.WriteFile(src, []byte(h.source()), 0o644); err != nil {
		t.Fatal(err)
	}
	return src
}

// waitOwnProcessesGone waits until no process of this test binary's
// sandboxes is left (never counting other programs' processes).
func waitOwnProcessesGone(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(sandbox.Processes()) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if ps := sandbox.Processes(); len(ps) > 0 {
		t.Errorf("processes %v of this test's sandboxes are left", ps)
	}
}

// Item 2: a bot cannot write to /dev/shm (a tmpfs of half the RAM
// before), to its root, or next to its executable; it can fill its /tmp,
// but that memory counts: under a limit of 32 MiB, filling a 96 MiB /tmp
// kills it.
func TestHostileTmpfs(t *testing.T) {
	dir := t.TempDir()
	src := writeBot(t, dir, hostileBot{name: "Shm", globals: "#include <vector>\n", play: `if (round() == 1) {
      std::vector<char> mib(1 << 20, 'x');
      const char* dirs[] = {"/dev/shm", "", "/bot"};
      int denied = 0;
      for (int d = 0; d < 3; ++d) for (int i = 0; i < 4; ++i) {
        std::string p = std::string(dirs[d]) + "/f" + std::to_string(i);
        FILE* f = fopen(p.c_str(), "w");
        if (!f) { ++denied; continue; }
        if (fwrite(mib.data(), 1, mib.size(), f) != mib.size()) ++denied;
        fclose(f);
      }
      cerr << "Shm: writes denied " << denied << " of 12" << endl;
      for (int i = 0; i < 24; ++i) {
        FILE* f = fopen(("/tmp/t" + std::to_string(i)).c_str(), "w");
        for (int k = 0; f && k < 4; ++k) fwrite(mib.data(), 1, mib.size(), f);
        if (f) fclose(f);
        cerr << "Shm: /tmp holds " << 4 * (i + 1) << " MiB" << endl;
      }
      cerr << "Shm: ALL WRITTEN" << endl;
    }`})
	if !countedOrRefused(t, src) {
		return
	}
	opts := testOpts()
	opts.Limits = sandbox.Limits{Memory: 32 << 20, TmpSize: 96 << 20}
	prog := compiled(t, src, opts)
	bots := [4]crematoria.Bot{crematoria.Def.NewCppBot(prog, 0, 1), crematoria.Null{}, crematoria.Null{}, crematoria.Null{}}
	_, err := playMatch(1, [4]string{"Shm", "Null", "Null", "Null"}, bots)
	if !errors.Is(err, cppbot.ErrCrashed) {
		t.Fatalf("the game ended with %v, want the bot crashed", err)
	}
	msg := err.Error()
	for _, w := range []string{"its memory limit of 32 MiB was reached", "Shm: writes denied 12 of 12", "Shm: /tmp holds 4 MiB"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q lacks %q", msg, w)
		}
	}
	if strings.Contains(msg, "ALL WRITTEN") || strings.Contains(msg, "holds 96 MiB") {
		t.Errorf("error %q: the bot filled its /tmp past its memory limit", msg)
	}
	prog.Close()
	waitOwnProcessesGone(t)
}

// Item 3: a bot's executable is capped (a few bytes of source make an
// 8 MiB one), and the processes of a bot map the one file, not a copy
// each: four seats of the 8 MiB bot run the host's very executable
// (same device and inode).
func TestHostileExecutable(t *testing.T) {
	needSandbox(t)
	dir := t.TempDir()
	src := writeBot(t, dir, hostileBot{name: "Big", globals: "char big[8 << 20] = {1};\n",
		play: `if (round() == 2) cerr << "Big: " << int(big[round()]) << endl;`})
	small := testOpts()
	small.MaxExecutableBytes = 4 << 20
	_, err := cppbot.Compile(src, testKit(t), small)
	// The object file is over the cap already: the build stops there.
	var ce *cppbot.CompileError
	if !errors.As(err, &ce) || !errors.Is(err, cppbot.ErrTooBig) || !strings.Contains(err.Error(), "over 4194304 bytes") {
		t.Fatalf("Compile with a cap of 4 MiB = %v, want an error over the limit", err)
	}
	exe, err := cppbot.Compile(src, testKit(t), testOpts())
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(exe)
	if err != nil || fi.Size() < 8<<20 {
		t.Fatalf("the executable: %v, %v; want over 8 MiB", fi, err)
	}
	// A program built before is capped when it starts.
	capped := cppbot.NewProgram(exe, src, testKit(t), small)
	defer capped.Close()
	if err := crematoria.Def.NewCppBot(capped, 0, 1).Err(); !errors.Is(err, cppbot.ErrStart) || !strings.Contains(err.Error(), "over the limit") {
		t.Errorf("start with a cap of 4 MiB: %v, want ErrStart over the limit", err)
	}

	st := fi.Sys().(*syscall.Stat_t)
	host := fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	prog := cppbot.NewProgram(exe, src, testKit(t), testOpts())
	defer prog.Close()
	var bots [4]crematoria.Bot
	for p := range bots {
		bots[p] = crematoria.Def.NewCppBot(prog, p, 1)
	}
	var seen []string
	bots[0] = inspect{bots[0].(*crematoria.CppBot), 3, func() {
		for _, pid := range sandbox.Processes() {
			var s syscall.Stat_t
			if syscall.Stat("/proc/"+strconv.Itoa(pid)+"/exe", &s) == nil && s.Size >= 8<<20 {
				seen = append(seen, fmt.Sprintf("%d:%d", s.Dev, s.Ino))
			}
		}
	}}
	if _, err := playMatch(1, [4]string{"Big", "Big", "Big", "Big"}, bots); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 4 {
		t.Fatalf("%d processes run the 8 MiB executable, want 4", len(seen))
	}
	for _, s := range seen {
		if s != host {
			t.Errorf("a bot process runs the file %s, not the host's executable %s: a copy", s, host)
		}
	}
	prog.Close()
	waitOwnProcessesGone(t)
}

// inspect is a seat that calls f before its bot plays round.
type inspect struct {
	*crematoria.CppBot
	round int
	f     func()
}

func (i inspect) Play(s *crematoria.State, o *crematoria.Orders) {
	if s.Round == i.round {
		i.f()
	}
	i.CppBot.Play(s, o)
}

// daemonsPlay leaves three spinning daemons (setsid, double fork) in
// round 1; in round 5 it waits until the processes of its sandbox have
// used 3 CPU seconds together (read from its own /proc), which its budget
// of 1 s must stop, however slowly a loaded machine runs them.
const daemonsPlay = `if (round() == 1) {
      for (int i = 0; i < 3; ++i) {
        pid_t c = fork();
        if (c == 0) { setsid(); if (fork() == 0) { volatile unsigned long x = 0; for (;;) x = x + 1; } _exit(0); }
        if (c > 0) waitpid(c, 0, 0);
      }
      cerr << "Daemons: 3 spinners started" << endl;
    }
    if (round() == 5) {
      long tick = sysconf(_SC_CLK_TCK);
      for (int k = 0; k < 1200; ++k) {
        long used = 0;
        for (int pid = 1; pid < 64; ++pid) {
          FILE* f = fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
          if (!f) continue;
          char buf[512] = {0};
          size_t n = fread(buf, 1, sizeof buf - 1, f);
          fclose(f);
          const char* p = strrchr(buf, ')');
          long ut = 0, st = 0;
          if (n > 0 && p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &ut, &st) == 2) used += ut + st;
        }
        if (used > 3 * tick) { cerr << "Daemons: 3 CPU seconds burned, NOT STOPPED" << endl; break; }
        usleep(50000);
      }
    }`

// Item 4: one CPU budget over all of a bot's processes, and none burned
// between its turns: three daemons spinning while the game waits 2 s
// between two rounds use nothing (the bot is frozen); during its turns
// they count, and at 1 s for all of them together the bot is killed;
// nothing of it is left.
func TestHostileDaemons(t *testing.T) {
	dir := t.TempDir()
	src := writeBot(t, dir, hostileBot{name: "Daemons", globals: "#include <sys/wait.h>\n#include <string>\n", play: daemonsPlay})
	if !countedOrRefused(t, src) {
		return
	}
	opts := testOpts()
	opts.RoundTimeout = 90 * time.Second // round 5 lasts until the budget acts
	opts.Limits = sandbox.Limits{CPU: time.Second}
	prog := compiled(t, src, opts)
	b := crematoria.Def.NewCppBot(prog, 0, 1)
	var paused time.Duration
	seat := inspect{b, 3, func() {
		before, ok1 := b.Process().CPU()
		time.Sleep(2 * time.Second)
		after, ok2 := b.Process().CPU()
		if !ok1 || !ok2 {
			t.Error("no CPU figure for the bot")
		}
		paused = after - before
	}}
	bots := [4]crematoria.Bot{seat, crematoria.Null{}, crematoria.Null{}, crematoria.Null{}}
	_, err := playMatch(1, [4]string{"Daemons", "Null", "Null", "Null"}, bots)
	if paused > 30*time.Millisecond {
		t.Errorf("between two rounds (2s), the bot's processes used %v; want nothing (frozen)", paused)
	}
	var be *cppbot.BotError
	if !errors.Is(err, cppbot.ErrCrashed) || !errors.As(err, &be) || be.Round != 5 {
		t.Fatalf("the game ended with %v, want the bot crashed in round 5", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "its CPU time limit of 1s was reached, all its processes together") ||
		!strings.Contains(msg, "3 spinners started") || strings.Contains(msg, "NOT STOPPED") {
		t.Errorf("error %q, want the CPU limit over all its processes, after its spinners started", msg)
	}
	used, _ := b.Process().CPU()
	if used < time.Second || used > 2500*time.Millisecond {
		t.Errorf("the bot's processes used %v in all, want its budget of 1s (and at most what a poll lets pass)", used)
	}
	prog.Close()
	waitOwnProcessesGone(t)
}
