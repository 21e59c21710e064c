package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc/status"

	"jgym/vec"
)

// localHelloTimeout bounds the hello of a local connection.
const localHelloTimeout = 10 * time.Second

// maxLocalConns bounds the local connections open at once, attached or
// not.
const maxLocalConns = 256

// listenLocal listens on the operator's local socket. A socket left by a
// server that died is replaced; any other file is not. A path that starts
// with '@' is a name in Linux's abstract namespace: no file at all, gone
// with the server however it ends (the secret is then the only guard).
func listenLocal(path string) (*net.UnixListener, error) {
	if !localSupported {
		_, err := newMemfd("", 0, false)
		return nil, fmt.Errorf("--local-socket: %w", err)
	}
	if strings.HasPrefix(path, "@") {
		ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
		if err != nil {
			return nil, fmt.Errorf("--local-socket: %w", err)
		}
		return ln, nil
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("--local-socket %s: a file that is not a socket is in the way", path)
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("--local-socket %s: another server listens there", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("--local-socket %s: removing the stale socket: %w", path, err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("--local-socket: %w", err)
	}
	// Only the server's user connects; the secret is still required.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("--local-socket: %w", err)
	}
	return ln, nil
}

// serveLocal accepts local connections until ln is closed; closeLocal
// closes ln and every connection.
func (s *Server) serveLocal(ln *net.UnixListener) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // EMFILE and the like
			continue
		}
		s.localMu.Lock()
		if s.localConns == nil || len(s.localConns) >= maxLocalConns {
			s.localMu.Unlock()
			c.Close()
			continue
		}
		s.localConns[c] = struct{}{}
		s.localMu.Unlock()
		s.readers.Add(1)
		go func() {
			defer s.readers.Done()
			s.serveLocalConn(c)
			s.localMu.Lock()
			delete(s.localConns, c)
			s.localMu.Unlock()
		}()
	}
}

// closeLocal stops accepting local connections and closes the open ones.
func (s *Server) closeLocal(ln *net.UnixListener) {
	ln.Close()
	s.localMu.Lock()
	for c := range s.localConns {
		c.Close()
	}
	s.localConns = nil
	s.localMu.Unlock()
}

// sendLocalError answers with an error: its gRPC code and message.
func sendLocalError(c net.Conn, err error) {
	st := status.Convert(toStatus(err))
	msg := st.Message()
	h := answerHeader(byte(st.Code()), len(msg), 0)
	c.SetWriteDeadline(time.Now().Add(localHelloTimeout))
	c.Write(append(h[:], msg...))
}

// serveLocalConn serves one local connection: the hello, then requests
// until a bye, an error of the protocol, or the session's end.
func (s *Server) serveLocalConn(c *net.UnixConn) {
	defer c.Close()
	log := s.logger()
	c.SetDeadline(time.Now().Add(localHelloTimeout))
	ss, err := s.localHello(c)
	if err != nil {
		log.Warn().Str("method", "local").Str("error", status.Convert(toStatus(err)).Message()).Msg("local channel refused")
		sendLocalError(c, err)
		return
	}
	r, err := s.attachLocal(ss)
	if err != nil {
		sendLocalError(c, err)
		return
	}
	vanished := true
	defer func() { s.detachLocal(ss, r, vanished) }()
	// The descriptors go with the answer; the server's copies are closed
	// once sent (the client holds its own).
	h := answerHeader(0, len(r.json), 0)
	rights := syscall.UnixRights(int(r.in.file.Fd()), int(r.out.file.Fd()))
	if _, _, err := c.WriteMsgUnix(append(h[:], r.json...), rights, nil); err != nil {
		return
	}
	r.in.closeFile()
	r.out.closeFile()
	c.SetDeadline(time.Time{})
	// The connection ends with its session (closed by the client over
	// gRPC, idle, or shutdown).
	stop := context.AfterFunc(ss.ctx, func() { c.Close() })
	defer stop()
	log.Info().Str("session", ss.id).Int("region_bytes", int(r.regionMem)).Msg("local channel attached")
	hio, err := newHeaderIO(c)
	if err != nil {
		return
	}
	var hdr localHeader
	for {
		if err := hio.read(hdr[:]); err != nil {
			if ss.ctx.Err() != nil {
				vanished = false // the session closed: nothing vanished
			}
			return
		}
		req, err := parseRequest(hdr)
		if err != nil {
			sendLocalError(c, err)
			vanished = false // the server ends the channel; the session stays
			return
		}
		if req.op == localOpBye {
			vanished = false
			return
		}
		start := time.Now()
		kind, b, f, err := s.handleLocal(ss, r, req)
		if err != nil {
			if errors.Is(err, errBadRequest) && req.count > r.n {
				sendLocalError(c, err)
				vanished = false
				return
			}
			sendLocalError(c, err)
			continue
		}
		h := answerHeader(0, b, f)
		if err := hio.write(h[:]); err != nil {
			return
		}
		s.metrics.latency[kind].observe(time.Since(start))
	}
}

// localHello reads a hello and finds its session: the id must name an
// open session and the secret be its own.
func (s *Server) localHello(c net.Conn) (*session, error) {
	var magic [len(localMagic)]byte
	if _, err := io.ReadFull(c, magic[:]); err != nil || string(magic[:]) != localMagic {
		return nil, fmt.Errorf("%w: a local channel starts with %q", errBadRequest, localMagic)
	}
	id, err := readShort(c, maxSessionIDBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: the hello's session id: %v", errBadRequest, err)
	}
	secret, err := readShort(c, localSecretBytes)
	if err != nil {
		return nil, fmt.Errorf("%w: the hello's secret: %v", errBadRequest, err)
	}
	s.mu.Lock()
	ss := s.sessions[string(id)]
	s.mu.Unlock()
	want := make([]byte, localSecretBytes) // compared even for no session
	if ss != nil {
		want = ss.secret[:]
	}
	if subtle.ConstantTimeCompare(secret, want) != 1 || ss == nil {
		return nil, fmt.Errorf("%w: no open session has this id and secret", errForbidden)
	}
	return ss, nil
}

// readShort reads one length byte and that many bytes, at most max.
func readShort(c io.Reader, max int) ([]byte, error) {
	var n [1]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		return nil, err
	}
	if int(n[0]) > max {
		return nil, fmt.Errorf("%d bytes, at most %d", n[0], max)
	}
	b := make([]byte, n[0])
	_, err := io.ReadFull(c, b)
	return b, err
}

// attachLocal books the session's regions against the memory budget,
// makes them and moves the pool's observations into them.
func (s *Server) attachLocal(ss *session) (*region, error) {
	if !ss.local.CompareAndSwap(false, true) {
		return nil, fmt.Errorf("%w: session %s already has a local channel", errAttached, ss.id)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		ss.local.Store(false)
		return nil, fmt.Errorf("%w: session %s was closed", errNotFound, ss.id)
	}
	lay := layoutOf(&ss.spec, ss.n, ss.l, ss.pool.Autoreset() == vec.SameStep)
	mem := int64(lay.InBytes + lay.OutBytes)
	s.mu.Lock()
	if s.memory+mem > s.opts.memoryBudget {
		free := s.opts.memoryBudget - s.memory
		s.mu.Unlock()
		ss.local.Store(false)
		return nil, fmt.Errorf("%w: the local channel's shared memory takes about %d MiB, %d MiB of the server's memory budget are free",
			errLimit, mem>>20, free>>20)
	}
	s.memory += mem
	s.mu.Unlock()
	fail := func(err error) (*region, error) {
		s.mu.Lock()
		s.memory -= mem
		s.mu.Unlock()
		ss.local.Store(false)
		return nil, err
	}
	r, err := newRegion(ss)
	if err != nil {
		return fail(fmt.Errorf("%w: %v", errLimit, err))
	}
	if err := ss.pool.MoveOutputs(r.obs, r.final); err != nil {
		r.release()
		return fail(err)
	}
	ss.touch()
	return r, nil
}

// detachLocal moves the pool's observations back into memory of its own
// (or, when that cannot be done, closes the session, which stops the
// pool) before the regions are unmapped; a vanished client's session is
// closed.
func (s *Server) detachLocal(ss *session, r *region, vanished bool) {
	if vanished {
		log := s.logger()
		log.Info().Str("session", ss.id).Msg("local client vanished")
		s.closeSession(ss, reasonVanished)
	}
	ss.mu.Lock()
	moved := ss.closed // a closed pool writes nothing
	if !ss.closed {
		for ss.pool.Pending() > 0 {
			if _, err := ss.pool.Recv(ss.ctx); err != nil {
				break
			}
		}
		moved = ss.pool.MoveOutputs(nil, nil) == nil
	}
	ss.mu.Unlock()
	if !moved {
		s.closeSession(ss, reasonVanished)
	}
	r.release()
	s.mu.Lock()
	s.memory -= r.regionMem
	s.mu.Unlock()
	ss.local.Store(false)
}

// handleLocal answers one request under the session's lock; the batch
// goes into the output region.
func (s *Server) handleLocal(ss *session, r *region, req localRequest) (kind, nb, nf int, err error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return 0, 0, 0, fmt.Errorf("%w: session %s was closed (%s)", errNotFound, ss.id, ss.reason)
	}
	ss.touch()
	defer ss.touch()
	ids, act, ord, err := r.request(req.slot, req.count, req.op == localOpStep, req.flags&localFlagOrder != 0)
	if err != nil {
		return 0, 0, 0, err
	}
	ctx := ss.ctx
	// The client reads each env's rows where the pool wrote them: a batch
	// of some envs needs no gathered copy.
	ss.pool.ObsInPlace(true)
	defer ss.pool.ObsInPlace(false)
	var b *vec.Batch
	switch req.op {
	case localOpReset:
		kind = kindReset
		seed := vec.NoSeed
		if req.flags&localFlagSeed != 0 {
			if seed = req.seed; seed < 0 || seed > 1<<31-1 {
				return kind, 0, 0, fmt.Errorf("%w: seed %d, want 0..2147483647", errBadRequest, seed)
			}
		}
		if b, err = ss.pool.Reset(ctx, ids, seed); err == nil {
			s.metrics.envResets.Add(uint64(len(b.EnvIDs)))
		}
	case localOpStep:
		kind = kindStep
		if ss.async {
			if err = ss.pool.Send(ids, act, ord); err == nil {
				b, err = ss.pool.Recv(ctx)
			}
		} else {
			b, err = ss.pool.Step(ctx, ids, act, ord)
		}
	case localOpRecv:
		kind = kindRecv
		b, err = ss.pool.Recv(ctx)
	}
	s.metrics.requests[kind].Add(1)
	if err != nil {
		return kind, 0, 0, err
	}
	if kind != kindReset {
		s.metrics.envSteps.Add(uint64(len(b.EnvIDs)))
	}
	nb, nf = r.write(req.slot, b)
	return kind, nb, nf, nil
}
