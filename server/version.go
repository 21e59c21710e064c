package server

import (
	"context"

	jgymv1 "jgym/api/jgym/v1"
)

// ProtocolVersion is the version of jgym.v1 this server speaks, as
// GetVersion reports it. Raise it with any change that an older client
// would misread (or that would make the server misread an older client);
// clients refuse a server of another protocol version
// (jgym.VersionMismatchError in Python). Version 1: the protocol of
// docs/protocol.md with GetVersion.
const ProtocolVersion = 1

// GetVersion returns the server's release, its protocol version and the
// observation layout of each hosted game.
func (s *Server) GetVersion(ctx context.Context, _ *jgymv1.GetVersionRequest) (*jgymv1.GetVersionResponse, error) {
	resp := &jgymv1.GetVersionResponse{
		ServerVersion:       s.opts.version,
		ProtocolVersion:     ProtocolVersion,
		ObservationVersions: map[string]string{},
	}
	for _, g := range s.reg.Games() {
		sp := g.Spec()
		resp.ObservationVersions[sp.ID] = sp.ObservationVersion
	}
	return resp, nil
}
