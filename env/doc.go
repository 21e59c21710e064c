// Package env is the game-agnostic contract between jgym's games and the
// layers that run them (vec, server): what a game offers, how its spaces
// are described, who sits at its four seats, and a registry of games.
//
// It imports only the standard library; games live in subpackages
// (env/crematoria) and import env, never the other way round.
//
// # The pieces
//
//   - A [Game] describes itself ([Spec]: tensor specs of one seat's
//     observation and action, number of seats and rounds) and validates a
//     [Setup] into a [Factory].
//   - A [Setup] says which seats are learners (empty name) and which are
//     bots (a name the game resolves), whether seats are shuffled at every
//     reset, the [RewardMode], the game's configuration text and which
//     observation tensors the learners get ([Spec.Subset]: the others are
//     not computed).
//   - A [Factory] makes [Instance] values: one table of four seats each,
//     driven by one goroutine at a time.
//   - An [Instance] is reset with a seed, stepped with the learners'
//     actions as raw little-endian bytes, and writes its observation into
//     caller-owned buffers ([Out]), so a batch is encoded in place without
//     allocation.
//   - A [Registry] maps game ids ("Crematoria-v0") to games.
//   - A [Host] is a Game made of a game's [Rules]: the game supplies its
//     configuration, spaces, bots ([BotRegistry]) and a [Table] that plays
//     one game (its round, observation encoder, masks, action decoding and
//     trace writer); the Host does the rest, the same for every game:
//     setups, seating and shuffling, bots and their release, trace files,
//     rewards, scores and ranks.
//
// # A tour
//
//	reg, _ := env.NewRegistry(crematoria.Def.Host())
//	g, _ := reg.Lookup("Crematoria-v0")
//	f, _ := g.NewFactory(env.Setup{Seats: []string{"", "Demo", "Demo", "Demo"}})
//	defer f.Close()
//	spec := f.Spec() // board [3 40 80] uint8, units [80 8], globals [16], action_mask [80 11]
//	in, _ := f.NewInstance()
//	defer in.Close()
//	_ = in.Reset(42)
//	out := env.Out{Scores: make([]int32, 4), Rank: make([]int32, 1), Seats: make([]int32, 1), Round: make([]int32, 1)}
//	for _, t := range spec.Observation {
//		out.Obs = append(out.Obs, make([]byte, t.Bytes()))
//	}
//	in.Observe(&out)
//	action := make([]byte, spec.Action.Bytes()) // one direction per unit slot
//	reward := make([]float32, 1)
//	for done := false; !done; {
//		done, _ = in.Step(action, nil, reward)
//		in.Observe(&out)
//	}
//
// Package vec steps many instances in parallel and package server serves
// them over gRPC; both see only this contract.
package env
