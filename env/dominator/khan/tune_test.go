package khan

import (
	"context"
	"fmt"
	"jgym/env/dominator"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// BenchmarkKhanWeights plays Khan with weight variants against three
// DummyClones, its seat rotating, and prints each variant's wins, mean
// margin over the best opponent (relative) and mean score: the harness
// Khan's weights were tuned with (benchmarks/notebook/dominator-dummy.md).
// KHAN_WEIGHTS lists variants separated by ';', each a list of name=value
// changes to the defaults ("default" for none); KHAN_GAMES and KHAN_SEED0
// give the games per variant (100) and the first seed (1).
//
//	KHAN_WEIGHTS='default;nearWitch=0.4' KHAN_GAMES=200 KHAN_SEED0=101 go test ./env/dominator/khan -run '^$' -bench KhanWeights -benchtime 1x
func BenchmarkKhanWeights(b *testing.B) {
	spec := os.Getenv("KHAN_WEIGHTS")
	if spec == "" {
		spec = "default"
	}
	games, seed0 := envInt(b, "KHAN_GAMES", 100), envInt(b, "KHAN_SEED0", 1)
	for _, variant := range strings.Split(spec, ";") {
		w, err := parseWeights(variant)
		if err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		wins := 0
		var margin, score float64
		var wg sync.WaitGroup
		for wk := 0; wk < 2; wk++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for g := wk; g < games; g += 2 {
					seat, seed := g%dominator.NumPlayers, seed0+g
					var bots [dominator.NumPlayers]dominator.Bot
					for p := range bots {
						bots[p] = dominator.NewDummyClone(p, seed)
					}
					bots[seat] = &Bot{w: w}
					m, err := dominator.Def.NewMatch(dominator.DefaultConfig(), seed, [dominator.NumPlayers]string{"a", "b", "c", "d"}, bots)
					if err == nil {
						err = m.Run(context.Background())
					}
					if err != nil {
						b.Error(err)
						return
					}
					best := 0
					for p, s := range m.Game.TotalScore {
						if p != seat {
							best = max(best, s)
						}
					}
					mu.Lock()
					if m.Game.TotalScore[seat] > best {
						wins++
					}
					margin += float64(m.Game.TotalScore[seat]-best) / float64(best)
					score += float64(m.Game.TotalScore[seat])
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		fmt.Printf("%-40s wins %3d/%d  margin %+.3f  score %.0f\n", variant, wins, games, margin/float64(games), score/float64(games))
	}
}

func envInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// parseWeights returns the default weights with the changes of spec
// ("name=value,...", or "default").
func parseWeights(spec string) (khanWeights, error) {
	w := khanDefault
	fields := map[string]*float32{"farmer": &w.farmer, "knight": &w.knight, "attack": &w.attack,
		"enemyCell": &w.enemyCell, "nearKnight": &w.nearKnight, "nearWitch": &w.nearWitch, "step": &w.step,
		"sleep": &w.sleep, "passRisk": &w.passRisk, "goalRisk": &w.goalRisk, "home": &w.home}
	for _, kv := range strings.Split(spec, ",") {
		if kv == "" || kv == "default" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(v, 32)
		if err != nil || fields[k] == nil {
			return w, fmt.Errorf("bad weight %q", kv)
		}
		*fields[k] = float32(x)
	}
	return w, nil
}
