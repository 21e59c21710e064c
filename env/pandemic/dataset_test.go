package pandemic

import (
	"testing"

	"jgym/dataset/datasettest"
)

// TestDatasetExpertLabels labels a game of Pasteur and Demo with Pasteur as
// the expert: in Pasteur's seats the labels are exactly the orders Pasteur
// gave in the game (its first command per unit it owned), so the bot saw
// the state it played; in Demo's seats they are Pasteur's commands for
// Demo's units, which differ from Demo's orders.
func TestDatasetExpertLabels(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbRounds = 30
	m, err := NewMatch(cfg, 7, [NumPlayers]string{"Pasteur", "Demo", "Pasteur", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	datasettest.CheckExpertLabels(t, Dataset(), m, cfg.NbRounds, "Pasteur", None,
		func(c Command) (int, Dir) { return c.ID, c.Dir })
}
