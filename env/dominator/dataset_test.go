package dominator

import (
	"testing"

	"jgym/dataset/datasettest"
)

// TestDatasetExpertLabels labels a game of Khan and Demo with Khan as
// the expert: in Khan's seats the labels are exactly the orders Khan
// gave in the game (its first command per unit it owned), so the bot saw
// the state it played; in Demo's seats they are Khan's commands for
// Demo's units, which differ from Demo's orders.
func TestDatasetExpertLabels(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NbRounds = 30
	m, err := NewMatch(cfg, 7, [NumPlayers]string{"Khan", "Demo", "Khan", "Demo"})
	if err != nil {
		t.Fatal(err)
	}
	datasettest.CheckExpertLabels(t, Dataset(), m, cfg.NbRounds, "Khan", None,
		func(c Command) (int, Dir) { return c.ID, c.Dir })
}
