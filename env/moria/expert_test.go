package moria

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"jgym/course/coursetest"
	"jgym/dataset"
	"jgym/env"
)

// balinRecorder plays Balin and keeps the commands it gave each round.
type balinRecorder struct {
	bot    Bot
	rounds [][]Command
}

func (r *balinRecorder) Play(s *State, o *Orders) {
	n := len(o.List())
	r.bot.Play(s, o)
	r.rounds = append(r.rounds, slices.Clone(o.List()[n:]))
}

// playBalins plays a game of four Balins and returns the commands each
// seat gave in every round, and the final scores.
func playBalins(t *testing.T, cfg Config, seed int) ([NumPlayers][][]Command, [NumPlayers]int) {
	t.Helper()
	var recs [NumPlayers]*balinRecorder
	var bots [NumPlayers]Bot
	for p := range recs {
		recs[p] = &balinRecorder{bot: NewBalin(p, seed)}
		bots[p] = recs[p]
	}
	m, err := Def.NewMatch(cfg, seed, [NumPlayers]string{"Balin", "Balin", "Balin", "Balin"}, bots)
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

// TestExpertIsBalin plays games of four Balins, then the same games in an
// env of four learners that asks for the expert tensor alone and plays
// the commands the Balins gave, in their order (action_order): in every
// round, each learner's expert tensor must be the one-hot of the command
// its seat's Balin gave each of its dwarves and wizards (None for those
// it gave none, zero rows for the other clans' slots), and the replayed
// games must end with the Balins' scores. One env instance plays every
// seed, so that its encoder's Balins meet a new map with their caches.
func TestExpertIsBalin(t *testing.T) {
	cfg := DefaultConfig()
	seeds := []int{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	f, err := Def.Host().NewFactory(env.Setup{Seats: []string{"", "", "", ""}, Config: cfg.String(),
		Tensors: []string{ExpertTensor}})
	if err != nil {
		t.Fatal(err)
	}
	spec := f.Spec()
	k := slices.IndexFunc(spec.Observation, func(ts env.TensorSpec) bool { return ts.Name == ExpertTensor })
	if k < 0 {
		t.Fatalf("spec of Tensors [expert] has %v, no expert", spec.TensorNames())
	}
	in, err := f.NewInstance()
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			orders, scores := playBalins(t, cfg, seed)
			if err := in.Reset(int64(seed)); err != nil {
				t.Fatal(err)
			}
			u := spec.Action.Shape[0]
			out := env.NewOut(spec, NumPlayers)
			action := make([]byte, NumPlayers*u)
			order := make([]byte, 2*NumPlayers*u)
			reward := make([]float32, NumPlayers)
			moves, none := 0, 0
			for round := 0; ; round++ {
				in.Observe(out)
				s := Def.MatchOf(in).State()
				for l := range NumPlayers {
					p := int(out.Seats[l])
					want := make([]byte, u*NumDirs)
					act := action[l*u : (l+1)*u]
					for id := range u {
						act[id] = byte(None)
						binary.LittleEndian.PutUint16(order[2*(l*u+id):], uint16(u+id))
						if s.Units[id].Player == p {
							want[id*NumDirs+int(None)] = 1
						}
					}
					for i, cmd := range orders[p][round] {
						row := want[cmd.ID*NumDirs : (cmd.ID+1)*NumDirs]
						clear(row)
						row[cmd.Dir] = 1
						act[cmd.ID] = byte(cmd.Dir)
						binary.LittleEndian.PutUint16(order[2*(l*u+cmd.ID):], uint16(i))
						moves++
					}
					got := out.Obs[k][l*u*NumDirs : (l+1)*u*NumDirs]
					for id := range u {
						if g, w := got[id*NumDirs:(id+1)*NumDirs], want[id*NumDirs:(id+1)*NumDirs]; !slices.Equal(g, w) {
							t.Fatalf("round %d seat %d unit %d: expert %v, Balin's order %v (commands %v)",
								round, p, id, g, w, orders[p][round])
						}
						if want[id*NumDirs+int(None)] == 1 {
							none++
						}
					}
				}
				done, err := in.Step(action, order, reward)
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
					t.Fatalf("replayed game: scores %v, the Balins' %v", out.Scores, scores)
				}
			}
			t.Logf("%d rounds, %d commands, %d units of the seats left without one, scores %v",
				Def.MatchOf(in).Round(), moves, none, scores)
			if moves == 0 || none == 0 {
				t.Fatal("the Balins gave no command, or commanded every unit: the test proves little")
			}
		})
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
	def := []string{"board", "units", "globals", "action_mask", "targets"}
	f, err := Def.Host().NewFactory(env.Setup{Seats: []string{"", "Null", "Null", "Null"}})
	if err != nil {
		t.Fatal(err)
	}
	if sp := f.Spec(); !slices.Equal(sp.TensorNames(), def) {
		got := sp.TensorNames()
		t.Errorf("default session tensors %v, want %v", got, def)
	}
	f, err = Def.Host().NewFactory(env.Setup{Seats: []string{"", "Null", "Null", "Null"},
		Tensors: []string{ExpertTensor, "units", "targets", "board", "globals"}})
	if err != nil {
		t.Fatal(err)
	}
	if sp, want := f.Spec(), append(slices.Clone(def), ExpertTensor); !slices.Equal(sp.TensorNames(), want) {
		got := sp.TensorNames()
		t.Errorf("session tensors with expert %v, want %v", got, want)
	}
	sig := Def.PolicySignature()
	if len(sig.OptIn) != 1 || sig.OptIn[0].Name != ExpertTensor || len(sig.Inputs) != 5 {
		t.Errorf("signature inputs %v, opt-in %v", sig.Inputs, sig.OptIn)
	}
	if len(sig.Older) != 1 || sig.Older[0].OptIn != nil {
		t.Errorf("moria-obs-1's signature offers %v", sig.Older[0].OptIn)
	}
}

// A dataset of a reference game's states (jgym dataset --tensors expert
// --expert Balin) holds, for every round and seat, the expert tensor the
// labels' Balin gives: the labels come from a Balin playing each seat's
// place (dataset.Expert), the tensor from the encoder.
func TestDatasetExpertTensor(t *testing.T) {
	trace := coursetest.ReadGz(t, "../../testdata/moria/traces/moria_s10_Dummy-Demo-Null-Demo.res.gz")
	rep, err := Def.Dataset().Open(trace, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.(dataset.Expert).UseExpert("Balin"); err != nil {
		t.Fatal(err)
	}
	if err := dataset.SelectTensors(rep, []string{"units", ExpertTensor}); err != nil {
		t.Fatal(err)
	}
	spec := rep.Spec()
	names := spec.TensorNames()
	ku, kx := slices.Index(names, "units"), slices.Index(names, ExpertTensor)
	if ku < 0 || kx < 0 {
		t.Fatalf("dataset tensors %v", names)
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
				row := obs[kx][id*NumDirs : (id+1)*NumDirs]
				if obs[ku][id*UnitFeatures] == 0 { // not mine
					if slices.Contains(row, 1) {
						t.Fatalf("round %d seat %d: slot %d not mine has expert %v", rep.Round(), seat, id, row)
					}
					continue
				}
				want := make([]byte, NumDirs)
				want[action[id]] = 1
				if !slices.Equal(row, want) {
					t.Fatalf("round %d seat %d unit %d: expert %v, Balin's label %d", rep.Round(), seat, id, row, action[id])
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
