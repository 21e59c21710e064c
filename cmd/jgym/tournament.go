package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"jgym/env/crematoria"
)

func init() {
	register(&command{
		name:  "tournament",
		usage: "BOT1 BOT2 ... [-n GAMES] [--seed0 1] [-i CONFIG] [-j WORKERS] [--json] [--plot out.svg]",
		short: "rate bots by TrueSkill over games of 4 drawn from the pool",
		run:   runTournament,
	})
}

// tournamentGames is the schedule of jgym tournament for k bots. With k <= 4
// bots, game i seats bot (i+s) mod k in seat s, so every bot sits in every
// seat equally often over k games (with fewer than 4 bots, some sit twice at
// a table). With k > 4, the games go through the 4-bot subsets in
// lexicographic order, one per game, and each pass over the subsets rotates
// the seats by one.
func tournamentGames(k, n, seed0 int) []arenaGame {
	games := make([]arenaGame, n)
	var combos [][crematoria.NumPlayers]int
	if k > crematoria.NumPlayers {
		for a := 0; a < k; a++ {
			for b := a + 1; b < k; b++ {
				for c := b + 1; c < k; c++ {
					for d := c + 1; d < k; d++ {
						combos = append(combos, [crematoria.NumPlayers]int{a, b, c, d})
					}
				}
			}
		}
	}
	for i := range games {
		g := arenaGame{Seed: seed0 + i}
		for s := range g.Seats {
			if combos == nil {
				g.Seats[s] = (i + s) % k
			} else {
				rot := i / len(combos)
				g.Seats[s] = combos[i%len(combos)][(s+rot)%crematoria.NumPlayers]
			}
		}
		games[i] = g
	}
	return games
}

// tsParams are the TrueSkill settings.
type tsParams struct {
	Mu       float64 `json:"mu0"`
	Sigma    float64 `json:"sigma0"`
	Beta     float64 `json:"beta"`
	Tau      float64 `json:"tau"`
	DrawProb float64 `json:"draw_probability"`
}

// tsDefault are the usual TrueSkill settings (Herbrich, Minka and Graepel
// 2007): mu0 25, sigma0 25/3, beta sigma0/2, tau sigma0/100, draws 10%.
var tsDefault = tsParams{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, DrawProb: 0.10}

// rating is a TrueSkill belief about a skill: N(Mu, Sigma²).
type rating struct{ Mu, Sigma float64 }

// gauss is a Gaussian in natural parameters (precision, precision·mean);
// pi = 0 is the uniform "no information" message.
type gauss struct{ pi, tau float64 }

func gaussMV(mu, v float64) gauss  { return gauss{1 / v, mu / v} }
func (g gauss) mean() float64      { return g.tau / g.pi }
func (g gauss) mul(h gauss) gauss  { return gauss{g.pi + h.pi, g.tau + h.tau} }
func (g gauss) div(h gauss) gauss  { return gauss{g.pi - h.pi, g.tau - h.tau} }
func normPDF(x float64) float64    { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }
func normCDF(x float64) float64    { return math.Erfc(-x/math.Sqrt2) / 2 }
func normInvCDF(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }
func sumMsg(a gauss, ca float64, b gauss, cb float64) gauss {
	if a.pi <= 0 || b.pi <= 0 {
		return gauss{}
	}
	return gaussMV(ca*a.mean()+cb*b.mean(), ca*ca/a.pi+cb*cb/b.pi)
}

// vWin, wWin, vDraw and wDraw are the additive and multiplicative
// corrections of a Gaussian truncated to d > eps (a win) or |d| <= eps (a
// draw), with t the mean over the standard deviation.
func vWin(t, eps float64) float64 {
	x := t - eps
	if d := normCDF(x); d > 1e-300 {
		return normPDF(x) / d
	}
	return -x
}

func wWin(t, eps float64) float64 {
	v := vWin(t, eps)
	return math.Min(math.Max(v*(v+t-eps), 1e-12), 1-1e-12)
}

func vDraw(t, eps float64) float64 {
	a, b := eps-math.Abs(t), -eps-math.Abs(t)
	v := a
	if d := normCDF(a) - normCDF(b); d > 1e-300 {
		v = (normPDF(b) - normPDF(a)) / d
	}
	if t < 0 {
		return -v
	}
	return v
}

func wDraw(t, eps float64) float64 {
	a, b := eps-math.Abs(t), -eps-math.Abs(t)
	d := normCDF(a) - normCDF(b)
	if d <= 1e-300 {
		return 1 - 1e-12
	}
	v := vDraw(math.Abs(t), eps)
	return math.Min(math.Max(v*v+(a*normPDF(a)-b*normPDF(b))/d, 1e-12), 1-1e-12)
}

// tsMessages runs the TrueSkill factor graph of one free-for-all game and
// returns, for each player, the message the game sends to its skill (the
// likelihood of the outcome as a Gaussian). ranks: lower is better, equal
// ranks are a draw. The players are sorted by rank, adjacent performances
// are compared through difference factors, and the messages along that
// chain are iterated until they change by less than 1e-4.
func tsMessages(p tsParams, prior []gauss, ranks []int) []gauss {
	n := len(prior)
	ord := make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	sort.SliceStable(ord, func(a, b int) bool { return ranks[ord[a]] < ranks[ord[b]] })
	eps := normInvCDF((p.DrawProb+1)/2) * math.Sqrt2 * p.Beta
	perf := make([]gauss, n) // likelihood -> performance, in rank order
	for k, i := range ord {
		perf[k] = gaussMV(prior[i].mean(), 1/prior[i].pi+p.Beta*p.Beta)
	}
	toLeft := make([]gauss, n-1)  // difference k -> performance k
	toRight := make([]gauss, n-1) // difference k -> performance k+1
	toD := make([]gauss, n-1)     // difference k -> d_k
	trunc := make([]gauss, n-1)   // truncation k -> d_k
	marg := func(k int) gauss {
		g := perf[k]
		if k > 0 {
			g = g.mul(toRight[k-1])
		}
		if k < n-1 {
			g = g.mul(toLeft[k])
		}
		return g
	}
	down := func(k int) float64 {
		toD[k] = sumMsg(marg(k).div(toLeft[k]), 1, marg(k+1).div(toRight[k]), -1)
		c := toD[k]
		sp := math.Sqrt(c.pi)
		t, e := c.tau/sp, eps*sp
		v, w := vWin(t, e), wWin(t, e)
		if ranks[ord[k]] == ranks[ord[k+1]] {
			v, w = vDraw(t, e), wDraw(t, e)
		}
		nm := gauss{c.pi / (1 - w), (c.tau + sp*v) / (1 - w)}
		old := trunc[k]
		trunc[k] = nm.div(c)
		return math.Max(math.Abs(trunc[k].tau-old.tau), math.Sqrt(math.Abs(trunc[k].pi-old.pi)))
	}
	upLeft := func(k int) { toLeft[k] = sumMsg(trunc[k], 1, marg(k+1).div(toRight[k]), 1) }
	upRight := func(k int) { toRight[k] = sumMsg(marg(k).div(toLeft[k]), 1, trunc[k], -1) }
	for it := 0; it < 50; it++ {
		var delta float64
		if n == 2 {
			delta = down(0)
		} else {
			for k := 0; k < n-2; k++ {
				delta = math.Max(delta, down(k))
				upRight(k)
			}
			for k := n - 2; k > 0; k-- {
				delta = math.Max(delta, down(k))
				upLeft(k)
			}
		}
		if delta <= 1e-4 {
			break
		}
	}
	upLeft(0)
	upRight(n - 2)
	out := make([]gauss, n)
	for k, i := range ord {
		x := marg(k).div(perf[k])
		if x.pi > 0 {
			out[i] = gaussMV(x.mean(), 1/x.pi+p.Beta*p.Beta)
		}
	}
	return out
}

// tsRate rates one game: seats[s] is the player in seat s (a player may
// hold several seats) and ranks[s] the seat's rank. Every seat enters the
// factor graph as a separate player with its player's rating; a player's
// new belief is its prior (with the dynamics tau added) times the messages
// of all its seats. For a player that holds two seats this treats the seats
// as independent evidence, a slight overstatement of what the game says.
func tsRate(p tsParams, r []rating, seats []int, ranks []int) {
	prior := make([]gauss, len(seats))
	for s, pl := range seats {
		prior[s] = gaussMV(r[pl].Mu, r[pl].Sigma*r[pl].Sigma+p.Tau*p.Tau)
	}
	msgs := tsMessages(p, prior, ranks)
	post := map[int]gauss{}
	for s, pl := range seats {
		g, ok := post[pl]
		if !ok {
			g = prior[s]
		}
		post[pl] = g.mul(msgs[s])
	}
	for pl, g := range post {
		r[pl] = rating{Mu: g.mean(), Sigma: math.Sqrt(1 / g.pi)}
	}
}

// tournamentBot is one line of the tournament table; the report is also
// the --json output.
type tournamentBot struct {
	Name      string   `json:"name"`
	Mu        float64  `json:"mu"`
	Sigma     float64  `json:"sigma"`
	CI95      float64  `json:"ci95"` // 1.96 sigma
	Games     int      `json:"games"`
	Seats     int      `json:"seats"`
	Wins      int      `json:"wins"` // seats with the only top score
	WinRate   interval `json:"win_rate"`
	MeanScore interval `json:"mean_score"`
}

type tournamentReport struct {
	Config   string          `json:"config"`
	Seed0    int             `json:"seed0"`
	Games    int             `json:"games"`
	TS       tsParams        `json:"trueskill"`
	Bots     []tournamentBot `json:"bots"` // best first
	Workers  int             `json:"workers"`
	Seconds  float64         `json:"elapsed_seconds"`
	Schedule [][4]string     `json:"seats"`
	Scores   [][4]int        `json:"scores"`
}

// rateTournament rates the bots from the results, in game order.
func rateTournament(names []string, results []arenaResult, p tsParams) []tournamentBot {
	r := make([]rating, len(names))
	for i := range r {
		r[i] = rating{p.Mu, p.Sigma}
	}
	bots := make([]tournamentBot, len(names))
	scores := make([][]float64, len(names))
	for _, res := range results {
		var ranks [crematoria.NumPlayers]int
		seen := map[int]bool{}
		for s, b := range res.Seats {
			ranks[s] = rankOf(res.Scores, s)
			scores[b] = append(scores[b], float64(res.Scores[s]))
			bots[b].Seats++
			if outcome(res.Scores, s) == 1 {
				bots[b].Wins++
			}
			if !seen[b] {
				seen[b] = true
				bots[b].Games++
			}
		}
		tsRate(p, r, res.Seats[:], ranks[:])
	}
	for i := range bots {
		bots[i].Name = names[i]
		bots[i].Mu, bots[i].Sigma, bots[i].CI95 = r[i].Mu, r[i].Sigma, z95*r[i].Sigma
		bots[i].WinRate = wilson(bots[i].Wins, bots[i].Seats, z95)
		bots[i].MeanScore = meanInterval(scores[i])
	}
	sort.SliceStable(bots, func(a, b int) bool { return bots[a].Mu > bots[b].Mu })
	return bots
}

func runTournament(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := commands["tournament"]
	fs := newFlagSet(c, stderr)
	n := fs.Int("n", 200, "games to play")
	seed0 := fs.Int("seed0", 1, "seed of the first game; game i uses seed0+i")
	cfgPath := fs.String("i", "", "configuration file (default: the embedded default)")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "games played in parallel; the results do not depend on it")
	asJSON := fs.Bool("json", false, "print the report as JSON, with every game's seats and scores")
	plot := fs.String("plot", "", "write an SVG plot of the ratings with 95% error bars to this file")
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(names) < 2 {
		return usageErr("want at least 2 bots, got %d", len(names))
	}
	if *n < 1 || *workers < 1 {
		return usageErr("-n and -j must be at least 1")
	}
	if *seed0 < 0 || *seed0+*n-1 > 1<<31-1 {
		return usageErr("seeds %d..%d out of range 0..2147483647", *seed0, *seed0+*n-1)
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	ar, err := newArena(cfg, names, *workers)
	if err != nil {
		return err
	}
	defer ar.Close()
	ar.progress = stderr
	start := time.Now()
	games := tournamentGames(len(names), *n, *seed0)
	results, err := ar.play(ctx, games)
	if err != nil {
		return err
	}
	rep := tournamentReport{Config: "default", Seed0: *seed0, Games: *n, TS: tsDefault, Workers: *workers}
	if *cfgPath != "" {
		rep.Config = *cfgPath
	}
	rep.Bots = rateTournament(names, results, tsDefault)
	rep.Seconds = time.Since(start).Seconds()
	for _, res := range results {
		var seat [4]string
		for s, b := range res.Seats {
			seat[s] = names[b]
		}
		rep.Schedule = append(rep.Schedule, seat)
		rep.Scores = append(rep.Scores, res.Scores)
	}
	if *plot != "" {
		if err := writePlot(*plot, &rep); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(&rep)
	}
	printTournament(stdout, &rep)
	return nil
}

func printTournament(w io.Writer, r *tournamentReport) {
	fmt.Fprintf(w, "tournament: %d bots, %d games, seeds %d..%d, config %s\n", len(r.Bots), r.Games, r.Seed0, r.Seed0+r.Games-1, r.Config)
	fmt.Fprintf(w, "TrueSkill: mu0 %.3g, sigma0 %.4g, beta %.4g, tau %.3g, draw probability %.2f; ± is 1.96 sigma\n",
		r.TS.Mu, r.TS.Sigma, r.TS.Beta, r.TS.Tau, r.TS.DrawProb)
	width := 4
	for _, b := range r.Bots {
		width = max(width, len(b.Name))
	}
	fmt.Fprintf(w, "%-4s %-*s %7s %6s %6s %6s %6s  %-22s %s\n", "rank", width, "bot", "rating", "±", "sigma", "games", "seats", "win rate (95% CI)", "mean score (95% CI)")
	for i, b := range r.Bots {
		fmt.Fprintf(w, "%-4d %-*s %7.2f %6.2f %6.2f %6d %6d  %5.1f%% [%4.1f%%, %5.1f%%]  %.1f [%.1f, %.1f]\n",
			i+1, width, b.Name, b.Mu, b.CI95, b.Sigma, b.Games, b.Seats,
			100*b.WinRate.Value, 100*b.WinRate.Lo, 100*b.WinRate.Hi, b.MeanScore.Value, b.MeanScore.Lo, b.MeanScore.Hi)
	}
	fmt.Fprintf(w, "time %.2fs wall, %d workers\n", r.Seconds, r.Workers)
}

// writePlot draws the ratings as dots with 95% error bars, best on top.
func writePlot(path string, r *tournamentReport) error {
	const rowH, left, right, top, plotW = 30, 150, 30, 40, 480
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range r.Bots {
		lo, hi = math.Min(lo, b.Mu-b.CI95), math.Max(hi, b.Mu+b.CI95)
	}
	step := niceStep((hi - lo) / 6)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi <= lo {
		hi = lo + step
	}
	x := func(v float64) float64 { return left + plotW*(v-lo)/(hi-lo) }
	h := top + rowH*len(r.Bots) + 40
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", left+plotW+right, h)
	fmt.Fprintf(&sb, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&sb, `<text x="%d" y="20" font-size="14">TrueSkill ratings, %d games (dot: mu, bar: 95%%)</text>`+"\n", left, r.Games)
	axisY := top + rowH*len(r.Bots)
	for v := lo; v <= hi+step/2; v += step {
		fmt.Fprintf(&sb, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(v), top-10, x(v), axisY)
		fmt.Fprintf(&sb, `<text x="%.1f" y="%d" text-anchor="middle">%g</text>`+"\n", x(v), axisY+16, math.Round(v*100)/100)
	}
	for i, b := range r.Bots {
		y := top + rowH*i + rowH/2
		fmt.Fprintf(&sb, `<text x="%d" y="%d" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-10, y, svgEscape(b.Name))
		x0, x1 := x(b.Mu-b.CI95), x(b.Mu+b.CI95)
		fmt.Fprintf(&sb, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#1f77b4" stroke-width="2"/>`+"\n", x0, y, x1, y)
		for _, xe := range []float64{x0, x1} {
			fmt.Fprintf(&sb, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#1f77b4" stroke-width="2"/>`+"\n", xe, y-6, xe, y+6)
		}
		fmt.Fprintf(&sb, `<circle cx="%.1f" cy="%d" r="4" fill="#d62728"/>`+"\n", x(b.Mu), y)
		fmt.Fprintf(&sb, `<text x="%.1f" y="%d" font-size="10">%.2f ± %.2f</text>`+"\n", x(b.Mu)+6, y-8, b.Mu, b.CI95)
	}
	sb.WriteString("</svg>\n")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(s float64) float64 {
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(s)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= s {
			return m * p
		}
	}
	return 10 * p
}

func svgEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
