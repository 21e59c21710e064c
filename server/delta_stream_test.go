package server_test

import (
	"bytes"
	"strings"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env/crematoria"
	"jgym/server"
)

var obsNames = []string{"board", "units", "globals", "action_mask"}

// deltaClient decodes the observations of a session with
// observation_delta, as a Go client would.
type deltaClient struct {
	per  map[string]int
	refs map[string][]byte
}

func newDeltaClient(spec *jgymv1.GameSpec, n int) *deltaClient {
	c := &deltaClient{per: map[string]int{}, refs: map[string][]byte{}}
	for _, ts := range spec.GetObservation() {
		size := 1
		for _, d := range ts.GetShape() {
			size *= int(d)
		}
		if ts.GetDtype() == jgymv1.Dtype_DTYPE_FLOAT32 || ts.GetDtype() == jgymv1.Dtype_DTYPE_INT32 {
			size *= 4
		}
		c.per[ts.GetName()] = size
		c.refs[ts.GetName()] = make([]byte, n*size)
	}
	return c
}

// decode replaces every delta-encoded observation of r by its raw form.
func (c *deltaClient) decode(t *testing.T, r *jgymv1.StepResult) {
	t.Helper()
	for name, tn := range r.GetObservation() {
		if tn.GetEncoding() != jgymv1.TensorEncoding_TENSOR_ENCODING_WORD_DELTA {
			t.Fatalf("%s: encoding %v, want WORD_DELTA", name, tn.GetEncoding())
		}
		out := make([]byte, len(r.GetEnvIds())*c.per[name])
		if err := server.ApplyDelta(out, tn.GetData(), r.GetEnvIds(), c.refs[name], c.per[name]); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tn.Data, tn.Encoding = out, jgymv1.TensorEncoding_TENSOR_ENCODING_UNSPECIFIED
	}
	for name, tn := range r.GetFinalObservation() {
		if tn.GetEncoding() != jgymv1.TensorEncoding_TENSOR_ENCODING_UNSPECIFIED {
			t.Fatalf("final %s: encoding %v, want raw", name, tn.GetEncoding())
		}
	}
}

// TestObservationDelta plays the same games in a raw session and a delta
// session, stepping halves of the envs in turn across episode ends (same
// step autoreset, so final observations come too), and compares every
// decoded answer; then a new stream on the delta session starts from zero
// references and still decodes right.
func TestObservationDelta(t *testing.T) {
	checkLeaks(t)
	ts := start(t, "bufconn")
	cfg := strings.Replace(crematoria.DefaultConfigText, "nb_rounds            120", "nb_rounds              5", 1)
	if cfg == crematoria.DefaultConfigText {
		t.Fatal("could not shorten the configuration")
	}
	const n = 4
	mk := func(delta bool) (*jgymv1.CreateSessionResponse, *stream) {
		cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: n, Config: cfg, ObservationDelta: delta,
			AutoresetMode: jgymv1.AutoresetMode_AUTORESET_MODE_SAME_STEP})
		return cr, ts.open(t, cr.SessionId, 1)
	}
	_, raw := mk(false)
	dcr, del := mk(true)
	dc := newDeltaClient(dcr.GetGame(), n)
	same := func(step int, a, b *jgymv1.StepResult) {
		t.Helper()
		for _, name := range obsNames {
			if !bytes.Equal(a.GetObservation()[name].GetData(), b.GetObservation()[name].GetData()) {
				t.Fatalf("step %d: %s differs between the raw and the delta session", step, name)
			}
			if !bytes.Equal(a.GetFinalObservation()[name].GetData(), b.GetFinalObservation()[name].GetData()) {
				t.Fatalf("step %d: final %s differs", step, name)
			}
		}
	}
	ra, rb := raw.must(resetReq(3)), del.must(resetReq(3))
	dc.decode(t, rb)
	same(0, ra, rb)
	halves := [][]int32{{0, 1}, {2, 3}}
	obs := map[int32][]byte{} // last mask per env, for the policy
	keep := func(r *jgymv1.StepResult) {
		m := r.GetObservation()["action_mask"].GetData()
		per := len(m) / len(r.GetEnvIds())
		for k, id := range r.GetEnvIds() {
			obs[id] = append([]byte(nil), m[k*per:(k+1)*per]...)
		}
	}
	keep(ra)
	var rawBytes, deltaBytes int
	for step := 1; step <= 24; step++ {
		ids := halves[step%2]
		var act []byte
		for _, id := range ids {
			act = append(act, policy(&jgymv1.StepResult{EnvIds: []int32{id},
				Observation: map[string]*jgymv1.Tensor{"action_mask": {Data: obs[id]}},
				Info:        &jgymv1.Info{Round: &jgymv1.Tensor{Data: make([]byte, 4)}}}, 1)...)
		}
		ra = raw.must(stepReq(ids, act, len(ids), 1))
		rb = del.must(stepReq(ids, act, len(ids), 1))
		rawBytes += len(ra.GetObservation()["board"].GetData())
		deltaBytes += len(rb.GetObservation()["board"].GetData())
		dc.decode(t, rb)
		same(step, ra, rb)
		keep(ra)
	}
	if deltaBytes*2 > rawBytes {
		t.Errorf("delta boards took %d bytes against %d raw: expected well under half", deltaBytes, rawBytes)
	}
	// A new stream on the delta session: both ends restart from zeros.
	del.st.CloseSend()
	del.st.Recv()
	del2 := ts.open(t, dcr.SessionId, 1)
	dc = newDeltaClient(dcr.GetGame(), n)
	ra, rb = raw.must(resetReq(11)), del2.must(resetReq(11))
	dc.decode(t, rb)
	same(100, ra, rb)
}
