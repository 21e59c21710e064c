package server_test

import (
	"strings"
	"testing"

	"jgym/server"
)

func TestParseTokensLimits(t *testing.T) {
	def := server.DefaultClientLimits()
	toks, err := server.ParseTokens(strings.NewReader("# comment\nalice alice-secret-0123456789 compiles=1 upload_bytes=64M\nbob bob-secret-0123456789abc\n"), def)
	if err != nil {
		t.Fatal(err)
	}
	if got := toks[0].Limits; got.Compiles != 1 || got.UploadBytes != 64<<20 || got.Sessions != def.Sessions {
		t.Errorf("alice's limits %+v, want compiles 1, upload_bytes 64 MiB, the rest default", got)
	}
	if toks[1].Limits != def {
		t.Errorf("bob's limits %+v, want the defaults %+v", toks[1].Limits, def)
	}
	for line, want := range map[string]string{
		"eve eve-secret-0123456789 compilers=2": "unknown limit \"compilers\" (want sessions, envs, streams, uploads, upload_bytes, trace_bytes or compiles)",
		"eve eve-secret-0123456789 compiles=-1": `compiles="-1": want a number at least 0`,
	} {
		if _, err := server.ParseTokens(strings.NewReader(line), def); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTokens(%q) = %v, want an error with %q", line, err, want)
		}
	}
}
