// Package sandbox runs programs that jgym does not trust (C++ bots and the
// compiler that builds them) contained, with well-kept tools rather than
// hand-rolled checks:
//
//   - bubblewrap (bwrap, Debian package "bubblewrap") puts the program in
//     new user, PID, network, IPC, UTS and mount namespaces: it sees
//     /usr read-only, a private /proc, a minimal /dev, a small private
//     tmpfs as /tmp (the one place it may write: its root and /dev, with
//     /dev/shm, are read-only), and the files jgym hands it (copied in
//     from open file descriptors, or, when shared, bound read-only from
//     a directory of jgym's, so no host path is named by the program);
//     it has no network but its own loopback; it cannot create further
//     user namespaces; a setsid child cannot escape, since the whole PID
//     namespace dies with its first process.
//   - prlimit (util-linux) sets its per-process limits: address space, CPU
//     seconds, processes and threads, open files, file size, no core dumps.
//   - A control group per sandbox, where the machine offers one (cgroup v2
//     with the memory, pids and cpu controllers, or the cgroup v1
//     hierarchies memory, pids, cpu, cpuacct and freezer), counts what
//     all its processes use together: memory with its tmpfs (the kernel
//     kills past Limits.Memory), processes, and CPU time (the sandbox is
//     killed past Limits.CPU). It can be frozen (Cmd.Freeze: a bot
//     between its turns), and all of jgym's sandboxes share a low CPU
//     weight, below the server's own. Wait kills whatever is left in the
//     group. Where there is no such control, or jgym may not write it,
//     Counted says why and the per-process limits alone hold; callers
//     decide whether to run untrusted code then (jgym serve refuses
//     uploaded C++ bots unless its operator opts in).
//   - Where jgym runs as root, the sandbox is started as an unprivileged
//     user (65534, "nobody", unless Options says otherwise), so the program
//     is not root outside its namespaces either.
//
// New checks that bwrap and prlimit exist and that a trial run works (user
// namespaces can be made); where they cannot, it returns an error wrapping
// ErrUnavailable that says why and what to install, and callers refuse to
// run the program. Nothing falls back to running it unconfined.
//
// # A tour
//
//	sb, err := sandbox.New(sandbox.Options{})
//	if err != nil {
//		return err // errors.Is(err, sandbox.ErrUnavailable)
//	}
//	exe, _ := os.Open("bot")
//	cmd, err := sb.Command(sandbox.Spec{
//		Args:   []string{"/run/bot"},
//		Files:  []sandbox.File{{Path: "/run/bot", From: exe, Mode: 0o755, Shared: true}},
//		Limits: sandbox.DefaultBotLimits(),
//	})
//	// cmd embeds an *exec.Cmd: set Stdin/Stdout/Stderr, Start, Wait.
//	// cmd.Freeze and cmd.Thaw stop and resume it, cmd.CPU reads its CPU
//	// time, cmd.Kill kills the sandbox and everything in it.
//
// What is not contained: the program may use its CPU time (bounded by
// Limits.CPU) and memory (bounded by Limits.Memory, or only by
// Limits.AddressSpace per process and Limits.TmpSize without control
// groups) as it likes, read what /usr holds (public system files), and
// run in the same kernel as the host (a kernel exploit is out of scope;
// no seccomp filter is applied).
// docs/security.md describes the whole threat model.
package sandbox
