package game

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// SearchEnv is the environment variable that sets the sizes of the
// registered search bot (SearchBotName) in every game: "K,R,H" or
// "K,R,H,S", the candidates besides the strong bot's orders, the
// rollouts per candidate, the horizon in rounds and the alternatives
// screened (SearchOptions; DefaultSearch when unset).
const SearchEnv = "JGYM_SEARCH"

func init() {
	v := os.Getenv(SearchEnv)
	if v == "" {
		return
	}
	o, err := ParseSearchOptions(v)
	if err != nil {
		panic(fmt.Sprintf("%s=%q: %v", SearchEnv, v, err))
	}
	DefaultSearch = o
}

// ParseSearchOptions reads "K,R,H[,S[,U[,V]]]": 0 to 64 candidates, 1 to 64
// rollouts, a horizon of 1 to 1000 rounds, 0 to 256 alternatives
// screened, 0 to 64 units swept, 0 to 64 verifying rollouts.
func ParseSearchOptions(v string) (SearchOptions, error) {
	f := strings.Split(v, ",")
	if len(f) < 3 || len(f) > 6 {
		return SearchOptions{}, fmt.Errorf("want K,R,H[,S[,U[,V]]] (candidates, rollouts, horizon, screened, units swept, verifying rollouts)")
	}
	var n [6]int
	limits := [6][2]int{{0, 64}, {1, 64}, {1, 1000}, {0, 256}, {0, 64}, {0, 64}}
	for i, s := range f {
		x, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || x < limits[i][0] || x > limits[i][1] {
			return SearchOptions{}, fmt.Errorf("%q: want a whole number from %d to %d", s, limits[i][0], limits[i][1])
		}
		n[i] = x
	}
	return SearchOptions{Candidates: n[0], Rollouts: n[1], Horizon: n[2], Screen: n[3], Sweep: n[4], Verify: n[5]}, nil
}
