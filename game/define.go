package game

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"jgym/arena"
	"jgym/cppexport"
	"jgym/dataset"
	"jgym/env"
	"jgym/policy"
)

// Define checks a game's definition and prepares what the core builds of
// it once; the game package exports the result. It panics on a missing
// field, a programming error that every test of the game finds.
func Define[C Config, G, S any, D Dir](d *Def[C, G, S, D]) *Def[C, G, S, D] {
	required := map[string]bool{
		"Name": d.Name != "", "EnvID": d.EnvID != "", "DefaultConfig": d.DefaultConfig != nil,
		"ParseConfig": d.ParseConfig != nil, "New": d.New != nil, "State": d.State != nil,
		"Round": d.Round != nil, "Scores": d.Scores != nil, "Step": d.Step != nil,
		"NumUnits": d.NumUnits != nil, "Owner": d.Owner != nil, "Config": d.Config != nil,
		"Trace": d.Trace != nil, "Verify": d.Verify != nil, "Replay": d.Replay != nil,
		"Bots": d.Bots != nil, "Spec": d.Spec != nil, "NewEncoder": d.NewEncoder != nil,
		"Legal": d.Legal != nil, "Signature": d.Signature != nil,
		"CppProtocol": d.CppProtocol != nil || d.Kit == nil,
	}
	for _, k := range slices.Sorted(maps.Keys(required)) {
		if !required[k] {
			panic(fmt.Sprintf("game.Define: %s: %s is not set", d.Name, k))
		}
	}
	if d.Credit != nil && d.CopyState == nil {
		panic(fmt.Sprintf("game.Define: %s: Credit needs CopyState", d.Name))
	}
	if d.LogDirs[0] > d.LogDirs[1] {
		panic(fmt.Sprintf("game.Define: %s: LogDirs %v is empty", d.Name, d.LogDirs))
	}
	// The search bot of every game (its rollout policy, the strong bot,
	// is looked up when a search bot is made).
	d.Bots.Register(SearchBotName, d.SearchFactory(DefaultSearch))
	d.arena = arena.NewHost[C, Bot[S, D]](arenaRules[C, G, S, D]{d})
	return d
}

// PolicySignature is what the game's policies take and give: the game's
// Signature, with the action and opponent orders its policy bot
// implements (Def.ActionOrders, Def.OpponentOrders), for every
// observation version it feeds.
func (d *Def[C, G, S, D]) PolicySignature() policy.Signature {
	sig := d.Signature()
	actions := slices.Sorted(maps.Keys(d.ActionOrders))
	opponents := slices.Sorted(maps.Keys(d.OpponentOrders))
	set := func(s *policy.Signature) {
		s.ActionOrders, s.OpponentOrders = actions, opponents
	}
	set(&sig)
	sig.Older = slices.Clone(sig.Older)
	for i := range sig.Older {
		set(&sig.Older[i])
	}
	return sig
}

// Host returns the game as an env.Game (an env.Host of its rules), its
// seats resolved by the options (by default the registered bots).
func (d *Def[C, G, S, D]) Host(opts ...env.HostOption[Bot[S, D]]) *env.Host[C, Bot[S, D]] {
	return env.NewHost[C, Bot[S, D]](envRules[C, G, S, D]{d}, opts...)
}

// WithLoader makes a Host seat bots through ResolveBot with l: the
// registered bots, and "policy:REF" and "cpp:REF" files that l loads
// (arena.Prefixes, which Bots lists).
func (d *Def[C, G, S, D]) WithLoader(l arena.Loader) env.HostOption[Bot[S, D]] {
	return env.WithResolver(func(name string) (BotFactory[S, D], io.Closer, error) { return d.ResolveBot(name, l) }, arena.Prefixes...)
}

// Entry is a defined game as the tools see it, whatever its types: what
// cmd/jgym, the server and the dataset and export commands read from the
// registry.
type Entry interface {
	// Arena is the game for the command line (match, verify, eval).
	Arena() arena.Game
	// ID is the game's env id ("Crematoria-v0").
	ID() string
	// Strong names the game's strong scripted bot.
	Strong() string
	// Env is the game as an env.Game whose "prefix:REF" seats l loads.
	Env(l arena.Loader) env.Game
	// Dataset is the game's side of jgym dataset.
	Dataset() dataset.Source
	// Export is the game's side of jgym export-cpp (false: none).
	Export() (cppexport.Target, bool)
}

// ID is the game's env id.
func (d *Def[C, G, S, D]) ID() string { return d.EnvID }

// Strong names the game's strong scripted bot.
func (d *Def[C, G, S, D]) Strong() string { return d.StrongBot }

// Env is the game as an env.Game whose "prefix:REF" seats l loads (nil:
// the registered bots only).
func (d *Def[C, G, S, D]) Env(l arena.Loader) env.Game {
	if l == nil {
		return d.Host()
	}
	return d.Host(d.WithLoader(l))
}

// Export is the game's side of jgym export-cpp, with the game's policy
// signature; false when the game has none.
func (d *Def[C, G, S, D]) Export() (cppexport.Target, bool) {
	if d.CppTarget == nil {
		return cppexport.Target{}, false
	}
	t := d.CppTarget()
	t.Signature = d.PolicySignature()
	return t, true
}

// EnvSpec describes the env's spaces for a configuration: the game's Spec,
// with the identity the definition holds (id, name, strong bot, seats).
func (d *Def[C, G, S, D]) EnvSpec(cfg *C) (env.Spec, error) {
	s, err := d.Spec(cfg)
	if err != nil {
		return s, err
	}
	s.ID, s.Name, s.StrongBot, s.NumSeats = d.EnvID, d.Name, d.StrongBot, NumSeats
	s.ActionOrders = slices.Sorted(maps.Keys(d.ActionOrders))
	s.OpponentOrders = slices.Sorted(maps.Keys(d.OpponentOrders))
	s.CreditWeights = slices.Clone(d.CreditWeights)
	if d.Credit != nil {
		s.UnitReward = env.TensorSpec{Name: "unit_rewards", Dtype: env.Float32, Shape: slices.Clone(s.Action.Shape),
			Low: math.Inf(-1), High: math.Inf(1), Description: "per unit slot: what the unit earned this round (per-unit credit)"}
	}
	return s, nil
}

// checkSetup checks the options of an env setup against what the game
// offers.
func (d *Def[C, G, S, D]) checkSetup(s *env.Setup) error {
	if _, err := d.opponentOrder(s.OpponentOrder); err != nil {
		return fmt.Errorf("%w: %w", env.ErrBadSetup, err)
	}
	if o := s.ActionOrder; o != "" && o != policy.OrderSlot && d.ActionOrders[o] == nil {
		return fmt.Errorf("%w: %s has no action order %q (offers %q and %v)", env.ErrBadSetup, d.Name, o,
			policy.OrderSlot, slices.Sorted(maps.Keys(d.ActionOrders)))
	}
	if (s.UnitRewards || len(s.CreditWeights) > 0) && d.Credit == nil {
		return fmt.Errorf("%w: %s has no per-unit credit", env.ErrBadSetup, d.Name)
	}
	for name, v := range s.CreditWeights {
		if !slices.ContainsFunc(d.CreditWeights, func(w env.Weight) bool { return w.Name == name }) {
			return fmt.Errorf("%w: %s's credit has no weight %q", env.ErrBadSetup, d.Name, clip(name))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e6 {
			return fmt.Errorf("%w: credit weight %s = %v, want a number within ±1e6", env.ErrBadSetup, name, v)
		}
	}
	return nil
}

// weights returns the credit weights of a setup, in the order of
// Def.CreditWeights.
func (d *Def[C, G, S, D]) weights(s *env.Setup) []float64 {
	w := make([]float64, len(d.CreditWeights))
	for i, cw := range d.CreditWeights {
		w[i] = cw.Default
		if v, ok := s.CreditWeights[cw.Name]; ok {
			w[i] = v
		}
	}
	return w
}

// clip shortens a client's string for a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
