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
	// AddressSpace is the most virtual memory, in bytes (RLIMIT_AS).
	AddressSpace int64
	// CPU is the most CPU time (RLIMIT_CPU, whole seconds, rounded up);
	// the program is killed when it has used it.
	CPU time.Duration
	// Processes is the most processes and threads in the sandbox
	// (RLIMIT_NPROC, counted in the sandbox's own user namespace).
	Processes int
	// OpenFiles is the most open file descriptors (RLIMIT_NOFILE).
	OpenFiles int
	// FileSize is the largest file the program may write (RLIMIT_FSIZE).
	FileSize int64
	// TmpSize is the size of its private /tmp (a tmpfs), in bytes.
	TmpSize int64
}

// DefaultBotLimits are the limits of a C++ bot for one game: 1 GiB of
// address space, 60 CPU seconds, 16 processes and threads, 64 open files,
// files of at most 16 MiB in a 16 MiB /tmp.
func DefaultBotLimits() Limits {
	return Limits{AddressSpace: 1 << 30, CPU: 60 * time.Second, Processes: 16, OpenFiles: 64,
		FileSize: 16 << 20, TmpSize: 16 << 20}
}

// DefaultCompileLimits are the limits of one compilation: 2 GiB of address
// space, 120 CPU seconds, 32 processes and threads, 256 open files, files
// of at most 256 MiB in a 512 MiB /tmp.
func DefaultCompileLimits() Limits {
	return Limits{AddressSpace: 2 << 30, CPU: 120 * time.Second, Processes: 32, OpenFiles: 256,
		FileSize: 256 << 20, TmpSize: 512 << 20}
}

// Or returns l with its zero fields taken from d.
func (l Limits) Or(d Limits) Limits {
	if l.AddressSpace <= 0 {
		l.AddressSpace = d.AddressSpace
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
}

// File is a file handed to the contained program: its content is copied
// when the sandbox starts, from the open file From or from Data, into Path
// inside the sandbox, read-only, with the permission bits Mode (0644 when
// 0). From stays the caller's to close (after Start).
type File struct {
	Path string
	From *os.File
	Data []byte
	Mode os.FileMode
}

// Spec is one program to run contained.
type Spec struct {
	// Args is the command line inside the sandbox; Args[0] is a path
	// inside it (a File's Path, or a program under /usr).
	Args []string
	// Files are copied in before the program starts.
	Files []File
	// Limits bound the program; zero fields take DefaultBotLimits.
	Limits Limits
	// Env is added to the program's environment, which otherwise holds
	// only PATH=/usr/bin:/bin, HOME=/tmp and LC_ALL=C.
	Env []string
}

// Sandbox runs programs contained. It is safe for concurrent use.
type Sandbox struct {
	bwrap, prlimit string
	uid, gid       int
	root           bool // jgym runs as root: drop to uid, gid
}

// New finds the tools and runs a trial program in a sandbox; the error
// wraps ErrUnavailable when programs cannot be contained here.
func New(o Options) (*Sandbox, error) {
	sb, err := newSandbox(o)
	if err != nil {
		return nil, err
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
	if o.UID > 0 {
		sb.uid = o.UID
	}
	if o.GID > 0 {
		sb.gid = o.GID
	}
	return sb, nil
}

// probe runs /bin/true contained.
func (sb *Sandbox) probe() error {
	cmd, err := sb.Command(Spec{Args: []string{"/usr/bin/true"}, Limits: Limits{CPU: 5 * time.Second}})
	if err != nil {
		return err
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
		Kill(cmd.Cmd)
		err = errors.Join(errors.New("no answer in 10s"), <-done)
	}
	if err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 200 {
			msg = msg[:200] + "..."
		}
		return fmt.Errorf("%w: a trial run failed (%v: %s); bwrap needs user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0; in Docker, a seccomp profile that allows them)",
			ErrUnavailable, err, msg)
	}
	return nil
}

// User returns the uid and gid the sandbox runs as when jgym is root, and
// whether jgym is root (else the sandbox runs as jgym's own user).
func (sb *Sandbox) User() (uid, gid int, dropped bool) { return sb.uid, sb.gid, sb.root }

// Cmd is a contained program: an exec.Cmd whose Start also releases what
// Command prepared.
type Cmd struct {
	*exec.Cmd
	owned []*os.File // the anonymous files holding File.Data
}

// Start starts the sandbox.
func (c *Cmd) Start() error {
	err := c.Cmd.Start()
	c.release()
	return err
}

// Run starts the sandbox and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}

func (c *Cmd) release() {
	for _, f := range c.owned {
		f.Close()
	}
	c.owned = nil
}

// anonymousFile returns an unlinked temporary file holding data, at offset 0.
func anonymousFile(data []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "jgym-sandbox-*")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return f, nil
}

// Command returns the command that runs spec contained. Kill kills the
// sandbox and everything in it.
func (sb *Sandbox) Command(spec Spec) (c *Cmd, err error) {
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
	// The files' parent directories, parents first, then the files.
	made := map[string]bool{"/": true, "/tmp": true}
	var dirs, files []string
	var extra, owned []*os.File
	defer func() {
		if err != nil {
			for _, f := range owned {
				f.Close()
			}
		}
	}()
	for _, f := range spec.Files {
		if !path.IsAbs(f.Path) || path.Clean(f.Path) != f.Path || (f.From == nil) == (f.Data == nil) ||
			f.Path == "/usr" || strings.HasPrefix(f.Path, "/usr/") {
			return nil, fmt.Errorf("sandbox: bad file %q", f.Path)
		}
		from := f.From
		if from == nil {
			if from, err = anonymousFile(f.Data); err != nil {
				return nil, err
			}
			owned = append(owned, from)
		}
		for d := path.Dir(f.Path); !made[d]; d = path.Dir(d) {
			made[d] = true
			dirs = append(dirs, d)
		}
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
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
	args = append(args, "--", sb.prlimit)
	args = append(args, lim.prlimitArgs()...)
	args = append(args, "--")
	args = append(args, spec.Args...)
	cmd := exec.Command(sb.bwrap, args...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	cmd.ExtraFiles = extra
	sb.setProcAttr(cmd)
	return &Cmd{Cmd: cmd, owned: owned}, nil
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
