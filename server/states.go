package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/vec"
)

// envIDs is a request's env ids, nil for all envs.
func envIDs(ids []int32) []int32 {
	if len(ids) == 0 {
		return nil
	}
	return ids
}

// traceStart starts envs from a round of a trace: the client's bytes, or
// a trace of the operator's --start-traces directory by name.
func (s *Server) traceStart(ctx context.Context, ss *session, ids []int32, ts *jgymv1.TraceStart) (*vec.Batch, error) {
	trace, cmds := ts.GetTrace(), ts.GetCommands()
	if name := ts.GetName(); name != "" {
		if len(trace) > 0 || len(cmds) > 0 {
			return nil, fmt.Errorf("%w: trace_start: give a name or the trace's bytes, not both", errBadRequest)
		}
		var err error
		if trace, cmds, err = s.offeredTrace(name); err != nil {
			return nil, err
		}
	}
	if len(trace) == 0 {
		return nil, fmt.Errorf("%w: trace_start: no trace", errBadRequest)
	}
	return ss.pool.ResetFromTrace(ctx, ids, trace, cmds, int(ts.GetRound()))
}

// offeredTrace reads a trace and its command file of the start-traces
// directory: NAME.res[.gz] and NAME.cmd[.gz] (nil when there is none: the
// position is then rebuilt from the trace), through an os.Root (no link
// leads out of it), each at most env.MaxTraceBytes plain.
func (s *Server) offeredTrace(name string) (trace, cmds []byte, err error) {
	if s.opts.startTraces == "" {
		return nil, nil, fmt.Errorf("%w: trace_start.name needs a server started with --start-traces", errForbidden)
	}
	if !ValidBotFile(name) {
		return nil, nil, fmt.Errorf("%w: trace_start.name %s: want a name of letters, digits, '.', '_' and '-'", errBadRequest, short(name))
	}
	root, err := os.OpenRoot(s.opts.startTraces)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the server's start-traces directory cannot be opened", errForbidden)
	}
	defer root.Close()
	if trace, err = readOffered(root, name+".res"); err == nil {
		cmds, err = readOffered(root, name+".cmd")
		if errors.Is(err, fs.ErrNotExist) {
			cmds, err = nil, nil // the position is rebuilt from the trace
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: no trace %s among the server's start traces", errBadRequest, short(name))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: start trace %s: %w", errBadRequest, short(name), err)
	}
	return trace, cmds, nil
}

// errTooBig is a start trace over env.MaxTraceBytes.
var errTooBig = fmt.Errorf("over %d bytes", env.MaxTraceBytes)

// readOffered reads file, or file.gz decompressed, from root, at most
// env.MaxTraceBytes.
func readOffered(root *os.Root, file string) ([]byte, error) {
	var r io.Reader
	f, err := root.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		if f, err = root.Open(file + ".gz"); err != nil {
			return nil, err
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, errors.New("not gzip")
		}
		r = zr
	} else if err != nil {
		return nil, err
	} else {
		defer f.Close()
		r = f
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(r, env.MaxTraceBytes+1)); err != nil {
		return nil, errors.New("unreadable")
	}
	if buf.Len() > env.MaxTraceBytes {
		return nil, errTooBig
	}
	return buf.Bytes(), nil
}
