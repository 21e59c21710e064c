package server

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"jgym/env"
	"jgym/vec"
)

// TestToStatus pins the mapping of every domain error to its status code,
// also when wrapped.
func TestToStatus(t *testing.T) {
	for _, c := range []struct {
		err  error
		want codes.Code
	}{
		{errBadRequest, codes.InvalidArgument},
		{env.ErrBadSetup, codes.InvalidArgument},
		{vec.ErrBadOption, codes.InvalidArgument},
		{vec.ErrBadEnvID, codes.InvalidArgument},
		{vec.ErrBadAction, codes.InvalidArgument},
		{vec.ErrBadSeed, codes.InvalidArgument},
		{errNotFound, codes.NotFound},
		{env.ErrUnknownGame, codes.NotFound},
		{env.ErrUnknownBot, codes.NotFound},
		{errAttached, codes.FailedPrecondition},
		{vec.ErrNotReset, codes.FailedPrecondition},
		{vec.ErrNeedsReset, codes.FailedPrecondition},
		{vec.ErrBusy, codes.FailedPrecondition},
		{vec.ErrNothingPending, codes.FailedPrecondition},
		{vec.ErrClosed, codes.FailedPrecondition},
		{errLimit, codes.ResourceExhausted},
		{vec.ErrInstance, codes.Aborted},
		{errDraining, codes.Unavailable},
		{errForbidden, codes.PermissionDenied},
		{context.Canceled, codes.Canceled},
		{context.DeadlineExceeded, codes.DeadlineExceeded},
		{errors.New("surprise"), codes.Internal},
		{status.Error(codes.ResourceExhausted, "from gRPC"), codes.ResourceExhausted},
	} {
		wrapped := fmt.Errorf("session s-1: env 3: %w", c.err)
		got := status.Convert(toStatus(wrapped))
		if got.Code() != c.want {
			t.Errorf("toStatus(%v) code = %v, want %v", wrapped, got.Code(), c.want)
		}
		if c.want != codes.ResourceExhausted && got.Message() != wrapped.Error() {
			t.Errorf("toStatus(%v) message = %q, want the error's text", wrapped, got.Message())
		}
	}
	if toStatus(nil) != nil {
		t.Error("toStatus(nil) != nil")
	}
}
