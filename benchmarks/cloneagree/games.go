package main

import (
	"jgym/env/crematoria"
	"jgym/env/dominator"
	"jgym/env/moria"
	"jgym/env/pandemic"
)

// The games and their unit kinds (the measure's one hook).
func init() {
	games["crematoria"] = (&clones[crematoria.Config, *crematoria.Game, crematoria.State, crematoria.Dir]{
		def:   crematoria.Def,
		kinds: []string{"furyans", "pioneers"},
		units: func(s *crematoria.State, p int) [][]int { return [][]int{s.Furyans[p], s.Pioneers[p]} },
	}).measure
	games["dominator"] = (&clones[dominator.Config, *dominator.Game, dominator.State, dominator.Dir]{
		def:   dominator.Def,
		kinds: []string{"Farmer", "Knight", "Witch"},
		units: func(s *dominator.State, p int) [][]int { return [][]int{s.Farmers[p], s.Knights[p], s.Witches[p]} },
	}).measure
	games["pandemic"] = (&clones[pandemic.Config, *pandemic.Game, pandemic.State, pandemic.Dir]{
		def:   pandemic.Def,
		kinds: []string{"units"},
		units: func(s *pandemic.State, p int) [][]int { return [][]int{s.PlayerUnits[p]} },
	}).measure
	games["moria"] = (&clones[moria.Config, *moria.Game, moria.State, moria.Dir]{
		def:   moria.Def,
		kinds: []string{"dwarves", "wizards"},
		units: func(s *moria.State, p int) [][]int { return [][]int{s.Dwarves[p], s.Wizards[p]} },
	}).measure
}
