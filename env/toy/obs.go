package toy

import (
	"encoding/binary"
	"fmt"
	"math"

	"jgym/env"
	"jgym/policy"
)

// ObservationVersion names the observation layout of specFor.
const ObservationVersion = "toy-obs-1"

// The sizes of the observation.
const (
	BoardPlanes  = 5
	UnitFeatures = 5
	NumGlobals   = 2 + 2*NumPlayers
)

// specFor describes the observation of one seat for cfg: the board
// planes, the units' columns, the globals and the action mask; the other
// players are numbered relative to the seat (rel 0 is the seat, then
// the next seats in order).
func specFor(cfg *Config) (env.Spec, error) {
	if err := cfg.Validate(); err != nil {
		return env.Spec{}, fmt.Errorf("%w: %v", env.ErrBadSetup, err)
	}
	u, big := cfg.NumUnits(), float64(max(cfg.Rows, cfg.Cols))
	return env.Spec{
		ObservationVersion: ObservationVersion,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{BoardPlanes, cfg.Rows, cfg.Cols}, Low: 0, High: 15,
				Description: "planes: wall, paint (0 none, 1+rel), unit (0 none, 1+rel), the moves that stay on the board off walls, opponents next to the cell",
				Planes: []env.Plane{env.Code("wall", 2), env.Code("paint", 1+NumPlayers), env.Code("unit", 1+NumPlayers),
					env.Bits("open moves", 4), env.Scalar("opponents next", 0.25)}},
			{Name: "units", Dtype: env.Uint8, Shape: []int{u, UnitFeatures}, Low: 0, High: big,
				Description: "per unit slot: mine, rel owner, row, col, paint under it (0 none, 1+rel)",
				Columns: []env.Column{{Name: "mine", Scale: 1}, {Name: "rel owner", Scale: 1.0 / 3}, {Name: "row", Scale: 1 / float64(cfg.Rows)},
					{Name: "col", Scale: 1 / float64(cfg.Cols)}, {Name: "paint under", Scale: 0.25}}},
			{Name: "globals", Dtype: env.Float32, Shape: []int{NumGlobals}, Low: 0, High: math.MaxFloat32,
				Description: "rounds played and left (fractions), scores per cell of the board and captures / 10 by rel",
				Columns:     globalColumns},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{u, NumDirs}, Low: 0, High: 1,
				Description: "per unit slot: the seat's units may move where the board has no wall; None always"},
		},
		Action: env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{u}, Low: 0, High: float64(None),
			Description: "a direction per unit slot: 0 up, 1 right, 2 down, 3 left, 4 none; slots not owned are ignored"},
		ActionOrder: env.TensorSpec{Name: "action_order", Dtype: env.Int16, Shape: []int{u}, Low: math.MinInt16, High: math.MaxInt16,
			Description: "optional: commands are issued in increasing value, ties by slot"},
		NumActions:    NumDirs,
		NumRounds:     cfg.NbRounds,
		DefaultConfig: DefaultConfig().Text(),
		UnitRow:       2,
		UnitCol:       3,
		PolicyMask:    "action_mask",
	}, nil
}

var globalColumns = func() []env.Column {
	c := []env.Column{{Name: "round", Scale: 1}, {Name: "rounds left", Scale: 1}}
	for _, what := range []string{"score", "captures"} {
		for r := range NumPlayers {
			c = append(c, env.Column{Name: fmt.Sprintf("%s of rel %d", what, r), Scale: 1})
		}
	}
	return c
}()

// signature is what the toy's policies take and give.
func signature() policy.Signature {
	cfg := DefaultConfig()
	spec, _ := specFor(&cfg)
	sig := policy.SignatureOf(&spec)
	sig.SlotsMultiple = NumPlayers
	return sig
}

// Observer encodes observations (game.Encoder); it keeps no state.
type Observer struct{}

// rel is player p's number seen from seat me.
func rel(p, me int) int { return (p - me + NumPlayers) % NumPlayers }

// Encode writes seat me's observation of s: the tensors of specFor, in
// its order, into obs (nil entries are not computed).
func (Observer) Encode(s *State, me int, obs [][]byte) {
	cfg := s.Cfg
	obs = append(obs[:len(obs):len(obs)], make([][]byte, 4)...) // nil past the end
	if b := obs[0]; b != nil {
		n := len(s.Grid)
		clear(b)
		for i, v := range s.Grid {
			r, c := i/cfg.Cols, i%cfg.Cols
			switch {
			case v == Wall:
				b[i] = 1
			case v >= Paint:
				b[n+i] = byte(1 + rel(int(v-Paint), me))
			}
			if id := s.At(i); id >= 0 {
				b[2*n+i] = byte(1 + rel(s.Units[id].Player, me))
			}
			for d := range 4 {
				rr, cc := r+dRow[d], c+dCol[d]
				if rr < 0 || rr >= cfg.Rows || cc < 0 || cc >= cfg.Cols {
					continue
				}
				j := s.Cell(rr, cc)
				if s.Grid[j] != Wall {
					b[3*n+i] |= 1 << d
				}
				if id := s.At(j); id >= 0 && s.Units[id].Player != me {
					b[4*n+i]++
				}
			}
		}
	}
	if b := obs[1]; b != nil {
		for id, u := range s.Units {
			row := b[id*UnitFeatures : (id+1)*UnitFeatures]
			row[0], row[1], row[2], row[3], row[4] = 0, byte(rel(u.Player, me)), byte(u.Row), byte(u.Col), 0
			if u.Player == me {
				row[0] = 1
			}
			if v := s.Grid[s.Cell(u.Row, u.Col)]; v >= Paint {
				row[4] = byte(1 + rel(int(v-Paint), me))
			}
		}
	}
	if b := obs[2]; b != nil {
		sc := s.Scores()
		v := [NumGlobals]float32{float32(s.Round) / float32(cfg.NbRounds), float32(cfg.NbRounds-s.Round) / float32(cfg.NbRounds)}
		for p := range NumPlayers {
			v[2+rel(p, me)] = float32(sc[p]) / float32(len(s.Grid))
			v[2+NumPlayers+rel(p, me)] = float32(s.Captures[p]) / 10
		}
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
	}
	if b := obs[3]; b != nil {
		clear(b)
		for id, u := range s.Units {
			m := b[id*NumDirs : (id+1)*NumDirs]
			m[None] = 1
			if u.Player != me {
				continue
			}
			for d := Up; d <= Left; d++ {
				if s.Target(id, d) >= 0 {
					m[d] = 1
				}
			}
		}
	}
}
