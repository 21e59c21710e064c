package crematoria

import (
	"testing"

	"jgym/game/gametest"
)

// TestEncoderFixture checks the encoder against the bytes it wrote before
// it was made incremental: testdata/encoder-fixture.txt was written by the
// encoder of commit ef66d89 (JGYM_WRITE_ENCODER_FIXTURE=1 go test -run
// TestEncoderFixture, on that code), not by the code under test.
func TestEncoderFixture(t *testing.T) {
	gametest.CheckEncoderFixture(t, Def, "testdata/encoder-fixture.txt")
}
