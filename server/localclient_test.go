//go:build linux && (amd64 || arm64)

package server_test

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	jgymv1 "jgym/api/jgym/v1"
)

// localClient is the tests' client of the local channel: the hello, the
// two regions mapped, and requests whose answers are rebuilt as
// StepResults, so that they compare with the gRPC answers byte for byte.
type localClient struct {
	t       testing.TB
	c       *net.UnixConn
	in, out []byte
	fds     []int
	lay     struct {
		InBytes          int            `json:"in_bytes"`
		OutBytes         int            `json:"out_bytes"`
		Slots            int            `json:"slots"`
		InSlotBytes      int            `json:"in_slot_bytes"`
		OutSlotBytes     int            `json:"out_slot_bytes"`
		In               map[string]int `json:"in"`
		Out              map[string]int `json:"out"`
		Observation      map[string]int `json:"observation"`
		FinalObservation map[string]int `json:"final_observation"`
	}
	spec *jgymv1.GameSpec
	n, l int
}

// helloBytes is a hello for a session id and secret.
func helloBytes(id string, secret []byte) []byte {
	b := []byte("JGYMLOC1")
	b = append(b, byte(len(id)))
	b = append(b, id...)
	b = append(b, byte(len(secret)))
	return append(b, secret...)
}

// localError is an answer's error: the gRPC code and message.
type localError struct {
	code int
	msg  string
}

func (e *localError) Error() string { return fmt.Sprintf("local: code %d: %s", e.code, e.msg) }

// readAnswer reads a 16-byte answer header (and an error's message).
func readAnswer(c io.Reader) (b, f int, err error) {
	var h [16]byte
	if _, err := io.ReadFull(c, h[:]); err != nil {
		return 0, 0, err
	}
	b, f = int(binary.LittleEndian.Uint32(h[4:])), int(binary.LittleEndian.Uint32(h[8:]))
	if h[0] != 0 {
		msg := make([]byte, b)
		io.ReadFull(c, msg)
		return 0, 0, &localError{code: int(h[0]), msg: string(msg)}
	}
	return b, f, nil
}

// attachLocal connects to the socket and attaches the session of resp.
func attachLocal(t testing.TB, resp *jgymv1.CreateSessionResponse, n int) (*localClient, error) {
	t.Helper()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: resp.GetLocalSocket(), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	lc := &localClient{t: t, c: c, spec: resp.GetGame(), n: n, l: int(resp.GetNumLearners())}
	t.Cleanup(lc.close)
	if _, err := c.Write(helloBytes(resp.GetSessionId(), resp.GetLocalSecret())); err != nil {
		return nil, err
	}
	buf := make([]byte, 1<<16)
	oob := make([]byte, syscall.CmsgSpace(2*4))
	k, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil {
		return nil, err
	}
	if k < 16 {
		return nil, fmt.Errorf("short hello answer: %d bytes", k)
	}
	size := int(binary.LittleEndian.Uint32(buf[4:]))
	if buf[0] != 0 {
		return nil, &localError{code: int(buf[0]), msg: string(buf[16:min(k, 16+size)])}
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, fmt.Errorf("control messages: %v (%d)", err, len(msgs))
	}
	if lc.fds, err = syscall.ParseUnixRights(&msgs[0]); err != nil || len(lc.fds) != 2 {
		return nil, fmt.Errorf("descriptors: %v (%d)", err, len(lc.fds))
	}
	for k < 16+size { // the layout may come in several reads
		m, err := c.Read(buf[k:])
		if err != nil {
			return nil, err
		}
		k += m
	}
	if err := json.Unmarshal(buf[16:16+size], &lc.lay); err != nil {
		return nil, err
	}
	if lc.in, err = syscall.Mmap(lc.fds[0], 0, lc.lay.InBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED); err != nil {
		return nil, err
	}
	if lc.out, err = syscall.Mmap(lc.fds[1], 0, lc.lay.OutBytes, syscall.PROT_READ, syscall.MAP_SHARED); err != nil {
		return nil, err
	}
	return lc, nil
}

func mustAttach(t testing.TB, resp *jgymv1.CreateSessionResponse, n int) *localClient {
	t.Helper()
	lc, err := attachLocal(t, resp, n)
	if err != nil {
		t.Fatalf("attach: %v", err)
	}
	return lc
}

func (lc *localClient) close() {
	if lc.in != nil {
		syscall.Munmap(lc.in)
		lc.in = nil
	}
	if lc.out != nil {
		syscall.Munmap(lc.out)
		lc.out = nil
	}
	for _, fd := range lc.fds {
		syscall.Close(fd)
	}
	lc.fds = nil
	lc.c.Close()
}

// header sends a request header of slot 0.
func (lc *localClient) header(op, flags byte, count int, seed int64) error {
	return lc.headerAt(0, op, flags, count, seed)
}

// headerAt sends a request header of a slot.
func (lc *localClient) headerAt(slot, op, flags byte, count int, seed int64) error {
	var h [16]byte
	h[0], h[1], h[2] = op, flags, slot
	binary.LittleEndian.PutUint32(h[4:], uint32(count))
	binary.LittleEndian.PutUint64(h[8:], uint64(seed))
	_, err := lc.c.Write(h[:])
	return err
}

// do sends a request (ids written first when given, actions for steps)
// and rebuilds its answer.
func (lc *localClient) do(op byte, seed int64, ids []int32, act []byte) (*jgymv1.StepResult, error) {
	var flags byte
	if op == 1 && seed >= 0 {
		flags = 1
	}
	lc.put(0, ids, act)
	if err := lc.header(op, flags, len(ids), max(seed, 0)); err != nil {
		return nil, err
	}
	b, f, err := readAnswer(lc.c)
	if err != nil {
		return nil, err
	}
	return lc.result(b, f), nil
}

// put writes a request's env ids and actions into a slot of the input.
func (lc *localClient) put(slot int, ids []int32, act []byte) {
	base := slot * lc.lay.InSlotBytes
	for k, id := range ids {
		binary.LittleEndian.PutUint32(lc.in[base+lc.lay.In["env_ids"]+4*k:], uint32(id))
	}
	copy(lc.in[base+lc.lay.In["actions"]:], act)
}

// stepPair sends two steps, ids0 in slot 0 and ids1 in slot 1, before
// reading either answer, and rebuilds the two answers as one.
func (lc *localClient) stepPair(ids0 []int32, act0 []byte, ids1 []int32, act1 []byte) *jgymv1.StepResult {
	lc.t.Helper()
	lc.put(0, ids0, act0)
	lc.put(1, ids1, act1)
	if err := lc.headerAt(0, 2, 0, len(ids0), 0); err != nil {
		lc.t.Fatal(err)
	}
	if err := lc.headerAt(1, 2, 0, len(ids1), 0); err != nil {
		lc.t.Fatal(err)
	}
	var rs [2]*jgymv1.StepResult
	for slot := range rs {
		b, f, err := readAnswer(lc.c)
		if err != nil {
			lc.t.Fatalf("answer of slot %d: %v", slot, err)
		}
		rs[slot] = lc.resultAt(slot, b, f)
	}
	return joinResults(rs[0], rs[1])
}

// joinResults is the answer of a's envs and then b's, as one batch.
func joinResults(a, b *jgymv1.StepResult) *jgymv1.StepResult {
	cat := func(x, y *jgymv1.Tensor) *jgymv1.Tensor {
		if x == nil && y == nil {
			return nil
		}
		return &jgymv1.Tensor{Data: append(append([]byte(nil), x.GetData()...), y.GetData()...)}
	}
	r := &jgymv1.StepResult{Observation: map[string]*jgymv1.Tensor{}, Info: &jgymv1.Info{}}
	r.EnvIds = append(append([]int32(nil), a.EnvIds...), b.EnvIds...)
	r.FinalEnvIndex = append([]int32(nil), a.FinalEnvIndex...)
	for _, k := range b.FinalEnvIndex {
		r.FinalEnvIndex = append(r.FinalEnvIndex, k+int32(len(a.EnvIds)))
	}
	for name, t := range a.Observation {
		r.Observation[name] = cat(t, b.Observation[name])
	}
	if a.FinalObservation != nil || b.FinalObservation != nil {
		r.FinalObservation = map[string]*jgymv1.Tensor{}
		for name := range a.Observation {
			r.FinalObservation[name] = cat(a.FinalObservation[name], b.FinalObservation[name])
		}
	}
	r.Reward = cat(a.Reward, b.Reward)
	r.Terminated = cat(a.Terminated, b.Terminated)
	r.Truncated = cat(a.Truncated, b.Truncated)
	r.Info.Scores = cat(a.Info.Scores, b.Info.Scores)
	r.Info.Rank = cat(a.Info.Rank, b.Info.Rank)
	r.Info.Round = cat(a.Info.Round, b.Info.Round)
	r.Info.LearnerSeats = cat(a.Info.LearnerSeats, b.Info.LearnerSeats)
	r.Info.Episode = cat(a.Info.Episode, b.Info.Episode)
	r.FinalScores = cat(a.FinalScores, b.FinalScores)
	r.UnitRewards = cat(a.UnitRewards, b.UnitRewards)
	return r
}

func (lc *localClient) must(op byte, seed int64, ids []int32, act []byte) *jgymv1.StepResult {
	lc.t.Helper()
	r, err := lc.do(op, seed, ids, act)
	if err != nil {
		lc.t.Fatalf("local request %d: %v", op, err)
	}
	return r
}

// result rebuilds a StepResult of b envs (f final) from the output region.
func (lc *localClient) result(b, f int) *jgymv1.StepResult { return lc.resultAt(0, b, f) }

// resultAt rebuilds a StepResult of b envs (f final) of a slot.
func (lc *localClient) resultAt(slot, b, f int) *jgymv1.StepResult {
	o, l, s := lc.lay.Out, lc.l, 4
	m := lc.out[slot*lc.lay.OutSlotBytes:]
	full := lc.out // observations have no slots
	part := func(name string, bytes int) *jgymv1.Tensor {
		return &jgymv1.Tensor{Data: append([]byte(nil), m[o[name]:o[name]+bytes]...)}
	}
	r := &jgymv1.StepResult{Observation: map[string]*jgymv1.Tensor{}, Info: &jgymv1.Info{}}
	ids := int32s(m[o["env_ids"] : o["env_ids"]+4*b])
	r.EnvIds = ids
	fidx := int32s(m[o["final_index"] : o["final_index"]+4*f])
	if f > 0 {
		r.FinalEnvIndex = fidx
		r.FinalObservation = map[string]*jgymv1.Tensor{}
	}
	for _, ts := range lc.spec.GetObservation() {
		per := l * tensorBytes(ts)
		var obs, fin []byte
		for _, id := range ids {
			at := lc.lay.Observation[ts.GetName()] + int(id)*per
			obs = append(obs, full[at:at+per]...)
		}
		r.Observation[ts.GetName()] = &jgymv1.Tensor{Data: obs}
		for _, k := range fidx {
			at := lc.lay.FinalObservation[ts.GetName()] + int(ids[k])*per
			fin = append(fin, full[at:at+per]...)
		}
		if f > 0 {
			r.FinalObservation[ts.GetName()] = &jgymv1.Tensor{Data: fin}
		}
	}
	r.Reward = part("reward", 4*b*l)
	r.Terminated = part("terminated", b)
	r.Truncated = part("truncated", b)
	r.Info.Scores = part("scores", 4*b*s)
	r.Info.Rank = part("rank", 4*b*l)
	r.Info.Round = part("round", 4*b)
	r.Info.LearnerSeats = part("learner_seats", 4*b*l)
	r.Info.Episode = part("episode", 4*b)
	if f > 0 {
		r.FinalScores = part("final_scores", 4*f*s)
	}
	if _, ok := o["unit_rewards"]; ok {
		r.UnitRewards = part("unit_rewards", 4*b*l*int(tensorElems(lc.spec.GetUnitReward())))
	}
	return r
}

func tensorElems(ts *jgymv1.TensorSpec) int64 {
	n := int64(1)
	for _, d := range ts.GetShape() {
		n *= d
	}
	return n
}

func tensorBytes(ts *jgymv1.TensorSpec) int {
	size := map[jgymv1.Dtype]int64{jgymv1.Dtype_DTYPE_UINT8: 1, jgymv1.Dtype_DTYPE_INT8: 1, jgymv1.Dtype_DTYPE_BOOL: 1,
		jgymv1.Dtype_DTYPE_INT16: 2, jgymv1.Dtype_DTYPE_INT32: 4, jgymv1.Dtype_DTYPE_FLOAT32: 4, jgymv1.Dtype_DTYPE_INT64: 8}
	return int(tensorElems(ts) * size[ts.GetDtype()])
}
