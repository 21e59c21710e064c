package cppbot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"jgym/sandbox"
)

// Errors a Process reports, wrapped in a *BotError; the runner's own
// error kinds map to the game's errors (Kit.Errors).
var (
	// ErrStart: the process could not be started.
	ErrStart = errors.New("could not start")
	// ErrCrashed: the process ended (crash, abort, exit) during the game.
	ErrCrashed = errors.New("crashed")
	// ErrTimeout: the bot did not answer in time.
	ErrTimeout = errors.New("timed out")
	// ErrProtocol: the bot's answer is not what the protocol allows.
	ErrProtocol = errors.New("protocol error")
	// ErrClosed: the bot was closed before the end of the game.
	ErrClosed = errors.New("closed")
)

// BotError is the error of a C++ bot, naming the bot and the round.
type BotError struct {
	Bot    string // the bot's name (AIMine.cc: Mine)
	Seat   int    // the seat (player number)
	Round  int    // the round being played
	Err    error  // what happened
	Stderr string // the last lines the bot wrote to stderr
}

func (e *BotError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cpp bot %s (seat %d) in round %d: %v", e.Bot, e.Seat, e.Round, e.Err)
	if e.Stderr != "" {
		b.WriteString("\n  last lines of its stderr:\n    ")
		b.WriteString(strings.ReplaceAll(e.Stderr, "\n", "\n    "))
	}
	return b.String()
}

func (e *BotError) Unwrap() error { return e.Err }

// The stderr excerpt of a BotError.
const (
	errTailLines = 8
	errTailBytes = 800
)

// Process is one C++ bot playing one seat of one game, in its own process
// in the sandbox. The game's adapter sends it the game's messages (Ready,
// then Ask every round) and parses the answers. Ready, Ask, Fail and
// Finish must be called from one goroutine; Close and Err may be called
// from any.
type Process struct {
	prog     *Program
	me, seed int

	cmd     *sandbox.Cmd
	toBot   *os.File // engine -> runner
	fromBot *os.File // runner -> engine
	rd      *bufio.Reader
	stderr  *tailBuffer
	exited  chan struct{} // closed once the process has been waited for
	waitErr error

	player string // the registered name, after "ready"

	mu        sync.Mutex
	err       error
	closed    bool
	finished  bool // Finish was called: the game is over
	closeOnce sync.Once
}

func newProcess(p *Program, me, seed int) *Process {
	return &Process{
		prog: p, me: me, seed: seed,
		stderr: newTailBuffer(p.opts.stderrLimit(), p.opts.Stderr),
		exited: make(chan struct{}),
	}
}

// start starts the process in the sandbox; errors are kept for Err.
func (b *Process) start() {
	fail := func(err error) {
		close(b.exited)
		b.setErr(0, fmt.Errorf("%w: %w", ErrStart, err))
	}
	sb, err := b.prog.opts.sandbox()
	if err != nil {
		fail(err)
		return
	}
	if err := b.prog.opts.Processes.acquire(); err != nil {
		fail(err)
		return
	}
	started := false
	defer func() {
		if !started {
			b.prog.opts.Processes.release()
		}
	}()
	if b.prog.opts.RequireCounted {
		if err := sb.Counted(); err != nil {
			fail(err)
			return
		}
	}
	exe, err := os.Open(b.prog.Path)
	if err != nil {
		fail(err)
		return
	}
	defer exe.Close()
	if fi, err := exe.Stat(); err != nil || !fi.Mode().IsRegular() {
		fail(errors.New("its executable is not a regular file"))
		return
	} else if max := b.prog.opts.maxExecutableBytes(); fi.Size() > max {
		fail(fmt.Errorf("its executable is %d bytes, over the limit of %d", fi.Size(), max))
		return
	}
	// Every process of the program maps the same executable (Shared):
	// nothing is copied per process. The bot starts frozen and runs only
	// during its turns (roundTrip).
	inside := "/bot/" + sandboxName(filepath.Base(b.prog.Path))
	cmd, err := sb.Command(sandbox.Spec{
		Args:        []string{inside},
		Files:       []sandbox.File{{Path: inside, From: exe, Mode: 0o755, Shared: true}},
		Limits:      b.prog.opts.Limits,
		StartFrozen: true,
	})
	if err != nil {
		fail(err)
		return
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		fail(err)
		return
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		fail(err)
		return
	}
	cmd.Stdin = inR
	cmd.Stdout = outW
	cmd.Stderr = b.stderr
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		fail(err)
		return
	}
	started = true
	running.Add(1)
	b.mu.Lock()
	b.cmd = cmd
	b.mu.Unlock()
	b.toBot, b.fromBot = inW, outR
	b.rd = bufio.NewReaderSize(outR, 1<<16)
	go func() {
		b.waitErr = cmd.Wait()
		running.Add(-1)
		b.prog.opts.Processes.release()
		close(b.exited)
		b.prog.forget(b)
	}()
}

// Ready starts the game for the bot: it sends init (the game's first
// message, with the seat, the seed and the settings) and waits, for at
// most Options.StartTimeout, for the runner's "ready <name>" once the
// player is constructed. On failure the process is killed and Err reports
// the error (round 0).
func (b *Process) Ready(init []byte) error {
	if err := b.Err(); err != nil {
		return err
	}
	line, err := b.roundTrip(init, b.prog.opts.startTimeout())
	if err == nil {
		b.player, err = parseReady(line, b.prog.kit)
	}
	if err != nil {
		b.fail(0, err)
		return b.Err()
	}
	return nil
}

// Ask sends the message of a round and returns the runner's answer
// without its newline, valid until the next call, within
// Options.RoundTimeout. On failure (a crash, a timeout, an answer too
// long, an "error <kind> <text>" line from the runner) the process is
// killed and Err reports the error with the round.
func (b *Process) Ask(round int, msg []byte) ([]byte, error) {
	if err := b.Err(); err != nil {
		return nil, err
	}
	line, err := b.roundTrip(msg, b.prog.opts.roundTimeout())
	if err == nil && bytes.HasPrefix(line, []byte("error ")) {
		err = parseRunnerError(line, b.prog.kit)
	}
	if err != nil {
		b.fail(round, err)
		return nil, b.Err()
	}
	return bytes.TrimRight(line, "\n"), nil
}

// Fail ends the bot with err in round (an answer the game cannot parse):
// the process is killed and Err reports err.
func (b *Process) Fail(round int, err error) { b.fail(round, err) }

// roundTrip sends msg and reads one answer line within timeout. The bot
// runs only from the message to its answer: it is frozen between its
// turns (where the sandbox has control groups), so that what it leaves
// running, daemons included, burns nothing while the game waits.
func (b *Process) roundTrip(msg []byte, timeout time.Duration) ([]byte, error) {
	if b.isClosed() {
		return nil, ErrClosed
	}
	if err := b.cmd.Thaw(); err != nil {
		return nil, b.ioErr(err, timeout)
	}
	deadline := time.Now().Add(timeout)
	b.toBot.SetWriteDeadline(deadline)
	if _, err := b.toBot.Write(msg); err != nil {
		return nil, b.ioErr(err, timeout)
	}
	b.fromBot.SetReadDeadline(deadline)
	line, err := b.rd.ReadSlice('\n')
	if err != nil {
		return nil, b.ioErr(err, timeout)
	}
	b.cmd.Freeze() // a failure leaves it running: its CPU still counts
	return line, nil
}

// ioErr explains a failed read or write on the protocol pipes.
func (b *Process) ioErr(err error, timeout time.Duration) error {
	switch {
	case b.isClosed():
		return ErrClosed
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w: no answer within %v", ErrTimeout, timeout)
	case errors.Is(err, bufio.ErrBufferFull):
		return fmt.Errorf("%w: answer longer than %d bytes", ErrProtocol, b.rd.Size())
	}
	// The process closed the pipe: it has ended, or is about to.
	select {
	case <-b.exited:
	case <-time.After(2 * time.Second):
		return fmt.Errorf("%w: it closed its output (%v)", ErrCrashed, err)
	}
	lim := b.cmd.Limits()
	switch {
	case b.cmd.CPUExceeded():
		return fmt.Errorf("%w (its CPU time limit of %v was reached, all its processes together)", ErrCrashed, lim.CPU)
	case b.cmd.MemoryExceeded():
		return fmt.Errorf("%w (its memory limit of %d MiB was reached, all its processes and its /tmp together)", ErrCrashed, lim.Memory>>20)
	}
	ps := b.cmd.ProcessState
	if ps == nil {
		return fmt.Errorf("%w: %v", ErrCrashed, b.waitErr)
	}
	if ps.Success() {
		return fmt.Errorf("%w: it exited with status 0 before the end of the game", ErrCrashed)
	}
	return fmt.Errorf("%w (%s)", ErrCrashed, exitText(ps))
}

// exitText says how a bot's sandbox ended. bwrap exits with 128+N when the
// bot was killed by signal N.
func exitText(ps *os.ProcessState) string {
	if c := ps.ExitCode(); c > 128 && c < 128+65 {
		sig := syscall.Signal(c - 128)
		if sig == syscall.SIGXCPU {
			return "signal: " + sig.String() + ": its CPU time limit was reached"
		}
		return "signal: " + sig.String()
	}
	return ps.String()
}

// fail records the error, with the end of the bot's stderr, and kills the
// process.
func (b *Process) fail(round int, err error) {
	b.kill()
	select {
	case <-b.exited:
	case <-time.After(2 * time.Second):
	}
	b.setErr(round, err)
}

func (b *Process) setErr(round int, err error) {
	tail, _ := b.stderr.Bytes()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err == nil {
		b.err = &BotError{Bot: b.prog.Name, Seat: b.me, Round: round, Err: err, Stderr: lastLines(tail)}
	}
}

// Finish ends the game for the bot: its input is closed and it exits; if
// it lingers it is killed.
func (b *Process) Finish() {
	if b.toBot == nil {
		return
	}
	b.mu.Lock()
	b.finished = true
	b.mu.Unlock()
	if tree, player, ok := treeUsage(b.Pid()); ok {
		cpuUser.Add(int64(tree.User))
		cpuSys.Add(int64(tree.Sys))
		b.prog.record(player)
	}
	b.cmd.Thaw() // to read the end of its input and exit
	b.toBot.Close()
	go func() {
		select {
		case <-b.exited:
		case <-time.After(2 * time.Second):
			b.kill()
		}
	}()
}

// kill kills the process group (if the process is still there) and closes
// the pipes.
func (b *Process) kill() {
	b.mu.Lock()
	cmd := b.cmd
	b.mu.Unlock()
	if cmd == nil {
		return
	}
	select {
	case <-b.exited:
	default:
		cmd.Kill()
	}
}

// Err returns the bot's error (a *BotError), or nil.
func (b *Process) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Close kills the bot's process group and waits for the process. It is
// safe to call more than once and concurrently with Play.
func (b *Process) Close() error {
	b.closeOnce.Do(func() {
		b.mu.Lock()
		b.closed = true
		finished := b.finished
		b.mu.Unlock()
		if finished && b.cmd != nil {
			// A bot whose game ended exits by itself: let it, so that its
			// process is reaped normally (its CPU time then counts in the
			// rusage of jgym's children, which export-cpp --bench reads).
			select {
			case <-b.exited:
			case <-time.After(2 * time.Second):
			}
		}
		b.kill()
		if b.cmd != nil {
			<-b.exited
			b.toBot.Close()
			b.fromBot.Close()
		}
		b.prog.forget(b)
	})
	return nil
}

func (b *Process) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// Player returns the name the bot registered (RegisterPlayer), once it has
// started playing.
func (b *Process) Player() string { return b.player }

// Stderr returns the last bytes the bot wrote to stderr (at most
// Options.StderrLimit) and how many it wrote in all.
func (b *Process) Stderr() ([]byte, int64) { return b.stderr.Bytes() }

// Pid returns the bot's process id (0 if it did not start).
func (b *Process) Pid() int {
	if b.cmd == nil || b.cmd.Process == nil {
		return 0
	}
	return b.cmd.Process.Pid
}

// CPU returns the CPU time used so far by all the bot's processes (its
// sandbox's control group), where the sandbox counts it.
func (b *Process) CPU() (time.Duration, bool) {
	b.mu.Lock()
	cmd := b.cmd
	b.mu.Unlock()
	if cmd == nil {
		return 0, false
	}
	return cmd.CPU()
}

// lastLines returns the end of a bot's stderr for an error message, with
// runs of the same line shown once.
func lastLines(tail []byte) string {
	tail = bytes.TrimRight(tail, "\n")
	if len(tail) > errTailBytes {
		tail = tail[len(tail)-errTailBytes:]
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	if len(tail) == 0 {
		return ""
	}
	var lines []string
	var last string
	run := 0
	flush := func() {
		if run > 1 {
			lines = append(lines, fmt.Sprintf("%s  (%d times)", last, run))
		} else if run == 1 {
			lines = append(lines, last)
		}
	}
	for _, l := range strings.Split(string(tail), "\n") {
		if run > 0 && l == last {
			run++
			continue
		}
		flush()
		last, run = l, 1
	}
	flush()
	if len(lines) > errTailLines {
		lines = lines[len(lines)-errTailLines:]
	}
	return strings.Join(lines, "\n")
}

var _ io.Closer = (*Process)(nil)

// tailBuffer keeps the last limit bytes written to it (a bot's stderr), and
// copies everything to an optional writer.
type tailBuffer struct {
	mu    sync.Mutex
	limit int
	buf   []byte
	total int64
	copy  io.Writer
}

func newTailBuffer(limit int, copy io.Writer) *tailBuffer {
	return &tailBuffer{limit: limit, copy: copy}
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += int64(len(p))
	if t.copy != nil {
		t.copy.Write(p) // a failing copy must not stop the bot
	}
	if len(p) >= t.limit {
		t.buf = append(t.buf[:0], p[len(p)-t.limit:]...)
		return len(p), nil
	}
	if over := len(t.buf) + len(p) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// Bytes returns a copy of the kept bytes and the total written.
func (t *tailBuffer) Bytes() ([]byte, int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...), t.total
}
