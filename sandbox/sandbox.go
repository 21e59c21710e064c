package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrUnavailable means programs cannot be contained on this machine (no
// bwrap or prlimit, or user namespaces are disabled): callers refuse to
// run them.
var ErrUnavailable = errors.New("sandbox unavailable")

// Limits bound what a contained program may use. A zero field means the
// limit of DefaultBotLimits.
type Limits struct {
	// AddressSpace is the most virtual memory of each process, in bytes
	// (RLIMIT_AS).
	AddressSpace int64
	// Memory is the most memory of all the program's processes together,
	// in bytes, counted by the kernel in the sandbox's control group: its
	// pages, its files in /tmp, shared memory, pipes and kernel memory
	// made for it. Past it the kernel kills one of its processes. Where
	// the sandbox has no control groups (Sandbox.Counted), only
	// AddressSpace and TmpSize hold.
	Memory int64
	// CPU is the most CPU time of the program: of all its processes
	// together where the sandbox has control groups (the sandbox kills it
	// when they have used it, within a fifth of a second), and of each
	// process (RLIMIT_CPU, whole seconds, rounded up) everywhere.
	CPU time.Duration
	// Processes is the most processes and threads in the sandbox
	// (RLIMIT_NPROC, counted in the sandbox's own user namespace, and the
	// pids controller of its control group).
	Processes int
	// OpenFiles is the most open file descriptors (RLIMIT_NOFILE).
	OpenFiles int
	// FileSize is the largest file the program may write (RLIMIT_FSIZE).
	FileSize int64
	// TmpSize is the size of its private /tmp (a tmpfs), in bytes: the
	// one place it may write.
	TmpSize int64
}

// DefaultBotLimits are the limits of a C++ bot for one game: 1 GiB of
// memory (all its processes and its /tmp together) and of address space
// per process, 60 CPU seconds, 16 processes and threads, 64 open files,
// files of at most 16 MiB in a 16 MiB /tmp.
func DefaultBotLimits() Limits {
	return Limits{AddressSpace: 1 << 30, Memory: 1 << 30, CPU: 60 * time.Second, Processes: 16, OpenFiles: 64,
		FileSize: 16 << 20, TmpSize: 16 << 20}
}

// DefaultCompileLimits are the limits of one compilation: 2 GiB of memory
// and of address space per process, 120 CPU seconds, 32 processes and
// threads, 256 open files, files of at most 64 MiB in a 512 MiB /tmp.
func DefaultCompileLimits() Limits {
	return Limits{AddressSpace: 2 << 30, Memory: 2 << 30, CPU: 120 * time.Second, Processes: 32, OpenFiles: 256,
		FileSize: 64 << 20, TmpSize: 512 << 20}
}

// Or returns l with its zero fields taken from d.
func (l Limits) Or(d Limits) Limits {
	if l.AddressSpace <= 0 {
		l.AddressSpace = d.AddressSpace
	}
	if l.Memory <= 0 {
		l.Memory = d.Memory
	}
	if l.CPU <= 0 {
		l.CPU = d.CPU
	}
	if l.Processes <= 0 {
		l.Processes = d.Processes
	}
	if l.OpenFiles <= 0 {
		l.OpenFiles = d.OpenFiles
	}
	if l.FileSize <= 0 {
		l.FileSize = d.FileSize
	}
	if l.TmpSize <= 0 {
		l.TmpSize = d.TmpSize
	}
	return l
}

// prlimitArgs returns the prlimit options of the limits.
func (l Limits) prlimitArgs() []string {
	cpu := int64((l.CPU + time.Second - 1) / time.Second)
	return []string{
		"--as=" + strconv.FormatInt(l.AddressSpace, 10),
		"--cpu=" + strconv.FormatInt(cpu, 10),
		"--nproc=" + strconv.Itoa(l.Processes),
		"--nofile=" + strconv.Itoa(l.OpenFiles),
		"--fsize=" + strconv.FormatInt(l.FileSize, 10),
		"--core=0",
	}
}

// Options configures a Sandbox. The zero value is ready to use.
type Options struct {
	// Bwrap and Prlimit are the tools' paths; default: looked up in PATH.
	Bwrap, Prlimit string
	// UID and GID run the sandbox when jgym runs as root; default 65534
	// ("nobody"). They are ignored when jgym is not root: the sandbox then
	// runs as jgym's own user.
	UID, GID int
	// NoCgroups runs programs without control groups, as on a machine
	// that has none: Counted then reports ErrUncounted (for tests of that
	// path, and for operators who opt out).
	NoCgroups bool
}

// File is a file handed to the contained program, read-only, at Path
// inside the sandbox: the open file From or the bytes Data. Data and a
// File that is not Shared are copied in when the sandbox starts, with the
// permission bits Mode (0644 when 0). A Shared file is bound, not copied:
// every sandbox that shares it maps the same pages (a bot's executable,
// which its processes share); it keeps the permission bits of From when
// they grant Mode to every user, else one copy is made with Mode. From
// stays the caller's to close (after Start).
type File struct {
	Path   string
	From   *os.File
	Data   []byte
	Mode   os.FileMode
	Shared bool
}

// Spec is one program to run contained.
type Spec struct {
	// Args is the command line inside the sandbox; Args[0] is a path
	// inside it (a File's Path, or a program under /usr).
	Args []string
	// Files are put in before the program starts.
	Files []File
	// Limits bound the program; zero fields take DefaultBotLimits.
	Limits Limits
	// Env is added to the program's environment, which otherwise holds
	// only PATH=/usr/bin:/bin, HOME=/tmp and LC_ALL=C.
	Env []string
	// StartFrozen starts the program frozen where the sandbox has
	// control groups: it runs once Cmd.Thaw is called (a bot that waits
	// for its first turn burns nothing).
	StartFrozen bool
}

// Sandbox runs programs contained. It is safe for concurrent use.
type Sandbox struct {
	bwrap, prlimit, sh string
	uid, gid           int
	root               bool     // jgym runs as root: drop to uid, gid
	cg                 *cgroups // nil: no control groups (cgErr says why)
	cgErr              error
}

// New finds the tools and runs a trial program in a sandbox; the error
// wraps ErrUnavailable when programs cannot be contained here. Where the
// machine offers control groups, each program gets one (Counted).
func New(o Options) (*Sandbox, error) {
	sb, err := newSandbox(o)
	if err != nil {
		return nil, err
	}
	if o.NoCgroups {
		sb.cgErr = fmt.Errorf("%w: the sandbox was made without them", ErrUncounted)
	} else {
		sb.cg, sb.cgErr = systemCgroups()
	}
	if sb.cg != nil {
		if err := sb.probe(); err == nil {
			return sb, nil
		} else {
			sb.cg, sb.cgErr = nil, fmt.Errorf("%w: a trial run in a control group failed: %v", ErrUncounted, err)
		}
	}
	if err := sb.probe(); err != nil {
		return nil, err
	}
	return sb, nil
}

func newSandbox(o Options) (*Sandbox, error) {
	if !supported {
		return nil, fmt.Errorf("%w: C++ bots are contained with Linux namespaces (bubblewrap), which this system does not have", ErrUnavailable)
	}
	find := func(given, name, pkg string) (string, error) {
		if given == "" {
			given = name
		}
		p, err := exec.LookPath(given)
		if err != nil {
			return "", fmt.Errorf("%w: %s not found (install the Debian/Ubuntu package %s)", ErrUnavailable, name, pkg)
		}
		return p, nil
	}
	sb := &Sandbox{uid: 65534, gid: 65534, root: os.Geteuid() == 0}
	var err error
	if sb.bwrap, err = find(o.Bwrap, "bwrap", "bubblewrap"); err != nil {
		return nil, err
	}
	if sb.prlimit, err = find(o.Prlimit, "prlimit", "util-linux"); err != nil {
		return nil, err
	}
	if sb.sh, err = find("", "sh", "dash"); err != nil {
		return nil, err
	}
	if o.UID > 0 {
		sb.uid = o.UID
	}
	if o.GID > 0 {
		sb.gid = o.GID
	}
	return sb, nil
}

// probe runs /usr/bin/true contained, with a shared file.
func (sb *Sandbox) probe() error {
	f, err := os.CreateTemp("", "jgym-probe-")
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	cmd, err := sb.Command(Spec{
		Args:   []string{"/usr/bin/true"},
		Files:  []File{{Path: "/probe/file", From: f, Mode: 0o444, Shared: true}},
		Limits: Limits{CPU: 5 * time.Second},
	})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: starting bwrap: %v", ErrUnavailable, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Kill()
		err = errors.Join(errors.New("no answer in 10s"), <-done)
	}
	if err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 200 {
			msg = msg[:200] + "..."
		}
		return fmt.Errorf("%w: a trial run failed (%v: %s); bwrap needs user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0; in Docker, a seccomp profile that allows them), and the sandbox's user must be able to reach the temporary directory %s",
			ErrUnavailable, err, msg, os.TempDir())
	}
	return nil
}

// User returns the uid and gid the sandbox runs as when jgym is root, and
// whether jgym is root (else the sandbox runs as jgym's own user).
func (sb *Sandbox) User() (uid, gid int, dropped bool) { return sb.uid, sb.gid, sb.root }

// Counted returns nil when each program runs in a control group of its
// own, which counts its memory (tmpfs included) and the CPU time and
// number of all its processes, and can freeze it; else an error wrapping
// ErrUncounted that says why.
func (sb *Sandbox) Counted() error {
	if sb.cg != nil {
		return nil
	}
	return sb.cgErr
}

// sandboxProcesses is how many processes of a sandbox are bubblewrap's
// own (its process outside, its init inside), beside Limits.Processes.
const sandboxProcesses = 2

// gateScript waits on descriptor 3 until jgym has put the shell in the
// sandbox's control group, then becomes bwrap: everything the sandbox
// starts is counted from its first instruction.
const gateScript = `read -r go <&3 || exit 125; exec 3<&-; exec "$@"`

// Command returns the command that runs spec contained. Cmd.Kill kills
// the sandbox and everything in it.
func (sb *Sandbox) Command(spec Spec) (_ *Cmd, err error) {
	if len(spec.Args) == 0 || !path.IsAbs(spec.Args[0]) {
		return nil, errors.New("sandbox: Args[0] must be an absolute path inside the sandbox")
	}
	lim := spec.Limits.Or(DefaultBotLimits())
	args := []string{
		"--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--disable-userns", "--die-with-parent", "--new-session", "--hostname", "jgym-sandbox",
		"--ro-bind", "/usr", "/usr",
		"--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
		"--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
		"--proc", "/proc", "--dev", "/dev",
		"--size", strconv.FormatInt(lim.TmpSize, 10), "--tmpfs", "/tmp",
		"--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp", "--setenv", "LC_ALL", "C",
		"--chdir", "/tmp",
	}
	for _, kv := range spec.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("sandbox: bad environment entry %q", kv)
		}
		args = append(args, "--setenv", k, v)
	}
	c := &Cmd{sb: sb, lim: lim, startFrozen: spec.StartFrozen}
	defer func() {
		if err != nil {
			c.release()
		}
	}()
	// Descriptor 3 is the gate where the sandbox gets a control group;
	// the files' descriptors follow.
	var extra []*os.File
	if sb.cg != nil {
		extra = append(extra, nil) // the gate, made by Start
	}
	// The files' parent directories, parents first, then the files.
	made := map[string]bool{"/": true, "/tmp": true}
	var dirs, files []string
	for _, f := range spec.Files {
		if !path.IsAbs(f.Path) || path.Clean(f.Path) != f.Path || (f.From == nil) == (f.Data == nil) ||
			f.Path == "/usr" || strings.HasPrefix(f.Path, "/usr/") ||
			(f.Shared && f.From == nil) {
			return nil, fmt.Errorf("sandbox: bad file %q", f.Path)
		}
		for d := path.Dir(f.Path); !made[d]; d = path.Dir(d) {
			made[d] = true
			dirs = append(dirs, d)
		}
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		if f.Shared {
			host, release, err := shares.acquire(f.From, mode)
			if err != nil {
				return nil, err
			}
			c.shared = append(c.shared, release)
			files = append(files, "--ro-bind", host, f.Path)
			continue
		}
		from := f.From
		if from == nil {
			if from, err = anonymousFile(f.Data); err != nil {
				return nil, err
			}
			c.owned = append(c.owned, from)
		}
		fd := 3 + len(extra)
		extra = append(extra, from)
		files = append(files, "--perms", fmt.Sprintf("%04o", mode.Perm()), "--ro-bind-data", strconv.Itoa(fd), f.Path)
	}
	sortByLen(dirs)
	for _, d := range dirs {
		args = append(args, "--dir", d)
	}
	args = append(args, files...)
	// Nothing but /tmp is writable: the sandbox's root and /dev (its shm)
	// are read-only, so a bot cannot keep memory in an unsized tmpfs.
	args = append(args, "--remount-ro", "/dev", "--remount-ro", "/")
	args = append(args, "--", sb.prlimit)
	args = append(args, lim.prlimitArgs()...)
	args = append(args, "--")
	args = append(args, spec.Args...)
	var cmd *exec.Cmd
	if sb.cg != nil {
		cmd = exec.Command(sb.sh, append([]string{"-c", gateScript, "jgym-sandbox", sb.bwrap}, args...)...)
	} else {
		cmd = exec.Command(sb.bwrap, args...)
	}
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	cmd.ExtraFiles = extra
	sb.setProcAttr(cmd)
	c.Cmd = cmd
	return c, nil
}

// sortByLen sorts paths so that parents come before their children.
func sortByLen(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && (len(s[j]) < len(s[j-1]) || len(s[j]) == len(s[j-1]) && s[j] < s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

var (
	defaultOnce sync.Once
	defaultSB   *Sandbox
	defaultErr  error
)

// Default returns the sandbox of Options{}, made and checked once per
// process.
func Default() (*Sandbox, error) {
	defaultOnce.Do(func() { defaultSB, defaultErr = New(Options{}) })
	return defaultSB, defaultErr
}
