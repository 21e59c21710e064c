package vec

import (
	"encoding/binary"
	"math"
)

// Batch is the result of a Reset, Step or Recv for B envs: every tensor
// as raw little-endian bytes, batch-major ([B, ...]), ready to be sent.
// A Batch and its buffers belong to the pool and are valid until the next
// call on the pool.
type Batch struct {
	// EnvIDs lists the envs, in the order of the batch dimension.
	EnvIDs []int32
	// Obs has one buffer per Spec().Observation tensor, [B, L, ...].
	Obs [][]byte
	// Reward is float32 [B, L].
	Reward []byte
	// UnitReward is float32 [B, L, U]: each learner's per-unit credit of
	// the step (a setup with UnitRewards), empty otherwise.
	UnitReward []byte
	// Terminated is bool [B]: the game ended with this step.
	Terminated []byte
	// Truncated is bool [B]: always false, games are never cut short.
	Truncated []byte
	// Scores is int32 [B, NumSeats], in seat order.
	Scores []byte
	// Rank is int32 [B, L]: 1 + the number of seats with a higher score.
	Rank []byte
	// Seats is int32 [B, L]: the seat of each learner.
	Seats []byte
	// Round is int32 [B]: the round after the step.
	Round []byte
	// Episode is int32 [B]: the env's game counter (0 for the first game).
	Episode []byte
	// FinalIndex lists the positions in the batch (0..B-1) of the envs
	// whose game ended in this step with autoreset SameStep; FinalObs and
	// FinalScores hold their final observation and scores, [F, L, ...] and
	// int32 [F, NumSeats].
	FinalIndex  []int32
	FinalObs    [][]byte
	FinalScores []byte

	obsBuf   [][]byte
	finalBuf [][]byte
}

// alloc sizes the batch buffers for a batch of every env of p.
func (b *Batch) alloc(p *Pool) {
	n, l, s := p.n, p.l, p.spec.NumSeats
	b.EnvIDs = make([]int32, 0, n)
	b.obsBuf = make([][]byte, len(p.obs))
	b.Obs = make([][]byte, len(p.obs))
	for t := range p.obs {
		b.obsBuf[t] = make([]byte, n*p.tensorLen[t])
	}
	b.Reward = make([]byte, 0, 4*n*l)
	b.UnitReward = make([]byte, 0, 4*len(p.unit))
	b.Terminated = make([]byte, 0, n)
	b.Truncated = make([]byte, 0, n)
	b.Scores = make([]byte, 0, 4*n*s)
	b.Rank = make([]byte, 0, 4*n*l)
	b.Seats = make([]byte, 0, 4*n*l)
	b.Round = make([]byte, 0, 4*n)
	b.Episode = make([]byte, 0, 4*n)
	b.FinalIndex = make([]int32, 0, n)
	if p.final != nil {
		b.finalBuf = make([][]byte, len(p.final))
		b.FinalObs = make([][]byte, len(p.final))
		for t := range p.final {
			b.finalBuf[t] = make([]byte, n*p.tensorLen[t])
		}
		b.FinalScores = make([]byte, 0, 4*n*s)
	}
}

// gather fills the batch with the outputs of envs ids. When ids are all
// envs in order, or with ObsInPlace, the observation buffers are the
// pool's own (no copy).
func (b *Batch) gather(p *Pool, ids []int32) *Batch {
	l, s := p.l, p.spec.NumSeats
	b.EnvIDs = append(b.EnvIDs[:0], ids...)
	identity := len(ids) == p.n
	for k, i := range ids {
		if int(i) != k {
			identity = false
			break
		}
	}
	for t := range p.obs {
		if identity || p.obsInPlace {
			b.Obs[t] = p.obs[t]
			continue
		}
		sz := p.tensorLen[t]
		dst := b.obsBuf[t][:len(ids)*sz]
		for k, i := range ids {
			copy(dst[k*sz:(k+1)*sz], p.obs[t][int(i)*sz:(int(i)+1)*sz])
		}
		b.Obs[t] = dst
	}
	b.Reward, b.Terminated, b.Truncated = b.Reward[:0], b.Terminated[:0], b.Truncated[:0]
	b.UnitReward = b.UnitReward[:0]
	b.Scores, b.Rank, b.Seats = b.Scores[:0], b.Rank[:0], b.Seats[:0]
	b.Round, b.Episode, b.FinalIndex = b.Round[:0], b.Episode[:0], b.FinalIndex[:0]
	for _, i := range ids {
		e := &p.envs[i]
		for _, r := range p.reward[int(i)*l : (int(i)+1)*l] {
			b.Reward = binary.LittleEndian.AppendUint32(b.Reward, math.Float32bits(r))
		}
		if p.unit != nil {
			for _, r := range p.unitRow(int(i)) {
				b.UnitReward = binary.LittleEndian.AppendUint32(b.UnitReward, math.Float32bits(r))
			}
		}
		b.Terminated = append(b.Terminated, b2u(e.term))
		b.Truncated = append(b.Truncated, 0)
		b.Scores = appendInt32s(b.Scores, p.scores[int(i)*s:(int(i)+1)*s])
		b.Rank = appendInt32s(b.Rank, p.rank[int(i)*l:(int(i)+1)*l])
		b.Seats = appendInt32s(b.Seats, p.seats[int(i)*l:(int(i)+1)*l])
		b.Round = binary.LittleEndian.AppendUint32(b.Round, uint32(p.round[i]))
		b.Episode = binary.LittleEndian.AppendUint32(b.Episode, uint32(e.episode))
	}
	if p.final != nil {
		b.FinalScores = b.FinalScores[:0]
		for k, i := range ids {
			if p.envs[i].final {
				b.FinalIndex = append(b.FinalIndex, int32(k))
			}
		}
		for t := range p.final {
			sz := p.tensorLen[t]
			dst := b.finalBuf[t][:len(b.FinalIndex)*sz]
			for f, k := range b.FinalIndex {
				i := int(ids[k])
				copy(dst[f*sz:(f+1)*sz], p.final[t][i*sz:(i+1)*sz])
			}
			b.FinalObs[t] = dst
		}
		for _, k := range b.FinalIndex {
			i := int(ids[k])
			b.FinalScores = appendInt32s(b.FinalScores, p.fscores[i*s:(i+1)*s])
			p.envs[i].final = false
		}
	}
	return b
}

func appendInt32s(dst []byte, v []int32) []byte {
	for _, x := range v {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(x))
	}
	return dst
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// Float32s decodes little-endian float32 bytes, e.g. Batch.Reward.
func Float32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// Int32s decodes little-endian int32 bytes, e.g. Batch.Scores.
func Int32s(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}
