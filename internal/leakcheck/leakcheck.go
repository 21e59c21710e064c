// Package leakcheck fails a test whose goroutines outlive it: the tests of
// vec and server use it to show that pools, sessions and streams stop
// every goroutine they start.
package leakcheck

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Check fails the test if goroutines started during it are still
// running shortly after it ends (grpc-go internal/leakcheck, in small).
func Check(t *testing.T) {
	t.Helper()
	before := goroutineIDs()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for {
			var leaked []string
			for id, stack := range goroutineStacks() {
				if !before[id] && !ignorable(stack) {
					leaked = append(leaked, stack)
				}
			}
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutines leaked:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

func ignorable(stack string) bool {
	for _, s := range []string{"testing.(*T).Run", "testing.tRunner", "runtime.goexit\n", "created by runtime.gc", "signal.signal_recv", "testing.(*M)", "runtime.MHeap_Scavenger"} {
		if strings.Contains(stack, s) && !strings.Contains(stack, "jgym/") {
			return true
		}
	}
	return false
}

func goroutineIDs() map[string]bool {
	ids := map[string]bool{}
	for id := range goroutineStacks() {
		ids[id] = true
	}
	return ids
}

func goroutineStacks() map[string]string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	out := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		head, _, _ := strings.Cut(g, "\n")
		// "goroutine 12 [running]:"
		f := strings.Fields(head)
		if len(f) >= 2 {
			out[f[1]] = g
		}
	}
	return out
}
