//go:build linux

package cppbot_test

import (
	"bytes"
	"errors"
	"fmt"
	"jgym/cppbot"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"jgym/env/crematoria"
	"jgym/internal/strict"
	"jgym/sandbox"
)

// needSandbox skips (fails under strict) where C++ bots cannot be
// contained.
func needSandbox(t *testing.T) {
	t.Helper()
	if _, err := sandbox.Default(); errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// hostileBot is the body of a bot's play() and the code before it; the
// bot is named Hostile<Name>.
type hostileBot struct {
	name, globals, play string
}

func (h hostileBot) source() string {
	return `// A hostile test bot: ` + h.name + `
#include "Player.hh"
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <csignal>
#include <unistd.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#define PLAYER_NAME ` + h.name + `
` + h.globals + `
struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }
  virtual void play() {
` + h.play + `
  }
};

RegisterPlayer(PLAYER_NAME);
`
}

// botProcesses lists the host pids of this test binary's sandboxes
// (sandbox.Processes: never another program's) running the executable
// of a bot (/bot/AI<name> inside the sandbox).
func botProcesses(name string) []int {
	var pids []int
	for _, pid := range sandbox.Processes() {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err == nil && bytes.HasPrefix(b, []byte("/bot/AI"+name+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitNoProcesses waits until no process of the bot is left.
func waitNoProcesses(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(botProcesses(name)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pids := botProcesses(name); len(pids) > 0 {
		for _, p := range pids {
			if pr, err := os.FindProcess(p); err == nil {
				pr.Kill()
			}
		}
		t.Fatalf("bot processes %v are left after the game", pids)
	}
}

// Hostile bots are stopped or denied by the sandbox: each game ends with a
// clear error (or, for a bot that only leaves a child behind, normally),
// and no process of the bot is left.
func TestHostileBots(t *testing.T) {
	needSandbox(t)
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("TOP SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port

	const memCap = 256 << 20
	tests := []struct {
		bot     hostileBot
		want    error  // nil: the game ends normally
		text    string // in the error
		notText string // never in the error
	}{
		{bot: hostileBot{name: "Spin", play: `if (round() == 2) { volatile unsigned long x = 0; for (;;) x = x + 1; }`},
			want: cppbot.ErrTimeout, text: "no answer within"},
		{bot: hostileBot{name: "Hog", play: fmt.Sprintf(`if (round() == 1) {
      size_t n = %d;
      char* p = (char*)malloc(n);
      if (!p) { cerr << "Hog: allocation denied" << endl; abort(); }
      memset(p, 1, n);
      cerr << "Hog: ALLOCATED " << n << endl;
    }`, 2*memCap)},
			want: cppbot.ErrCrashed, text: "allocation denied", notText: "ALLOCATED"},
		{bot: hostileBot{name: "Forker", play: `if (round() == 1) {
      int made = 0, denied = 0;
      for (int i = 0; i < 200; ++i) {
        pid_t c = fork();
        if (c == 0) { sleep(60); _exit(0); }
        if (c < 0) ++denied; else ++made;
      }
      cerr << "Forker: made " << made << ", fork denied " << denied << " times" << endl;
      if (denied > 0) abort();
    }`},
			want: cppbot.ErrCrashed, text: "fork denied"},
		{bot: hostileBot{name: "Escaper", play: `if (round() == 1) {
      pid_t c = fork();
      if (c == 0) { setsid(); signal(SIGHUP, SIG_IGN); sleep(600); _exit(0); }
    }`}},
		{bot: hostileBot{name: "Reader", play: `if (round() == 1) {
      const char* paths[] = {"/etc/passwd", "` + secret + `", "/proc/1/environ"};
      int denied = 0;
      for (int i = 0; i < 3; ++i) {
        FILE* f = fopen(paths[i], "r");
        char line[128] = {0};
        if (f && fgets(line, sizeof line, f) && strstr(line, "SECRET")) cerr << "Reader: LEAK " << line << endl;
        if (!f && i < 2) ++denied;
        if (f) fclose(f);
      }
      cerr << "Reader: read denied " << denied << " times" << endl;
      abort();
    }`},
			want: cppbot.ErrCrashed, text: "read denied 2 times", notText: "LEAK"},
		{bot: hostileBot{name: "Caller", play: fmt.Sprintf(`if (round() == 1) {
      int s = socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in a; memset(&a, 0, sizeof a);
      a.sin_family = AF_INET; a.sin_port = htons(%d); a.sin_addr.s_addr = inet_addr("127.0.0.1");
      if (s >= 0 && connect(s, (sockaddr*)&a, sizeof a) == 0) cerr << "Caller: CONNECTED" << endl;
      else cerr << "Caller: connect denied: " << strerror(errno) << endl;
      abort();
    }`, port)},
			want: cppbot.ErrCrashed, text: "connect denied", notText: "CONNECTED"},
	}
	dir := t.TempDir()
	t.Run("bots", func(t *testing.T) {
		for _, tc := range tests {
			t.Run(tc.bot.name, func(t *testing.T) {
				t.Parallel()
				src := filepath.Join(dir, "AI"+tc.bot.name+".cc")
				if err := os.WriteFile(src, []byte(tc.bot.source()), 0o644); err != nil {
					t.Fatal(err)
				}
				opts := testOpts()
				opts.RoundTimeout = 2 * time.Second
				opts.Limits = sandbox.Limits{AddressSpace: memCap}
				prog := compiled(t, src, opts)
				b := crematoria.Def.NewCppBot(prog, 0, 1)
				bots := [4]crematoria.Bot{b, crematoria.Null{}, crematoria.Null{}, crematoria.Null{}}
				_, err := playMatch(1, [4]string{tc.bot.name, "Null", "Null", "Null"}, bots)
				switch {
				case tc.want == nil && err != nil:
					t.Fatalf("the game ended with %v, want no error", err)
				case tc.want != nil && !errors.Is(err, tc.want):
					t.Fatalf("the game ended with %v, want %v", err, tc.want)
				}
				if err != nil {
					msg := err.Error()
					if !strings.Contains(msg, tc.text) || !strings.Contains(msg, "cpp bot "+tc.bot.name) {
						t.Errorf("error %q lacks %q or the bot's name", msg, tc.text)
					}
					if tc.notText != "" && strings.Contains(msg, tc.notText) {
						t.Errorf("error %q shows %q: the sandbox let it through", msg, tc.notText)
					}
				}
				b.Close()
				prog.Close()
				waitNoProcesses(t, tc.bot.name)
			})
		}
	})
	select {
	case <-accepted:
		t.Error("the test's listener accepted a connection from a bot")
	default:
	}
}

// A bot may not include files outside the kit: the sandbox has no host
// files but /usr, and reading /dev/zero is stopped by the compile limits.
func TestHostileIncludes(t *testing.T) {
	needSandbox(t)
	secret := filepath.Join(t.TempDir(), "secret.hh")
	os.WriteFile(secret, []byte("TOP SECRET VALUE\n"), 0o644)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, include string
		compiles      bool
	}{
		{"Passwd", "/etc/passwd", false},
		{"Secret", secret, false},
		{"Zero", "/dev/zero", false},
		// The compiler's own environment in the sandbox: PATH, HOME and
		// LC_ALL of the sandbox, nothing of jgym's.
		{"Environ", "/proc/self/environ", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join(dir, "AI"+tc.name+".cc")
			os.WriteFile(src, []byte(`#include "`+tc.include+"\"\n"), 0o644)
			opts := testOpts()
			opts.CompileLimits = sandbox.Limits{AddressSpace: 512 << 20, CPU: 20 * time.Second}
			_, err := cppbot.Compile(src, testKit(t), opts)
			if !tc.compiles && !errors.Is(err, cppbot.ErrCompile) {
				t.Fatalf("Compile = %v, want a compile error", err)
			}
			if err == nil {
				return
			}
			for _, leak := range []string{"root:", "SECRET"} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("the compile error shows %q: %s", leak, err)
				}
			}
		})
	}
}

// FIFOs, devices and oversized files are refused before anything reads
// them.
func TestSourceFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "AIFifo.cc")
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "AIBig.cc")
	os.WriteFile(big, bytes.Repeat([]byte("// x\n"), 1000), 0o644)
	opts := testOpts()
	opts.MaxSourceBytes = 1000
	k := testKit(t)
	for _, tc := range []struct{ path, text string }{
		{fifo, "not a regular file"},
		{"/dev/zero", "not a regular file"},
		{dir, "not a regular file"},
		{big, "over the limit"},
	} {
		done := make(chan error, 1)
		go func() { _, err := cppbot.Compile(tc.path, k, opts); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tc.text) {
				t.Errorf("Compile(%s) = %v, want %q", tc.path, err, tc.text)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Compile(%s) hangs", tc.path)
		}
	}
}

// The process cap refuses bots past it, and frees its places when bots
// end.
func TestProcessLimit(t *testing.T) {
	needSandbox(t)
	opts := testOpts()
	opts.Processes = cppbot.NewProcessLimit(2)
	prog := compiled(t, filepath.Join(kitDir, "AINull.cc"), opts)
	a, b, c := crematoria.Def.NewCppBot(prog, 0, 1), crematoria.Def.NewCppBot(prog, 1, 1), crematoria.Def.NewCppBot(prog, 2, 1)
	if a.Err() != nil || b.Err() != nil {
		t.Fatalf("first two bots: %v, %v", a.Err(), b.Err())
	}
	if err := c.Err(); !errors.Is(err, cppbot.ErrStart) || !strings.Contains(err.Error(), "limit of 2") {
		t.Fatalf("third bot: %v, want the limit of 2", err)
	}
	a.Close()
	deadline := time.Now().Add(5 * time.Second)
	for opts.Processes.InUse() > 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	d := crematoria.Def.NewCppBot(prog, 3, 1)
	if d.Err() != nil {
		t.Fatalf("a bot after one ended: %v", d.Err())
	}
	b.Close()
	d.Close()
	if n := opts.Processes.InUse(); n != 0 {
		t.Errorf("%d processes counted after every bot closed", n)
	}
}
