package arena

import (
	"math"
	"sort"
)

// TrueSkill holds the settings of the TrueSkill rating (Herbrich, Minka
// and Graepel 2007).
type TrueSkill struct {
	Mu       float64 `json:"mu0"`
	Sigma    float64 `json:"sigma0"`
	Beta     float64 `json:"beta"`
	Tau      float64 `json:"tau"`
	DrawProb float64 `json:"draw_probability"`
}

// DefaultTrueSkill are the usual settings: mu0 25, sigma0 25/3, beta
// sigma0/2, tau sigma0/100, draws 10%.
var DefaultTrueSkill = TrueSkill{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Tau: 25.0 / 300, DrawProb: 0.10}

// Skill is a TrueSkill belief about a player's skill: N(Mu, Sigma²).
type Skill struct{ Mu, Sigma float64 }

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

// messages runs the TrueSkill factor graph of one free-for-all game and
// returns, for each player, the message the game sends to its skill (the
// likelihood of the outcome as a Gaussian). ranks: lower is better, equal
// ranks are a draw. The players are sorted by rank, adjacent performances
// are compared through difference factors, and the messages along that
// chain are iterated until they change by less than 1e-4.
func (p TrueSkill) messages(prior []gauss, ranks []int) []gauss {
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

// Rate updates the skills r with one game: seats[s] is the player in seat
// s (a player may hold several seats, at least two seats in all) and
// ranks[s] the seat's rank, lower is better. Every seat enters the factor
// graph as a separate player with its player's skill; a player's new
// belief is its prior (with the dynamics tau added) times the messages of
// all its seats. For a player that holds two seats this treats the seats
// as independent evidence, a slight overstatement of what the game says.
func (p TrueSkill) Rate(r []Skill, seats []int, ranks []int) {
	prior := make([]gauss, len(seats))
	for s, pl := range seats {
		prior[s] = gaussMV(r[pl].Mu, r[pl].Sigma*r[pl].Sigma+p.Tau*p.Tau)
	}
	msgs := p.messages(prior, ranks)
	post := map[int]gauss{}
	for s, pl := range seats {
		g, ok := post[pl]
		if !ok {
			g = prior[s]
		}
		post[pl] = g.mul(msgs[s])
	}
	for pl, g := range post {
		r[pl] = Skill{Mu: g.mean(), Sigma: math.Sqrt(1 / g.pi)}
	}
}
