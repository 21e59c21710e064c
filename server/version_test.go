package server_test

import (
	"context"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/server"
)

func TestGetVersion(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn", server.WithVersion("9.8.7"))
	got, err := ts.client.GetVersion(context.Background(), &jgymv1.GetVersionRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got.ServerVersion != "9.8.7" || got.ProtocolVersion != server.ProtocolVersion {
		t.Errorf("GetVersion = %q, protocol %d, want %q, protocol %d", got.ServerVersion, got.ProtocolVersion, "9.8.7", server.ProtocolVersion)
	}
	if len(got.ObservationVersions) != 1 || got.ObservationVersions[game] != "crematoria-obs-3" {
		t.Errorf("GetVersion observation versions = %v, want %s: crematoria-obs-3", got.ObservationVersions, game)
	}
}
