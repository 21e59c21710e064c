package server

import (
	"fmt"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
	"jgym/vec"
)

// dtypeToProto maps env dtypes to the wire enum; the numbering is the same.
func dtypeToProto(d env.Dtype) jgymv1.Dtype { return jgymv1.Dtype(d) }

func shape64(dims ...int) []int64 {
	s := make([]int64, len(dims))
	for i, d := range dims {
		s[i] = int64(d)
	}
	return s
}

func tensorSpecToProto(t env.TensorSpec) *jgymv1.TensorSpec {
	ts := &jgymv1.TensorSpec{
		Name:        t.Name,
		Dtype:       dtypeToProto(t.Dtype),
		Shape:       shape64(t.Shape...),
		Low:         t.Low,
		High:        t.High,
		Description: t.Description,
	}
	for _, p := range t.Planes {
		ts.Planes = append(ts.Planes, &jgymv1.PlaneSpec{Name: p.Name, Kind: jgymv1.PlaneKind(p.Kind), Count: int32(p.Count), Scale: p.Scale})
	}
	for _, c := range t.Columns {
		ts.Columns = append(ts.Columns, &jgymv1.ColumnSpec{Name: c.Name, Scale: c.Scale})
	}
	return ts
}

func specToProto(s env.Spec) *jgymv1.GameSpec {
	g := &jgymv1.GameSpec{
		Id:                 s.ID,
		ObservationVersion: s.ObservationVersion,
		NumSeats:           int32(s.NumSeats),
		Action:             tensorSpecToProto(s.Action),
		ActionOrder:        tensorSpecToProto(s.ActionOrder),
		NumActions:         int32(s.NumActions),
		NumRounds:          int32(s.NumRounds),
		DefaultConfig:      s.DefaultConfig,
		UnitRow:            int32(s.UnitRow),
		UnitCol:            int32(s.UnitCol),
		WrapColumns:        s.WrapColumns,
		PolicyMask:         s.PolicyMask,
		Name:               s.Name,
		StrongBot:          s.StrongBot,
		ActionOrders:       s.ActionOrders,
		OpponentOrders:     s.OpponentOrders,
	}
	for _, w := range s.CreditWeights {
		g.CreditWeights = append(g.CreditWeights, &jgymv1.CreditWeight{Name: w.Name, Default: w.Default, Description: w.Description})
	}
	if s.UnitReward.NumElems() > 0 {
		g.UnitReward = tensorSpecToProto(s.UnitReward)
	}
	for _, t := range s.Observation {
		g.Observation = append(g.Observation, tensorSpecToProto(t))
	}
	for _, t := range s.OptIn {
		g.OptIn = append(g.OptIn, tensorSpecToProto(t))
	}
	return g
}

func rewardFromProto(m jgymv1.RewardMode) (env.RewardMode, error) {
	switch m {
	case jgymv1.RewardMode_REWARD_MODE_UNSPECIFIED, jgymv1.RewardMode_REWARD_MODE_SCORE_DELTA:
		return env.ScoreDelta, nil
	case jgymv1.RewardMode_REWARD_MODE_RELATIVE:
		return env.Relative, nil
	case jgymv1.RewardMode_REWARD_MODE_RANK:
		return env.Rank, nil
	}
	return 0, fmt.Errorf("%w: unknown reward_mode %d", errBadRequest, m)
}

func autoresetFromProto(m jgymv1.AutoresetMode) (vec.Autoreset, error) {
	switch m {
	case jgymv1.AutoresetMode_AUTORESET_MODE_UNSPECIFIED, jgymv1.AutoresetMode_AUTORESET_MODE_NEXT_STEP:
		return vec.NextStep, nil
	case jgymv1.AutoresetMode_AUTORESET_MODE_SAME_STEP:
		return vec.SameStep, nil
	case jgymv1.AutoresetMode_AUTORESET_MODE_DISABLED:
		return vec.Disabled, nil
	}
	return 0, fmt.Errorf("%w: unknown autoreset_mode %d", errBadRequest, m)
}

// requestBytes bounds the size of a StreamRequest stepping n envs with l
// learners: actions and action orders, env ids and framing.
func requestBytes(s *env.Spec, n, l int) int64 {
	per := int64(l)*int64(s.Action.Bytes()+s.ActionOrder.Bytes()) + 5
	return int64(n)*per + 4096
}

// responseBytes bounds the size of a StreamResponse of n envs with l
// learners: the observation tensors, rewards, flags, information, and with
// sameStep the final observations and scores.
func responseBytes(s *env.Spec, n, l int, sameStep bool) int64 {
	obs := int64(l) * int64(s.ObservationBytes())
	// A delta-encoded observation can be its raw size plus the bitmaps.
	per := obs + obs/64 + int64(len(s.Observation)) + int64(l)*4 + 2 + int64(s.NumSeats)*4 + int64(l)*8 + 8 + 5 +
		int64(l)*int64(s.UnitReward.Bytes())
	if sameStep {
		per += obs + int64(s.NumSeats)*4 + 5
	}
	return int64(n)*per + 4096
}

// checkTensor checks a request tensor against the expected dtype and
// shape, and that its data length matches them.
func checkTensor(name string, t *jgymv1.Tensor, want env.Dtype, shape []int64) error {
	if t.GetDtype() != dtypeToProto(want) {
		return fmt.Errorf("%w: %s has dtype %v, want %v", errBadRequest, name, t.GetDtype(), dtypeToProto(want))
	}
	got := t.GetShape()
	same := len(got) == len(shape)
	for i := 0; same && i < len(got); i++ {
		same = got[i] == shape[i]
	}
	if !same {
		return fmt.Errorf("%w: %s has shape %v, want %v", errBadRequest, name, got, shape)
	}
	n := int64(want.Size())
	for _, d := range shape {
		n *= d
	}
	if int64(len(t.GetData())) != n {
		return fmt.Errorf("%w: %s has %d data bytes, its shape %v and dtype %v make %d",
			errBadRequest, name, len(t.GetData()), shape, t.GetDtype(), n)
	}
	return nil
}

// result is a reusable StreamResponse for one stream. Its tensors own
// their bytes: fill copies the batch out of the pool's buffers (or encodes
// the observations into its own deltas), so the answer can be sent while
// the pool steps the next request. gRPC encodes a message before SendMsg
// returns, so a result can be filled again once it has been sent.
type result struct {
	spec   *env.Spec
	l      int
	delta  *deltaRefs // observation_delta: the session's references, else nil
	resp   *jgymv1.StreamResponse
	sr     *jgymv1.StepResult // the batch's part of resp
	obs    []*jgymv1.Tensor
	final  []*jgymv1.Tensor
	reward *jgymv1.Tensor
	unit   *jgymv1.Tensor // per-unit credit, nil without
	term   *jgymv1.Tensor
	trunc  *jgymv1.Tensor
	scores *jgymv1.Tensor
	rank   *jgymv1.Tensor
	round  *jgymv1.Tensor
	seats  *jgymv1.Tensor
	ep     *jgymv1.Tensor
	fsc    *jgymv1.Tensor
	ids    []int32
	fidx   []int32
}

func newResult(spec *env.Spec, l int, delta *deltaRefs) *result {
	r := &result{spec: spec, l: l, delta: delta}
	t := func(d env.Dtype) *jgymv1.Tensor { return &jgymv1.Tensor{Dtype: dtypeToProto(d)} }
	sr := &jgymv1.StepResult{Observation: map[string]*jgymv1.Tensor{}, Info: &jgymv1.Info{}}
	for _, ts := range spec.Observation {
		o := t(ts.Dtype)
		r.obs = append(r.obs, o)
		sr.Observation[ts.Name] = o
		r.final = append(r.final, t(ts.Dtype))
	}
	r.reward, r.term, r.trunc = t(env.Float32), t(env.Bool), t(env.Bool)
	r.scores, r.rank, r.round = t(env.Int32), t(env.Int32), t(env.Int32)
	r.seats, r.ep, r.fsc = t(env.Int32), t(env.Int32), t(env.Int32)
	sr.Reward, sr.Terminated, sr.Truncated = r.reward, r.term, r.trunc
	if spec.UnitReward.NumElems() > 0 {
		r.unit = t(env.Float32)
		sr.UnitRewards = r.unit
	}
	sr.Info.Scores, sr.Info.Rank, sr.Info.Round = r.scores, r.rank, r.round
	sr.Info.LearnerSeats, sr.Info.Episode = r.seats, r.ep
	r.resp = &jgymv1.StreamResponse{Result: sr}
	r.sr = sr
	return r
}

// states makes the response the answer to a get_state.
func (r *result) states(states [][]byte) {
	r.resp.Result, r.resp.States = nil, states
}

// set copies data into t's own buffer and sets its shape.
func set(t *jgymv1.Tensor, data []byte, dims ...int64) {
	t.Data = append(t.Data[:0], data...)
	t.Shape = append(t.Shape[:0], dims...)
}

// fill copies batch b into the response, the observations delta-encoded
// against the session's references when the session asked for deltas.
func (r *result) fill(b *vec.Batch) {
	n, l, s := int64(len(b.EnvIDs)), int64(r.l), int64(r.spec.NumSeats)
	sr := r.sr
	r.resp.Result, r.resp.States = sr, nil
	r.ids = append(r.ids[:0], b.EnvIDs...)
	sr.EnvIds = r.ids
	for k, ts := range r.spec.Observation {
		dims := append([]int64{n, l}, shape64(ts.Shape...)...)
		t := r.obs[k]
		if r.delta != nil && r.delta.encodable(k) {
			per := r.delta.per[k]
			if cap(t.Data) < deltaCap(len(b.EnvIDs), per) {
				t.Data = make([]byte, 0, deltaCap(len(b.EnvIDs), per))
			}
			t.Data = encodeDelta(t.Data, b.Obs[k], b.EnvIDs, r.delta.refs[k], per)
			t.Shape = append(t.Shape[:0], dims...)
			t.Encoding = jgymv1.TensorEncoding_TENSOR_ENCODING_WORD_DELTA
			continue
		}
		set(t, b.Obs[k], dims...)
	}
	set(r.reward, b.Reward, n, l)
	if r.unit != nil {
		set(r.unit, b.UnitReward, append([]int64{n, l}, shape64(r.spec.UnitReward.Shape...)...)...)
	}
	set(r.term, b.Terminated, n)
	set(r.trunc, b.Truncated, n)
	set(r.scores, b.Scores, n, s)
	set(r.rank, b.Rank, n, l)
	set(r.round, b.Round, n)
	set(r.seats, b.Seats, n, l)
	set(r.ep, b.Episode, n)
	sr.FinalEnvIndex = nil
	sr.FinalObservation = nil
	sr.FinalScores = nil
	if f := int64(len(b.FinalIndex)); f > 0 {
		r.fidx = append(r.fidx[:0], b.FinalIndex...)
		sr.FinalEnvIndex = r.fidx
		sr.FinalObservation = make(map[string]*jgymv1.Tensor, len(r.final))
		for k, ts := range r.spec.Observation {
			dims := append([]int64{f, l}, shape64(ts.Shape...)...)
			set(r.final[k], b.FinalObs[k], dims...)
			sr.FinalObservation[ts.Name] = r.final[k]
		}
		set(r.fsc, b.FinalScores, f, s)
		sr.FinalScores = r.fsc
	}
}
