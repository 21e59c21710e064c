package server_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestRefusedBots: the Search bot (seconds of CPU a game) is neither
// listed nor seated unless the operator allows it; then it is both.
func TestRefusedBots(t *testing.T) {
	checkLeaks(t)
	ctx := context.Background()
	ts := start(t, "bufconn")
	b, err := ts.client.ListBots(ctx, &jgymv1.ListBotsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(b.Bots, "Search") || !slices.Contains(b.Bots, "Demo") {
		t.Errorf("ListBots = %v, want Demo and no Search", b.Bots)
	}
	_, err = ts.client.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1, Seats: seats("", "Search", "Demo", "Demo")})
	wantCode(t, "a Search seat", err, codes.NotFound)
	if msg := status.Convert(err).Message(); !strings.Contains(msg, "seat 1") || !strings.Contains(msg, "--allow-search") {
		t.Errorf("a Search seat: %q, want the seat and the operator's flag named", msg)
	}

	open := start(t, "bufconn", server.WithRefusedBots())
	b, err = open.client.ListBots(ctx, &jgymv1.ListBotsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(b.Bots, "Search") {
		t.Errorf("ListBots with no refused bots = %v, want Search", b.Bots)
	}
	cr, err := open.client.CreateSession(ctx, &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1, Seats: seats("", "Search", "Demo", "Demo")})
	if err != nil {
		t.Fatalf("a Search seat where allowed: %v", err)
	}
	if _, err := open.client.CloseSession(ctx, &jgymv1.CloseSessionRequest{SessionId: cr.SessionId}); err != nil {
		t.Fatal(err)
	}
}
