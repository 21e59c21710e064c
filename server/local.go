package server

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"jgym/env"
	"jgym/vec"
)

// The local channel: a client on the server's host attaches a session,
// created over gRPC as any other, to a Unix socket the operator enables
// (jgym serve --local-socket PATH), and receives every batch in shared
// memory that numpy maps, with 16 bytes of control each way per batch.
// docs/local.md is the user's page; the wire, all integers little-endian:
//
// The client connects and sends a hello: "JGYMLOC1", one byte n and the
// n bytes of the session id, one byte m and the m bytes of the session's
// secret (CreateSessionResponse.local_secret). The secret is compared in
// constant time; it is the only proof of ownership the channel asks for
// (the gRPC call that created the session was authenticated). The server
// answers with a 16-byte header (status 0, the length of what follows)
// and a JSON layout (localLayout), passing two descriptors with
// SCM_RIGHTS: the input region, which the client writes (env ids, actions,
// action orders) and the server copies before use, and the output region,
// sealed so that the client can map it for reading only. Both are memfds
// with sealed sizes: nothing is on disk, and they vanish with the last
// process that maps them.
//
// Each request is a 16-byte header: op (1 reset, 2 step, 3 recv, 4 bye),
// flags (1: the seed is given, 2: the step has action orders), the slot
// (0 or 1), a zero byte, the number of env ids (uint32; 0: every env, in
// order; else the ids are the first entries of the slot's env_ids), the
// seed (int64).
//
// Two requests may be in flight: each has a slot of its own, in the input
// (env ids, actions, orders) and in the output (env ids, rewards, flags,
// information of its batch), at In[name] + slot*InSlotBytes and Out[name]
// + slot*OutSlotBytes. The server answers requests one at a time, in
// order, so that it steps the second while the client reads the first;
// a slot is the client's again once its answer has come. Observations
// have no slots: they are by env id, so two requests in flight must not
// share an env for the first's rows to be read intact.
// Each answer is a 16-byte header: status (0, or the gRPC code of the
// error), three zero bytes, B (uint32: the envs of the batch, or the
// length of the error message that follows), F (uint32: the envs with a
// final observation), four zero bytes. The batch is then in the output
// region: env ids, rewards, flags and information in batch order ([B,
// ...]), observations where the pool writes them, by env id ([n, L, ...]:
// env_ids[k]'s rows for the k-th env of the batch).
//
// An observation row of env i is written only while env i is reset or
// stepped: a batch's rows stay as they were until its envs are sent again.
// A request the session refuses (a bad action, an env id out of range) is
// answered with its error and the channel stays open; a header that breaks
// the protocol is answered with its error and the channel is closed (the
// session stays, to attach again or to use over gRPC). A client that hangs
// up without a bye vanished: its session is closed, as when a stream's
// client vanishes. The session's regions count against the server's
// memory budget while the channel is attached.

// Constants of the local channel's wire.
const (
	localMagic       = "JGYMLOC1"
	localHeaderBytes = 16
	localSecretBytes = 32
	localAlign       = 64
	// localSlots is the number of requests that may be in flight.
	localSlots = 2
)

// Ops and flags of a local request.
const (
	localOpReset = 1
	localOpStep  = 2
	localOpRecv  = 3
	localOpBye   = 4

	localFlagSeed  = 1
	localFlagOrder = 2
)

// localLayout is where each array is in the regions, in bytes from the
// region's start. It is sent to the client as JSON.
type localLayout struct {
	// Version is the layout's version (2: request slots).
	Version int `json:"version"`
	// InBytes and OutBytes are the regions' sizes.
	InBytes  int `json:"in_bytes"`
	OutBytes int `json:"out_bytes"`
	// Slots is the number of request slots; slot k's arrays are at In
	// and Out's offsets plus k times InSlotBytes and OutSlotBytes.
	Slots        int `json:"slots"`
	InSlotBytes  int `json:"in_slot_bytes"`
	OutSlotBytes int `json:"out_slot_bytes"`
	// In: env_ids int32 [n], actions [n, L, U] of the action's dtype,
	// action_order [n, L, U] of the order's dtype.
	In map[string]int `json:"in"`
	// Out: env_ids int32 [B], reward float32 [B, L], unit_rewards float32
	// [B, L, U] (sessions with unit_rewards), terminated and truncated
	// bool [B], scores int32 [B, S], rank and learner_seats int32 [B, L],
	// round and episode int32 [B], final_index int32 [F], final_scores
	// int32 [F, S].
	Out map[string]int `json:"out"`
	// Observation: each tensor [n, L, ...] by env id; FinalObservation
	// (autoreset SameStep): each tensor [n, L, ...], env i's last final
	// observation.
	Observation      map[string]int `json:"observation"`
	FinalObservation map[string]int `json:"final_observation,omitempty"`
}

// layoutOf lays out the regions of a session of n envs and l learners.
func layoutOf(sp *env.Spec, n, l int, sameStep bool) localLayout {
	lay := localLayout{Version: 2, Slots: localSlots, In: map[string]int{}, Out: map[string]int{}, Observation: map[string]int{}}
	at := 0
	put := func(m map[string]int, name string, bytes int) {
		m[name] = at
		at += (bytes + localAlign - 1) / localAlign * localAlign
	}
	put(lay.In, "env_ids", 4*n)
	put(lay.In, "actions", n*l*sp.Action.Bytes())
	put(lay.In, "action_order", n*l*sp.ActionOrder.Bytes())
	lay.InSlotBytes = at
	lay.InBytes, at = localSlots*at, 0
	for _, t := range sp.Observation {
		put(lay.Observation, t.Name, n*l*t.Bytes())
	}
	if sameStep {
		lay.FinalObservation = map[string]int{}
		for _, t := range sp.Observation {
			put(lay.FinalObservation, t.Name, n*l*t.Bytes())
		}
	}
	s := sp.NumSeats
	small := at
	put(lay.Out, "env_ids", 4*n)
	put(lay.Out, "reward", 4*n*l)
	if u := sp.UnitReward.NumElems(); u > 0 {
		put(lay.Out, "unit_rewards", 4*n*l*u)
	}
	put(lay.Out, "terminated", n)
	put(lay.Out, "truncated", n)
	put(lay.Out, "scores", 4*n*s)
	put(lay.Out, "rank", 4*n*l)
	put(lay.Out, "learner_seats", 4*n*l)
	put(lay.Out, "round", 4*n)
	put(lay.Out, "episode", 4*n)
	put(lay.Out, "final_index", 4*n)
	put(lay.Out, "final_scores", 4*n*s)
	lay.OutSlotBytes = at - small
	lay.OutBytes = at + (localSlots-1)*lay.OutSlotBytes
	return lay
}

// region is a session's shared memory: the layout, the two memfds, and
// the views the pool writes its observations into.
type region struct {
	layout    localLayout
	json      []byte
	in, out   *memfd
	obs       [][]byte
	final     [][]byte
	ids       []int32 // the server's copy of the request's env ids
	act, ord  []byte  // the server's copies of the actions and orders
	actB      int     // bytes of one env's actions
	ordB      int     // bytes of one env's orders
	n         int
	regionMem int64
}

// newRegion makes the regions of session ss.
func newRegion(ss *session) (*region, error) {
	sameStep := ss.pool.Autoreset() == vec.SameStep
	lay := layoutOf(&ss.spec, ss.n, ss.l, sameStep)
	js, err := json.Marshal(lay)
	if err != nil {
		return nil, err
	}
	in, err := newMemfd("jgym-in-"+ss.id, lay.InBytes, false)
	if err != nil {
		return nil, err
	}
	out, err := newMemfd("jgym-out-"+ss.id, lay.OutBytes, true)
	if err != nil {
		in.unmap()
		return nil, err
	}
	r := &region{layout: lay, json: js, in: in, out: out, n: ss.n,
		actB: ss.l * ss.spec.Action.Bytes(), ordB: ss.l * ss.spec.ActionOrder.Bytes(),
		regionMem: int64(lay.InBytes + lay.OutBytes)}
	r.ids = make([]int32, 0, ss.n)
	r.act = make([]byte, ss.n*r.actB)
	r.ord = make([]byte, ss.n*r.ordB)
	for _, t := range ss.spec.Observation {
		o := lay.Observation[t.Name]
		r.obs = append(r.obs, out.mem[o:o+ss.n*ss.l*t.Bytes()])
		if sameStep {
			f := lay.FinalObservation[t.Name]
			r.final = append(r.final, out.mem[f:f+ss.n*ss.l*t.Bytes()])
		}
	}
	return r, nil
}

// release unmaps the regions; the pool must no longer write into them.
func (r *region) release() {
	r.in.unmap()
	r.out.unmap()
}

// request copies a request's env ids, actions and orders out of its slot
// of the input region, so that a client writing them meanwhile cannot
// change what the server checked. count 0 is every env (ids nil).
func (r *region) request(slot, count int, step, order bool) (ids []int32, act, ord []byte, err error) {
	if count > r.n {
		return nil, nil, nil, fmt.Errorf("%w: %d env ids, the session has %d envs", errBadRequest, count, r.n)
	}
	b := r.n
	base := slot * r.layout.InSlotBytes
	if count > 0 {
		b = count
		o := base + r.layout.In["env_ids"]
		r.ids = r.ids[:count]
		for k := range r.ids {
			r.ids[k] = int32(binary.LittleEndian.Uint32(r.in.mem[o+4*k:]))
		}
		ids = r.ids
	}
	if step {
		o := base + r.layout.In["actions"]
		act = r.act[:b*r.actB]
		copy(act, r.in.mem[o:o+b*r.actB])
		if order {
			o := base + r.layout.In["action_order"]
			ord = r.ord[:b*r.ordB]
			copy(ord, r.in.mem[o:o+b*r.ordB])
		}
	}
	return ids, act, ord, nil
}

// write copies a batch's env ids, rewards, flags and information into
// the slot's part of the output region (its observations are already
// there) and returns B and F.
func (r *region) write(slot int, b *vec.Batch) (int, int) {
	m, o := r.out.mem[slot*r.layout.OutSlotBytes:], r.layout.Out
	for k, id := range b.EnvIDs {
		binary.LittleEndian.PutUint32(m[o["env_ids"]+4*k:], uint32(id))
	}
	copy(m[o["reward"]:], b.Reward)
	if at, ok := o["unit_rewards"]; ok {
		copy(m[at:], b.UnitReward)
	}
	copy(m[o["terminated"]:], b.Terminated)
	copy(m[o["truncated"]:], b.Truncated)
	copy(m[o["scores"]:], b.Scores)
	copy(m[o["rank"]:], b.Rank)
	copy(m[o["learner_seats"]:], b.Seats)
	copy(m[o["round"]:], b.Round)
	copy(m[o["episode"]:], b.Episode)
	for k, f := range b.FinalIndex {
		binary.LittleEndian.PutUint32(m[o["final_index"]+4*k:], uint32(f))
	}
	copy(m[o["final_scores"]:], b.FinalScores)
	return len(b.EnvIDs), len(b.FinalIndex)
}

// localHeader is a 16-byte request or answer header.
type localHeader [localHeaderBytes]byte

// answerHeader makes the header of an answer.
func answerHeader(status byte, b, f int) localHeader {
	var h localHeader
	h[0] = status
	binary.LittleEndian.PutUint32(h[4:], uint32(b))
	binary.LittleEndian.PutUint32(h[8:], uint32(f))
	return h
}

// localRequest is a parsed request header.
type localRequest struct {
	op, flags byte
	slot      int
	count     int
	seed      int64
}

// parseRequest checks a request header.
func parseRequest(h localHeader) (localRequest, error) {
	r := localRequest{op: h[0], flags: h[1], slot: int(h[2]), count: int(binary.LittleEndian.Uint32(h[4:])), seed: int64(binary.LittleEndian.Uint64(h[8:]))}
	switch {
	case r.op < localOpReset || r.op > localOpBye:
		return r, fmt.Errorf("%w: local request op %d, want 1 (reset), 2 (step), 3 (recv) or 4 (bye)", errBadRequest, r.op)
	case r.slot >= localSlots:
		return r, fmt.Errorf("%w: local request slot %d, want 0..%d", errBadRequest, r.slot, localSlots-1)
	case h[3] != 0 || r.flags&^(localFlagSeed|localFlagOrder) != 0:
		return r, fmt.Errorf("%w: local request header has unknown flags or nonzero reserved bytes", errBadRequest)
	case r.flags&localFlagOrder != 0 && r.op != localOpStep:
		return r, fmt.Errorf("%w: only a step has action orders", errBadRequest)
	case r.flags&localFlagSeed != 0 && r.op != localOpReset:
		return r, fmt.Errorf("%w: only a reset has a seed", errBadRequest)
	}
	return r, nil
}
