package moria

import (
	"testing"

	"jgym/dataset/datasettest"
)

// TestDatasetExpertLabels labels a game of Balin and Demo with Balin as
// the expert: in Balin's seats the labels are exactly the orders Balin
// gave in the game (its first command per unit it owned), so the bot saw
// the state it played; in Demo's seats they are Balin's commands for
// Demo's units, which differ from Demo's orders.
func TestDatasetExpertLabels(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbRounds = 30
	m, err := NewMatch(cfg, 7, [NumPlayers]string{"Balin", "Demo", "Balin", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	datasettest.CheckExpertLabels(t, Dataset(), m, cfg.NbRounds, "Balin", None,
		func(c Command) (int, Dir) { return c.ID, c.Dir })
}
