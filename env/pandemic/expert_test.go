package pandemic

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/dataset"
	"jgym/env"
)

// pasteurRecorder plays Pasteur and keeps the commands it gave each round.
type pasteurRecorder struct {
	bot    Bot
	rounds [][]Command
}

func (r *pasteurRecorder) Play(s *State, o *Orders) {
	n := len(o.List())
	r.bot.Play(s, o)
	r.rounds = append(r.rounds, slices.Clone(o.List()[n:]))
}

// playPasteurs plays a game of four Pasteurs and returns the commands each
// seat gave in every round, and the final scores.
func playPasteurs(t *testing.T, cfg Config, seed int) ([NumPlayers][][]Command, [NumPlayers]int) {
	t.Helper()
	var recs [NumPlayers]*pasteurRecorder
	var bots [NumPlayers]Bot
	for p := range recs {
		recs[p] = &pasteurRecorder{bot: NewPasteur(p, seed)}
		bots[p] = recs[p]
	}
	m, err := Def.NewMatch(cfg, seed, [NumPlayers]string{"Pasteur", "Pasteur", "Pasteur", "Pasteur"}, bots)
	if err != nil {
		t.Fatal(err)
	}
	for !m.Done() {
		if err := m.PlayRound(); err != nil {
			t.Fatal(err)
		}
	}
	var out [NumPlayers][][]Command
	for p, r := range recs {
		out[p] = r.rounds
	}
	return out, m.Scores()
}

// TestExpertIsPasteur plays games of four Pasteurs, then the same games in
// an env of four learners that asks for the expert tensor alone and plays
// the commands the Pasteurs gave: in every round, each learner's expert
// tensor must be the one-hot of the command its seat's Pasteur gave each of
// its units (None for the units it gave none, zero rows for the slots it
// does not own), and the replayed games must end with the Pasteurs' scores.
func TestExpertIsPasteur(t *testing.T) {
	small := DefaultConfig()
	small.Rows, small.Cols, small.NbUnits, small.NbRounds = 30, 30, 5, 60
	cases := []struct {
		cfg   Config
		seeds []int
	}{{DefaultConfig(), []int{1, 2}}, {small, []int{3, 4, 5}}}
	if testing.Short() {
		cases[0].seeds = cases[0].seeds[:1]
	}
	for _, c := range cases {
		f, err := Def.Host().NewFactory(env.Setup{Seats: []string{"", "", "", ""}, Config: c.cfg.String(),
			Tensors: []string{ExpertTensor}})
		if err != nil {
			t.Fatal(err)
		}
		spec := f.Spec()
		k := slices.IndexFunc(spec.Observation, func(ts env.TensorSpec) bool { return ts.Name == ExpertTensor })
		if k < 0 {
			t.Fatalf("spec of Tensors [expert] has %v, no expert", spec.TensorNames())
		}
		// One instance plays every seed: its encoder meets a new map.
		in, err := f.NewInstance()
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range c.seeds {
			t.Run(fmt.Sprintf("%dx%d/seed%d", c.cfg.Rows, c.cfg.Cols, seed), func(t *testing.T) {
				orders, scores := playPasteurs(t, c.cfg, seed)
				if err := in.Reset(int64(seed)); err != nil {
					t.Fatal(err)
				}
				u := spec.Action.Shape[0]
				out := env.NewOut(spec, NumPlayers)
				action := make([]byte, NumPlayers*u)
				reward := make([]float32, NumPlayers)
				moves := 0
				for round := 0; ; round++ {
					in.Observe(out)
					s := Def.MatchOf(in).State()
					for l := range NumPlayers {
						p := int(out.Seats[l])
						want := make([]byte, u*NumDirs)
						act := action[l*u : (l+1)*u]
						for id := range u {
							act[id] = byte(None)
							if s.Units[id].Player == p {
								want[id*NumDirs+int(None)] = 1
							}
						}
						for _, cmd := range orders[p][round] {
							row := want[cmd.ID*NumDirs : (cmd.ID+1)*NumDirs]
							clear(row)
							row[cmd.Dir] = 1
							act[cmd.ID] = byte(cmd.Dir)
							moves++
						}
						got := out.Obs[k][l*u*NumDirs : (l+1)*u*NumDirs]
						for id := range u {
							if g, w := got[id*NumDirs:(id+1)*NumDirs], want[id*NumDirs:(id+1)*NumDirs]; !slices.Equal(g, w) {
								t.Fatalf("round %d seat %d unit %d: expert %v, Pasteur's order %v (commands %v)",
									round, p, id, g, w, orders[p][round])
							}
						}
					}
					done, err := in.Step(action, nil, reward)
					if err != nil {
						t.Fatal(err)
					}
					if done {
						break
					}
				}
				in.Observe(out)
				for l := range NumPlayers {
					if p := out.Seats[l]; int(out.Scores[p]) != scores[p] {
						t.Fatalf("replayed game: scores %v, the Pasteurs' %v", out.Scores, scores)
					}
				}
				t.Logf("%d rounds, %d commands, scores %v", Def.MatchOf(in).Round(), moves, scores)
				if moves == 0 {
					t.Fatal("the Pasteurs gave no command")
				}
			})
		}
	}
}

// TestExpertOptIn checks that the expert tensor is opt-in: not in the
// default observation or signature, offered by name.
func TestExpertOptIn(t *testing.T) {
	spec := Def.Host().Spec()
	if slices.Contains(spec.TensorNames(), ExpertTensor) {
		t.Errorf("default observation %v holds %s", spec.TensorNames(), ExpertTensor)
	}
	if len(spec.OptIn) != 1 || spec.OptIn[0].Name != ExpertTensor {
		t.Errorf("spec's opt-in tensors %v, want [%s]", spec.OptIn, ExpertTensor)
	}
	f, err := Def.Host().NewFactory(env.Setup{Seats: []string{"", "Null", "Null", "Null"}})
	if err != nil {
		t.Fatal(err)
	}
	if sp := f.Spec(); !slices.Equal(sp.TensorNames(), []string{"board", "units", "globals", "action_mask", "targets"}) {
		got := sp.TensorNames()
		t.Errorf("default session tensors %v", got)
	}
	f, err = Def.Host().NewFactory(env.Setup{Seats: []string{"", "Null", "Null", "Null"},
		Tensors: []string{ExpertTensor, "units", "targets", "board", "globals"}})
	if err != nil {
		t.Fatal(err)
	}
	if sp := f.Spec(); !slices.Equal(sp.TensorNames(), []string{"board", "units", "globals", "action_mask", "targets", ExpertTensor}) {
		got := sp.TensorNames()
		t.Errorf("session tensors with expert %v", got)
	}
	sig := Def.PolicySignature()
	if len(sig.OptIn) != 1 || sig.OptIn[0].Name != ExpertTensor || len(sig.Inputs) != 5 {
		t.Errorf("signature inputs %v, opt-in %v", sig.Inputs, sig.OptIn)
	}
}

// A dataset of a reference game's states (jgym dataset --tensors expert
// --expert Pasteur) holds, for every round and seat, the expert tensor
// the labels' Pasteur gives: the labels come from a Pasteur bot playing
// each seat's place (dataset.Expert), the tensor from the encoder.
func TestDatasetExpertTensor(t *testing.T) {
	trace := coursetest.ReadGz(t, filepath.Join(tracesRoot(), "pandemic_s10_Demo-Null-Demo-Null.res.gz"))
	rep, err := Def.Dataset().Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.(dataset.Expert).UseExpert("Pasteur"); err != nil {
		t.Fatal(err)
	}
	if err := dataset.SelectTensors(rep, []string{"units", ExpertTensor}); err != nil {
		t.Fatal(err)
	}
	spec := rep.Spec()
	if got := spec.TensorNames(); !slices.Equal(got, []string{"units", "action_mask", ExpertTensor}) {
		t.Fatalf("dataset tensors %v", got)
	}
	obs := make([][]byte, len(spec.Observation))
	for k, ts := range spec.Observation {
		obs[k] = make([]byte, ts.Bytes())
	}
	u := spec.Action.Shape[0]
	action := make([]byte, u)
	moves := 0
	for rep.Next() {
		for seat := range NumPlayers {
			rep.Observe(seat, obs)
			rep.Label(seat, action)
			for id := range u {
				row := obs[2][id*NumDirs : (id+1)*NumDirs]
				if obs[0][id*UnitFeatures+UnitMine] == 0 {
					if slices.Contains(row, 1) {
						t.Fatalf("round %d seat %d: slot %d not mine has expert %v", rep.Round(), seat, id, row)
					}
					continue
				}
				want := make([]byte, NumDirs)
				want[action[id]] = 1
				if !slices.Equal(row, want) {
					t.Fatalf("round %d seat %d unit %d: expert %v, Pasteur's label %d", rep.Round(), seat, id, row, action[id])
				}
				if Dir(action[id]) != None {
					moves++
				}
			}
		}
	}
	if err := rep.Err(); err != nil {
		t.Fatal(err)
	}
	if moves == 0 {
		t.Fatal("no move labelled")
	}
	t.Logf("%d rounds, %d moves labelled", rep.Round()+1, moves)
}
