package cppbot_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"jgym/cppbot"
	"jgym/env/crematoria"
)

// burnSource is a bot that, in its first round, touches 48 MiB and burns
// 500 ms of its own CPU time (clock() is the process's CPU time).
const burnSource = `#include "Player.hh"
#include <ctime>
#include <cstring>

#define PLAYER_NAME Burn

struct PLAYER_NAME : public Player {
  static Player* factory() { return new PLAYER_NAME; }
  vector<char> big;
  virtual void play() {
    if (round() != 0) return;
    big.assign(48 << 20, 1);
    clock_t end = clock() + CLOCKS_PER_SEC / 2;
    volatile unsigned long x = 0;
    while (clock() < end) x = x + big[x % big.size()];
  }
};

RegisterPlayer(PLAYER_NAME);
`

// TestUsages plays a short game with a bot that burns 500 ms of CPU and
// touches 48 MiB, and one with the kit's Null: Program.Usages reports
// each game's CPU time and peak memory, apart from the sandbox's.
func TestUsages(t *testing.T) {
	needSandbox(t)
	if !cppbot.MeasuresUsage() {
		t.Skip("this system does not report what processes use")
	}
	src := filepath.Join(t.TempDir(), "AIBurn.cc")
	if err := os.WriteFile(src, []byte(burnSource), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := crematoria.DefaultConfig()
	cfg.NbRounds = 5
	play := func(src string) cppbot.Usage {
		t.Helper()
		prog := compiled(t, src, testOpts())
		names := [4]string{"Demo", "Demo", "Demo", "Demo"}
		names[1] = "cpp"
		bots := seats(t, 3, map[string]*cppbot.Program{"cpp": prog}, names)
		tu0, ts0, _ := cppbot.FinishedCPU()
		if _, err := playMatchCfg(cfg, 3, names, bots); err != nil {
			t.Fatal(err)
		}
		tu1, ts1, _ := cppbot.FinishedCPU()
		us := prog.Usages()
		if len(us) != 1 {
			t.Fatalf("%s: %d usages after one game, want 1", src, len(us))
		}
		if tree := tu1 - tu0 + ts1 - ts0; tree < us[0].CPU() {
			t.Errorf("%s: the whole sandbox used %v, less than the bot's %v", src, tree, us[0].CPU())
		}
		t.Logf("%s: CPU %v (user %v, system %v), peak RSS %.1f MiB", filepath.Base(src), us[0].CPU(), us[0].User, us[0].Sys,
			float64(us[0].PeakRSS)/(1<<20))
		return us[0]
	}
	burn := play(src)
	// User and system time are each counted in whole ticks (10 ms).
	if burn.CPU() < 480*time.Millisecond {
		t.Errorf("AIBurn.cc: CPU %v, want 500 ms at least (less two ticks)", burn.CPU())
	}
	if burn.PeakRSS < 48<<20 {
		t.Errorf("AIBurn.cc: peak RSS %d bytes, want 48 MiB at least", burn.PeakRSS)
	}
	null := play(filepath.Join(kitDir, "AINull.cc"))
	if null.CPU() >= burn.CPU()-300*time.Millisecond {
		t.Errorf("AINull.cc: CPU %v, want at least 300 ms less than AIBurn.cc's %v", null.CPU(), burn.CPU())
	}
	if null.PeakRSS <= 0 || null.PeakRSS >= burn.PeakRSS-40<<20 {
		t.Errorf("AINull.cc: peak RSS %d bytes, want more than 0 and 40 MiB less than AIBurn.cc's %d", null.PeakRSS, burn.PeakRSS)
	}
}
