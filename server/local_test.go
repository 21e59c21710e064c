//go:build linux && (amd64 || arm64)

package server_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env/crematoria"
	"jgym/server"
)

// shortConfig is Crematoria with 5 rounds, so that games end within a
// test.
func shortConfig(t testing.TB) string {
	t.Helper()
	cfg := strings.Replace(crematoria.DefaultConfigText, "nb_rounds            120", "nb_rounds              5", 1)
	if cfg == crematoria.DefaultConfigText {
		t.Fatal("could not shorten the configuration")
	}
	return cfg
}

// startLocal runs a server offering the local channel in a temporary
// directory.
func startLocal(t testing.TB, opts ...server.Option) *testServer {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "jgym.sock")
	return start(t, "tcp", append([]server.Option{server.WithLocalSocket(sock)}, opts...)...)
}

// sameResult fails unless two answers hold the same batch: every
// observation and final observation tensor, rewards, flags, information.
func sameResult(t testing.TB, what string, spec *jgymv1.GameSpec, a, b *jgymv1.StepResult) {
	t.Helper()
	if !equalInt32s(a.GetEnvIds(), b.GetEnvIds()) || !equalInt32s(a.GetFinalEnvIndex(), b.GetFinalEnvIndex()) {
		t.Fatalf("%s: env ids %v / %v, final index %v / %v", what, a.GetEnvIds(), b.GetEnvIds(), a.GetFinalEnvIndex(), b.GetFinalEnvIndex())
	}
	for _, ts := range spec.GetObservation() {
		name := ts.GetName()
		if !bytes.Equal(a.GetObservation()[name].GetData(), b.GetObservation()[name].GetData()) {
			t.Fatalf("%s: observation %s differs", what, name)
		}
		if !bytes.Equal(a.GetFinalObservation()[name].GetData(), b.GetFinalObservation()[name].GetData()) {
			t.Fatalf("%s: final observation %s differs", what, name)
		}
	}
	for _, p := range []struct {
		name string
		x, y *jgymv1.Tensor
	}{
		{"reward", a.GetReward(), b.GetReward()},
		{"unit_rewards", a.GetUnitRewards(), b.GetUnitRewards()},
		{"terminated", a.GetTerminated(), b.GetTerminated()},
		{"truncated", a.GetTruncated(), b.GetTruncated()},
		{"scores", a.GetInfo().GetScores(), b.GetInfo().GetScores()},
		{"rank", a.GetInfo().GetRank(), b.GetInfo().GetRank()},
		{"round", a.GetInfo().GetRound(), b.GetInfo().GetRound()},
		{"learner_seats", a.GetInfo().GetLearnerSeats(), b.GetInfo().GetLearnerSeats()},
		{"episode", a.GetInfo().GetEpisode(), b.GetInfo().GetEpisode()},
		{"final_scores", a.GetFinalScores(), b.GetFinalScores()},
	} {
		if !bytes.Equal(p.x.GetData(), p.y.GetData()) {
			t.Fatalf("%s: %s differs: %v / %v", what, p.name, p.x.GetData(), p.y.GetData())
		}
	}
}

func equalInt32s(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLocalSameGames plays the same games over gRPC and over the local
// channel, two sessions of one request side by side, and compares every
// answer: resets seeded and not, steps of every env and of some, games
// that end (5 rounds), both autoreset modes that send observations, two
// learners, async batches and per-unit credit.
func TestLocalSameGames(t *testing.T) {
	checkLeaks(t)
	ts := startLocal(t)
	cfg := shortConfig(t)
	for _, c := range []struct {
		name string
		req  *jgymv1.CreateSessionRequest
	}{
		{"next-step", &jgymv1.CreateSessionRequest{NumEnvs: 5}},
		{"same-step-2-learners", &jgymv1.CreateSessionRequest{NumEnvs: 4, Seats: seats("", "Demo", "", "Demo"),
			AutoresetMode: jgymv1.AutoresetMode_AUTORESET_MODE_SAME_STEP}},
		{"async", &jgymv1.CreateSessionRequest{NumEnvs: 6, BatchSize: 3}},
		{"unit-rewards-shuffle", &jgymv1.CreateSessionRequest{NumEnvs: 3, UnitRewards: true, ShuffleSeats: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.Config = cfg
			gr := ts.create(t, c.req)
			lr := ts.create(t, c.req)
			if lr.GetLocalSocket() == "" || len(lr.GetLocalSecret()) != 32 {
				t.Fatalf("create answer: local_socket %q, %d secret bytes", lr.GetLocalSocket(), len(lr.GetLocalSecret()))
			}
			n, l := int(c.req.NumEnvs), int(gr.GetNumLearners())
			g := ts.open(t, gr.GetSessionId(), l)
			lc := mustAttach(t, lr, n)
			spec := gr.GetGame()
			a, b := g.must(resetReq(11)), lc.must(1, 11, nil, nil)
			sameResult(t, "reset", spec, a, b)
			if c.req.BatchSize > 0 {
				// Async: the server answers the first batch_size envs
				// ready, in an order that depends on timing; both sessions
				// are stepped with their own answers and compared by env.
				playAsync(t, g, lc, spec, l, a, b)
				return
			}
			masks := map[int32][]byte{} // each env's last mask, for the policy
			keep := func(r *jgymv1.StepResult) {
				m := r.GetObservation()["action_mask"].GetData()
				per := len(m) / len(r.GetEnvIds())
				for k, id := range r.GetEnvIds() {
					masks[id] = append([]byte(nil), m[k*per:(k+1)*per]...)
				}
			}
			keep(a)
			some := []int32{int32(n - 1), 0}
			for step := 1; step <= 14; step++ {
				ids := []int32(nil)
				if step%4 == 3 {
					ids = some
				}
				act := policyFor(masks, ids, n, l, step)
				a, b = g.must(stepReq(ids, act, len(act)/(l*slots), l)), lc.must(2, -1, ids, act)
				sameResult(t, "step", spec, a, b)
				keep(a)
				if step == 8 { // a reset of some envs, their seeds continued
					a = g.must(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Reset_{Reset_: &jgymv1.ResetRequest{EnvIds: []int32{1}}}})
					b = lc.must(1, -1, []int32{1}, nil)
					sameResult(t, "partial reset", spec, a, b)
					keep(a)
					a = g.must(resetReq(5))
					b = lc.must(1, 5, nil, nil)
					sameResult(t, "reset", spec, a, b)
					keep(a)
				}
			}
		})
	}
}

// policyFor picks a legal direction per slot of the envs ids (nil: all n)
// from their last masks, with a hash of (env, step, slot).
func policyFor(masks map[int32][]byte, ids []int32, n, l, step int) []byte {
	if ids == nil {
		for i := range n {
			ids = append(ids, int32(i))
		}
	}
	var act []byte
	for _, id := range ids {
		m := masks[id]
		for s := 0; s < l*slots; s++ {
			row := m[s*dirs : (s+1)*dirs]
			d := int((uint32(id)*2654435761 ^ uint32(step)*40503 ^ uint32(s)*97) % dirs)
			for row[d] == 0 {
				d = (d + 1) % dirs
			}
			act = append(act, byte(d))
		}
	}
	return act
}

// playAsync steps two async sessions, each with the actions of its own
// last answer per env, and compares what each env got, env by env.
func playAsync(t *testing.T, g *stream, lc *localClient, spec *jgymv1.GameSpec, l int, a, b *jgymv1.StepResult) {
	type row struct{ obs, reward []byte }
	rowsOf := func(r *jgymv1.StepResult, into map[int32][]row) {
		for k, id := range r.GetEnvIds() {
			var obs []byte
			for _, ts := range spec.GetObservation() {
				d := r.GetObservation()[ts.GetName()].GetData()
				per := len(d) / len(r.GetEnvIds())
				obs = append(obs, d[k*per:(k+1)*per]...)
			}
			rw := r.GetReward().GetData()
			into[id] = append(into[id], row{obs, rw[k*4*l : (k+1)*4*l]})
		}
	}
	ga, la := map[int32][]row{}, map[int32][]row{}
	rowsOf(a, ga)
	rowsOf(b, la)
	for step := 0; step < 12; step++ {
		a = g.must(stepReq(a.GetEnvIds(), policy(a, l), len(a.GetEnvIds()), l))
		b = lc.must(2, -1, b.GetEnvIds(), policy(b, l))
		rowsOf(a, ga)
		rowsOf(b, la)
	}
	compared := 0
	for id, gs := range ga {
		ls := la[id]
		for k := 0; k < min(len(gs), len(ls)); k++ {
			if !bytes.Equal(gs[k].obs, ls[k].obs) || !bytes.Equal(gs[k].reward, ls[k].reward) {
				t.Fatalf("env %d, answer %d: the observation or reward differs", id, k)
			}
			compared++
		}
	}
	if compared < 30 {
		t.Fatalf("only %d env answers compared", compared)
	}
}

// TestLocalTwoInFlight: two steps in flight, each in its own slot (the
// second sent before the first's answer is read), give the same games as
// gRPC's steps of every env: games that end (5 rounds), both autoreset
// modes that send observations, two learners.
func TestLocalTwoInFlight(t *testing.T) {
	checkLeaks(t)
	ts := startLocal(t)
	cfg := shortConfig(t)
	for _, c := range []struct {
		name string
		req  *jgymv1.CreateSessionRequest
	}{
		{"next-step", &jgymv1.CreateSessionRequest{NumEnvs: 5}},
		{"same-step-2-learners", &jgymv1.CreateSessionRequest{NumEnvs: 4, Seats: seats("", "Demo", "", "Demo"),
			AutoresetMode: jgymv1.AutoresetMode_AUTORESET_MODE_SAME_STEP}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.Config = cfg
			gr, lr := ts.create(t, c.req), ts.create(t, c.req)
			n, l := int(c.req.NumEnvs), int(gr.GetNumLearners())
			g := ts.open(t, gr.GetSessionId(), l)
			lc := mustAttach(t, lr, n)
			if lc.lay.Slots != 2 || lc.lay.InSlotBytes == 0 || lc.lay.OutSlotBytes == 0 {
				t.Fatalf("layout: %d slots of %d and %d bytes, want 2", lc.lay.Slots, lc.lay.InSlotBytes, lc.lay.OutSlotBytes)
			}
			spec := gr.GetGame()
			a, b := g.must(resetReq(7)), lc.must(1, 7, nil, nil)
			sameResult(t, "reset", spec, a, b)
			masks := map[int32][]byte{}
			m := a.GetObservation()["action_mask"].GetData()
			for k, id := range a.GetEnvIds() {
				per := len(m) / len(a.GetEnvIds())
				masks[id] = m[k*per : (k+1)*per]
			}
			h := n / 2
			first, second := []int32{}, []int32{}
			for i := range n {
				if i < h {
					first = append(first, int32(i))
				} else {
					second = append(second, int32(i))
				}
			}
			for step := 1; step <= 12; step++ {
				act := policyFor(masks, nil, n, l, step)
				a = g.must(stepReq(nil, act, n, l))
				per := len(act) / n
				b = lc.stepPair(first, act[:h*per], second, act[h*per:])
				sameResult(t, fmt.Sprintf("step %d", step), spec, a, b)
				m := a.GetObservation()["action_mask"].GetData()
				for k, id := range a.GetEnvIds() {
					per := len(m) / n
					masks[id] = append([]byte(nil), m[k*per:(k+1)*per]...)
				}
			}
		})
	}
}

// TestLocalBadInput: a wrong secret, an unknown session, garbage and
// oversized hellos and headers get clear errors; a refused request keeps
// the channel; a second channel is refused; the server keeps serving, and
// another session is untouched throughout.
func TestLocalBadInput(t *testing.T) {
	checkLeaks(t)
	ts := startLocal(t)
	other := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
	ocl := mustAttach(t, other, 2)
	first := ocl.must(1, 9, nil, nil)
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
	sock := cr.GetLocalSocket()

	raw := func(b []byte) error {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(15 * time.Second))
		c.Write(b)
		_, _, err = readAnswer(c)
		return err
	}
	wantLocal := func(what string, err error, code codes.Code, mention string) {
		t.Helper()
		var le *localError
		if !errors.As(err, &le) || le.code != int(code) || !strings.Contains(le.msg, mention) {
			t.Fatalf("%s: %v, want code %v mentioning %q", what, err, code, mention)
		}
		t.Logf("%s: %v", what, err)
	}
	wrong := append([]byte(nil), cr.GetLocalSecret()...)
	wrong[0] ^= 1
	wantLocal("wrong secret", raw(helloBytes(cr.GetSessionId(), wrong)), codes.PermissionDenied, "no open session has this id and secret")
	wantLocal("unknown session", raw(helloBytes("s-nope", cr.GetLocalSecret())), codes.PermissionDenied, "no open session")
	wantLocal("short secret", raw(helloBytes(cr.GetSessionId(), cr.GetLocalSecret()[:8])), codes.PermissionDenied, "no open session")
	wantLocal("garbage", raw([]byte("GET / HTTP/1.1\r\n\r\n")), codes.InvalidArgument, "JGYMLOC1")
	wantLocal("oversized id", raw(append([]byte("JGYMLOC1\xff"), bytes.Repeat([]byte{'a'}, 255)...)), codes.InvalidArgument, "at most 64")
	wantLocal("oversized secret", raw(append([]byte("JGYMLOC1\x01a\xff"), bytes.Repeat([]byte{'a'}, 255)...)), codes.InvalidArgument, "at most 32")
	// A hello that stops halfway is dropped after the hello timeout; one
	// that hangs up at once costs nothing.
	if c, err := net.Dial("unix", sock); err == nil {
		c.Write([]byte("JGYM"))
		c.Close()
	}

	lc := mustAttach(t, cr, 2)
	if _, err := attachLocal(t, cr, 2); err == nil {
		t.Fatal("a second local channel was attached")
	} else {
		wantLocal("second channel", err, codes.FailedPrecondition, "already has a local channel")
	}
	if _, err := lc.do(2, -1, nil, make([]byte, 2*slots)); err == nil {
		t.Fatal("a step before any reset was answered")
	}
	r := lc.must(1, 4, nil, nil)
	bad := policy(r, 1)
	bad[7] = 11 // out of range
	_, err := lc.do(2, -1, nil, bad)
	wantLocal("bad action", err, codes.InvalidArgument, "")
	_, err = lc.do(2, -1, []int32{1, 1}, make([]byte, 2*slots))
	wantLocal("env listed twice", err, codes.InvalidArgument, "")
	_, err = lc.do(2, -1, []int32{5}, make([]byte, slots))
	wantLocal("env out of range", err, codes.InvalidArgument, "")
	_, err = lc.do(3, -1, nil, nil)
	wantLocal("recv without send", err, codes.FailedPrecondition, "")
	lc.must(2, -1, nil, policy(r, 1)) // the channel still works

	// Headers that break the protocol end the channel, not the session.
	for _, h := range []struct {
		what    string
		op, fl  byte
		slot    byte
		count   int
		mention string
	}{
		{"unknown op", 9, 0, 0, 0, "op 9"},
		{"unknown flag", 2, 0x80, 0, 0, "unknown flags"},
		{"seed on a step", 2, 1, 0, 0, "only a reset has a seed"},
		{"more ids than envs", 2, 0, 0, 1 << 30, "env ids"},
		{"no such slot", 2, 0, 2, 0, "slot 2"},
	} {
		cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
		lc := mustAttach(t, cr, 2)
		lc.headerAt(h.slot, h.op, h.fl, h.count, 0)
		_, _, err := readAnswer(lc.c)
		wantLocal(h.what, err, codes.InvalidArgument, h.mention)
		if _, err := lc.c.Read(make([]byte, 1)); err != io.EOF {
			t.Fatalf("%s: the channel is still open (%v)", h.what, err)
		}
		lc.close()
		// The session stays: it attaches again once the server let go.
		var again *localClient
		eventually(t, "the session to attach again", func() bool {
			again, err = attachLocal(t, cr, 2)
			return err == nil
		})
		again.must(1, 1, nil, nil)
	}
	// The other session saw none of it.
	again := ocl.must(1, 9, nil, nil)
	again.Info.Episode = first.Info.Episode // the second game of each env
	sameResult(t, "other session", other.GetGame(), first, again)
}

// TestLocalClientVanishes: a client that hangs up without a bye takes its
// session with it and leaves the memory budget as it was; a bye leaves
// the session open for gRPC; closing the session over gRPC ends the
// channel.
func TestLocalClientVanishes(t *testing.T) {
	checkLeaks(t)
	ts := startLocal(t)
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 3})
	lc := mustAttach(t, cr, 3)
	lc.must(1, 1, nil, nil)
	lc.close() // no bye: vanished
	eventually(t, "the session to close", func() bool {
		_, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.GetSessionId()})
		return statusCode(err) == codes.NotFound
	})

	// A bye: the session stays, and gRPC plays on from where it was.
	cr = ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 3})
	lc = mustAttach(t, cr, 3)
	want := lc.must(1, 2, nil, nil)
	lc.header(4, 0, 0, 0)
	if _, err := lc.c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("after a bye: %v, want the server to hang up", err)
	}
	g := ts.open(t, cr.GetSessionId(), 1)
	got := g.must(&jgymv1.StreamRequest{Kind: &jgymv1.StreamRequest_Step{Step: &jgymv1.StepRequest{
		Actions: &jgymv1.Tensor{Dtype: jgymv1.Dtype_DTYPE_INT8, Shape: []int64{3, 1, slots}, Data: policy(want, 1)}}}})
	if len(got.GetEnvIds()) != 3 {
		t.Fatalf("gRPC step after a bye: %v", got.GetEnvIds())
	}

	// Closing the session over gRPC ends its channel.
	cr = ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
	lc = mustAttach(t, cr, 2)
	lc.must(1, 3, nil, nil)
	if _, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.GetSessionId()}); err != nil {
		t.Fatal(err)
	}
	lc.c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := lc.c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("after CloseSession: %v, want the server to hang up", err)
	}
}

// TestLocalRegionSealed: the client cannot shrink or grow the regions
// under the server's mappings, nor map the output region for writing.
func TestLocalRegionSealed(t *testing.T) {
	checkLeaks(t)
	ts := startLocal(t)
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
	lc := mustAttach(t, cr, 2)
	for i, fd := range lc.fds {
		if err := syscall.Ftruncate(fd, 0); err == nil {
			t.Fatalf("region %d was shrunk", i)
		}
		if err := syscall.Ftruncate(fd, 1<<30); err == nil {
			t.Fatalf("region %d was grown", i)
		}
	}
	if m, err := syscall.Mmap(lc.fds[1], 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED); err == nil {
		syscall.Munmap(m)
		t.Fatal("the output region was mapped for writing")
	}
	lc.must(1, 1, nil, nil) // and the channel works
}

// TestLocalMemoryBudget: the regions count against the memory budget,
// and are given back when the channel ends.
func TestLocalMemoryBudget(t *testing.T) {
	checkLeaks(t)
	limits := server.DefaultClientLimits()
	limits.Sessions = 64
	ts := startLocal(t, server.WithMemoryBudget(80<<20), server.WithClientLimits(limits))
	big := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 64})
	ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 64})
	// Fill the budget with one-env sessions: less is then free than one
	// of them takes, far less than the big session's regions.
	var small []string
	for {
		resp, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 1,
			Seats: seats("", "Demo", "Demo", "Demo")})
		if err != nil {
			wantCode(t, "filling the budget", err, codes.ResourceExhausted)
			break
		}
		small = append(small, resp.GetSessionId())
	}
	if len(small) < 5 {
		t.Fatalf("only %d one-env sessions fit beside the big ones", len(small))
	}
	_, err := attachLocal(t, big, 64)
	var le *localError
	if !errors.As(err, &le) || le.code != int(codes.ResourceExhausted) || !strings.Contains(le.msg, "memory budget") {
		t.Fatalf("attach over the budget: %v", err)
	}
	t.Logf("over the budget: %v", err)
	for _, id := range small[:4] {
		if _, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: id}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 { // attached and detached again: the booking is given back
		var lc *localClient
		eventually(t, "the big session to attach", func() bool {
			lc, err = attachLocal(t, big, 64)
			return err == nil
		})
		lc.must(1, 1, nil, nil)
		if i == 0 {
			// While attached, the memory of the regions is taken.
			_, err := ts.client.CreateSession(context.Background(), &jgymv1.CreateSessionRequest{Game: game, NumEnvs: 4,
				Seats: seats("", "Demo", "Demo", "Demo")})
			wantCode(t, "a session while the regions are booked", err, codes.ResourceExhausted)
		}
		lc.header(4, 0, 0, 0)
		lc.c.Read(make([]byte, 1))
		lc.close()
	}
}

// TestLocalAbstractName: a socket name starting with '@' lives in Linux's
// abstract namespace, with no file to leave behind.
func TestLocalAbstractName(t *testing.T) {
	checkLeaks(t)
	name := fmt.Sprintf("@jgym-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	ts := start(t, "tcp", server.WithLocalSocket(name))
	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
	if cr.GetLocalSocket() != name {
		t.Fatalf("local_socket %q, want %q", cr.GetLocalSocket(), name)
	}
	lc := mustAttach(t, cr, 2)
	if r := lc.must(1, 1, nil, nil); len(r.GetEnvIds()) != 2 {
		t.Fatalf("reset answered %v", r.GetEnvIds())
	}
}

// TestLocalHeaderInPieces: a request header that arrives in pieces (the
// server reads headers with raw non-blocking reads, waiting in the poller
// between them) is answered as when it arrives whole; a client that hangs
// up halfway through a header vanished.
func TestLocalHeaderInPieces(t *testing.T) {
	checkLeaks(t)
	ts := startLocal(t)
	whole := mustAttach(t, ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2}), 2)
	defer whole.close()
	want := whole.must(1, 5, nil, nil)
	wantStep := whole.must(2, -1, nil, policy(want, 1))

	cr := ts.create(t, &jgymv1.CreateSessionRequest{NumEnvs: 2})
	lc := mustAttach(t, cr, 2)
	send := func(op, flags byte, seed int64) (b, f int) {
		t.Helper()
		var h [16]byte
		h[0], h[1] = op, flags
		binary.LittleEndian.PutUint64(h[8:], uint64(seed))
		for _, cut := range [][2]int{{0, 1}, {1, 7}, {7, 15}, {15, 16}} {
			if _, err := lc.c.Write(h[cut[0]:cut[1]]); err != nil {
				t.Fatal(err)
			}
			time.Sleep(5 * time.Millisecond) // the server waits for the rest
		}
		lc.c.SetDeadline(time.Now().Add(15 * time.Second))
		b, f, err := readAnswer(lc.c)
		if err != nil {
			t.Fatalf("op %d in pieces: %v", op, err)
		}
		return b, f
	}
	got := lc.result(send(1, 1, 5))
	sameResult(t, "reset in pieces", cr.GetGame(), want, got)
	lc.put(0, nil, policy(got, 1))
	gotStep := lc.result(send(2, 0, 0))
	sameResult(t, "step in pieces", cr.GetGame(), wantStep, gotStep)

	lc.c.Write([]byte{2, 0, 0}) // a third of a header, then gone
	lc.close()
	eventually(t, "the session to close", func() bool {
		_, err := ts.client.CloseSession(context.Background(), &jgymv1.CloseSessionRequest{SessionId: cr.GetSessionId()})
		return statusCode(err) == codes.NotFound
	})
}
