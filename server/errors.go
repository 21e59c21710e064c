package server

import (
	"context"
	"errors"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"jgym/env"
	"jgym/vec"
)

// Errors of the server itself. Together with the sentinels of env and vec
// they are turned into gRPC status codes by toStatus, and only there.
var (
	// errBadRequest means a request is malformed: a missing field, a
	// tensor of the wrong dtype, shape or length, an unknown enum value.
	errBadRequest = errors.New("bad request")
	// errNotFound means a session id names no open session.
	errNotFound = errors.New("session not found")
	// errLimit means a request would pass one of the server's limits.
	errLimit = errors.New("limit exceeded")
	// errAttached means a second stream tried to attach to a session.
	errAttached = errors.New("session already has a stream")
	// errDraining means the server is shutting down.
	errDraining = errors.New("server is shutting down")
	// errForbidden means the request asks for something the server's
	// configuration does not allow (a trace directory outside --trace-dir).
	errForbidden = errors.New("not allowed")
)

// toStatus turns an error into a gRPC status error: the one place where
// domain errors become status codes. Errors that already carry a status
// (from gRPC itself) keep it. Messages are cut to maxMessageBytes, so that
// no input is echoed whole.
func toStatus(err error) error {
	if err == nil {
		return nil
	}
	if st, ok := status.FromError(err); ok {
		if len(st.Message()) > maxMessageBytes {
			return status.Error(st.Code(), clip(st.Message(), maxMessageBytes))
		}
		return err
	}
	return status.Error(codeOf(err), clip(err.Error(), maxMessageBytes))
}

// codeOf picks the status code of a domain error.
func codeOf(err error) codes.Code {
	switch {
	case errors.Is(err, context.Canceled):
		return codes.Canceled
	case errors.Is(err, context.DeadlineExceeded):
		return codes.DeadlineExceeded
	case errors.Is(err, errBadRequest),
		errors.Is(err, env.ErrBadSetup),
		errors.Is(err, vec.ErrBadOption),
		errors.Is(err, vec.ErrBadEnvID),
		errors.Is(err, vec.ErrBadAction),
		errors.Is(err, vec.ErrBadSeed):
		return codes.InvalidArgument
	case errors.Is(err, errNotFound),
		errors.Is(err, env.ErrUnknownGame),
		errors.Is(err, env.ErrUnknownBot):
		return codes.NotFound
	case errors.Is(err, errAttached),
		errors.Is(err, vec.ErrNotReset),
		errors.Is(err, vec.ErrNeedsReset),
		errors.Is(err, vec.ErrBusy),
		errors.Is(err, vec.ErrNothingPending),
		errors.Is(err, vec.ErrClosed):
		return codes.FailedPrecondition
	case errors.Is(err, errLimit), errors.Is(err, env.ErrBusy):
		return codes.ResourceExhausted
	case errors.Is(err, vec.ErrInstance):
		return codes.Aborted
	case errors.Is(err, errDraining):
		return codes.Unavailable
	case errors.Is(err, errForbidden):
		return codes.PermissionDenied
	}
	return codes.Internal
}
