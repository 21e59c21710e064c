//go:build linux

package sandbox

import (
	"testing"
)

// BenchmarkStart starts and waits for /usr/bin/true in a sandbox, with a
// control group (where the machine has them) and without.
func BenchmarkStart(b *testing.B) {
	for _, tc := range []struct {
		name string
		o    Options
	}{{"cgroup", Options{}}, {"none", Options{NoCgroups: true}}} {
		b.Run(tc.name, func(b *testing.B) {
			sb, err := New(tc.o)
			if err != nil {
				b.Skip(err)
			}
			if tc.name == "cgroup" && sb.Counted() != nil {
				b.Skip(sb.Counted())
			}
			for i := 0; i < b.N; i++ {
				cmd, err := sb.Command(Spec{Args: []string{"/usr/bin/true"}})
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
