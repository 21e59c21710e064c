package env

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A toy game for the Host: each round every player scores the points its
// bot gives, or its learner's action byte; the trace is one line per round.

type toyBot interface{ Points(round int) int }

type constBot int

func (b constBot) Points(int) int { return int(b) }

// closingBot counts its Close calls.
type closingBot struct {
	constBot
	closed *int
}

func (b closingBot) Close() error { *b.closed++; return nil }

type toyRules struct{ reg *BotRegistry[toyBot] }

func (toyRules) Name() string       { return "Toy" }
func (toyRules) DefaultConfig() int { return 3 }
func (toyRules) ParseConfig(r io.Reader) (int, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return 0, err
	}
	text := string(b)
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad rounds %q", text)
	}
	return n, nil
}
func (toyRules) Spec(cfg *int) (Spec, error) {
	if *cfg > 100 {
		return Spec{}, fmt.Errorf("%w: too many rounds", ErrBadSetup)
	}
	return Spec{
		ID: "Toy-v0", NumSeats: NumSeats, NumRounds: *cfg,
		Observation: []TensorSpec{{Name: "me", Dtype: Uint8, Shape: []int{1}}},
		Action:      TensorSpec{Name: "action", Dtype: Uint8, Shape: []int{2}},
		ActionOrder: TensorSpec{Name: "action_order", Dtype: Int16, Shape: []int{2}},
	}, nil
}
func (r toyRules) Bots() *BotRegistry[toyBot]    { return r.reg }
func (toyRules) NewTable(cfg *int, _ *Setup) Table[toyBot] { return &toyTable{rounds: *cfg} }
func (toyRules) CheckSetup(s *Setup, _ *Spec) error {
	if s.OpponentOrder != "" || s.ActionOrder != "" || s.UnitRewards || len(s.CreditWeights) > 0 {
		return fmt.Errorf("%w: the toy has no options", ErrBadSetup)
	}
	return nil
}

type toyTable struct {
	rounds, round, seed int
	scores              [NumSeats]int
	names               [NumSeats]string
	bots                [NumSeats]toyBot
	trace               io.Writer
	orders              [][]byte // the learners' order rows of each round
	fail                error    // Play's error
	abort               bool     // Play's endTrace
}

func (t *toyTable) UnitRewards(int, []float32) {}

func (t *toyTable) Reset(seed int64, names [NumSeats]string, bots [NumSeats]toyBot) error {
	if seed < 0 {
		return errors.New("negative seed")
	}
	*t = toyTable{rounds: t.rounds, seed: int(seed), names: names, bots: bots}
	return nil
}

func (t *toyTable) Play(learners []Learner) (bool, error) {
	if t.fail != nil {
		return t.abort, t.fail
	}
	for p, b := range t.bots {
		if b != nil {
			t.scores[p] += b.Points(t.round)
		}
	}
	for _, l := range learners {
		t.scores[l.Player] += int(l.Action[0])
		t.orders = append(t.orders, l.Order)
	}
	t.round++
	if t.trace != nil {
		fmt.Fprintf(t.trace, "round %d %v\n", t.round, t.scores)
	}
	return false, nil
}

func (t *toyTable) Done() bool               { return t.round >= t.rounds }
func (t *toyTable) Round() int               { return t.round }
func (t *toyTable) Scores() [NumSeats]int    { return t.scores }
func (t *toyTable) Observe(o *Out, l, p int) { o.Obs[0][l] = byte(p) }

func (t *toyTable) StartTrace(w io.Writer) error {
	t.trace = w
	_, err := fmt.Fprintf(w, "seed %d names %v\n", t.seed, t.names)
	return err
}

func (t *toyTable) EndTrace() error { t.trace = nil; return nil }

func newToy(opts ...HostOption[toyBot]) *Host[int, toyBot] {
	reg := NewBotRegistry[toyBot]("toy")
	reg.Register("One", func(me, seed int) toyBot { return constBot(1) })
	reg.Register("Two", func(me, seed int) toyBot { return constBot(2) })
	return NewHost[int, toyBot](toyRules{reg}, opts...)
}

func toyInstance(t *testing.T, h *Host[int, toyBot], s Setup) (Instance, *toyTable, Factory) {
	t.Helper()
	f, err := h.NewFactory(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	in, err := f.NewInstance()
	if err != nil {
		t.Fatal(err)
	}
	tb, ok := TableOf[*toyTable](in)
	if !ok {
		t.Fatal("TableOf found no toy table")
	}
	return in, tb, f
}

func toyOut(l int) *Out {
	spec, _ := toyRules{}.Spec(new(int))
	return NewOut(spec, l)
}

func TestHostNewFactoryErrors(t *testing.T) {
	h := newToy()
	for _, c := range []struct {
		name string
		s    Setup
		want error
		msg  string
	}{
		{"three seats", Setup{Seats: []string{"", "One", "One"}}, ErrBadSetup, "bad setup: want 4 seats, got 3"},
		{"no learner", Setup{Seats: []string{"One", "One", "Two", "Two"}}, ErrBadSetup, "no learner seat"},
		{"unknown bot", Setup{Seats: []string{"", "Nobody", "One", "One"}}, ErrUnknownBot, `seat 1: unknown bot "Nobody" (known: [One Two])`},
		{"bad config", Setup{Seats: []string{"", "", "", ""}, Config: "x"}, ErrBadSetup, `config: bad rounds "x"`},
		{"bad spec", Setup{Seats: []string{"", "", "", ""}, Config: "101"}, ErrBadSetup, "bad setup: too many rounds"},
		{"bad reward", Setup{Seats: []string{"", "", "", ""}, Reward: 9}, ErrBadSetup, "unknown reward mode 9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := h.NewFactory(c.s)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("NewFactory(%+v) = %v, want %v saying %q", c.s, err, c.want, c.msg)
			}
		})
	}
	// A resolver's own error is a bad setup naming the bot.
	h = newToy(WithResolver(func(name string) (BotFactory[toyBot], io.Closer, error) {
		return nil, nil, errors.New("no such file")
	}))
	_, err := h.NewFactory(Setup{Seats: []string{"", "cpp:x.cc", "", ""}})
	if !errors.Is(err, ErrBadSetup) || err.Error() != `seat 1: bot "cpp:x.cc": no such file` {
		t.Errorf("resolver failure = %v", err)
	}
}

func TestHostSpecAndBots(t *testing.T) {
	h := newToy(WithPrefixes[toyBot]("cpp", "policy"))
	if sp := h.Spec(); sp.ID != "Toy-v0" || sp.NumRounds != 3 {
		t.Errorf("Spec() = %+v", sp)
	}
	names, prefixes := h.Bots()
	if !reflect.DeepEqual(names, []string{"One", "Two"}) || !reflect.DeepEqual(prefixes, []string{"cpp", "policy"}) {
		t.Errorf("Bots() = %v, %v", names, prefixes)
	}
	h = newToy(WithResolver[toyBot](nil, "policy"))
	if _, prefixes := h.Bots(); !reflect.DeepEqual(prefixes, []string{"policy"}) {
		t.Errorf("WithResolver prefixes: Bots() = %v", prefixes)
	}
	h = newToy(WithPrefixes[toyBot]("cpp"), WithResolver[toyBot](nil))
	if _, prefixes := h.Bots(); !reflect.DeepEqual(prefixes, []string{"cpp"}) {
		t.Errorf("WithResolver without prefixes keeps them: Bots() = %v", prefixes)
	}
}

// TestHostGame plays a game: rewards, scores, ranks, seats, the round,
// the trace, the end.
func TestHostGame(t *testing.T) {
	in, tb, _ := toyInstance(t, newToy(), Setup{Seats: []string{"One", "", "Two", ""}, Config: "2"})
	reward := make([]float32, 2)
	if _, err := in.Step([]byte{0, 0, 0, 0}, nil, reward); err == nil || err.Error() != "toy: Step before Reset" {
		t.Fatalf("Step before Reset = %v", err)
	}
	var trace bytes.Buffer
	closed := 0
	in.(Tracer).SetTrace(func(episode int, seed int64) (io.WriteCloser, error) {
		fmt.Fprintf(&trace, "open %d %d\n", episode, seed)
		return closer{&trace, &closed}, nil
	})
	if err := in.Reset(7); err != nil {
		t.Fatal(err)
	}
	out := toyOut(2)
	order := []byte{1, 0, 2, 0, 3, 0, 4, 0}
	for r, want := range [][2]float32{{5, 1}, {5, 1}} {
		done, err := in.Step([]byte{5, 9, 1, 9}, order, reward)
		if err != nil || done != (r == 1) || !reflect.DeepEqual(reward, want[:]) {
			t.Fatalf("round %d: Step = %v, %v, rewards %v, want %v", r, done, err, reward, want)
		}
	}
	if !reflect.DeepEqual(tb.orders, [][]byte{{1, 0, 2, 0}, {3, 0, 4, 0}, {1, 0, 2, 0}, {3, 0, 4, 0}}) {
		t.Errorf("learners' order rows = %v", tb.orders)
	}
	in.Observe(out)
	if !reflect.DeepEqual(out.Scores, []int32{2, 10, 4, 2}) || !reflect.DeepEqual(out.Rank, []int32{1, 3}) ||
		!reflect.DeepEqual(out.Seats, []int32{1, 3}) || out.Round[0] != 2 || !bytes.Equal(out.Obs[0], []byte{1, 3}) {
		t.Errorf("Observe = %+v", out)
	}
	want := "open 0 7\nseed 7 names [One Learner Two Learner]\nround 1 [1 5 2 1]\nround 2 [2 10 4 2]\n"
	if trace.String() != want || closed != 1 {
		t.Errorf("trace %q closed %d times, want %q closed once", trace.String(), closed, want)
	}
	if done, err := in.Step([]byte{0, 0, 0, 0}, nil, reward); !done || !errors.Is(err, ErrGameOver) {
		t.Errorf("Step after the end = %v, %v, want true, ErrGameOver", done, err)
	}
	if err := in.Reset(8); err != nil || !strings.HasSuffix(trace.String(), "open 1 8\nseed 8 names [One Learner Two Learner]\n") {
		t.Errorf("second game: %v, trace %q", err, trace.String())
	}
	if err := in.Close(); err != nil || closed != 2 {
		t.Errorf("Close = %v, trace closed %d times, want 2", err, closed)
	}
}

type closer struct {
	io.Writer
	n *int
}

func (c closer) Close() error { *c.n++; return nil }

// TestHostFailures: a failing round leaves the trace open unless the
// table ends it; a failing Reset leaves no game and releases its bots.
func TestHostFailures(t *testing.T) {
	closedBots := 0
	h := newToy(WithResolver(func(name string) (BotFactory[toyBot], io.Closer, error) {
		return func(me, seed int) toyBot { return closingBot{constBot(1), &closedBots} }, nil, nil
	}))
	in, tb, _ := toyInstance(t, h, Setup{Seats: []string{"", "A", "B", "C"}})
	closed := 0
	in.(Tracer).SetTrace(func(int, int64) (io.WriteCloser, error) { return closer{io.Discard, &closed}, nil })
	if err := in.Reset(1); err != nil {
		t.Fatal(err)
	}
	tb.fail = errors.New("bot crashed")
	if _, err := in.Step([]byte{0, 0}, nil, make([]float32, 1)); err != tb.fail || closed != 0 {
		t.Errorf("failed round: %v, trace closed %d times, want it open", err, closed)
	}
	tb.abort = true
	if _, err := in.Step([]byte{0, 0}, nil, make([]float32, 1)); err != tb.fail || closed != 1 {
		t.Errorf("aborted round: %v, trace closed %d times, want once", err, closed)
	}
	if err := in.Reset(-1); err == nil || err.Error() != "new game seed -1: negative seed" {
		t.Errorf("Reset(-1) = %v", err)
	}
	if closedBots != 6 {
		t.Errorf("%d bots closed, want the first game's 3 and the failed one's 3", closedBots)
	}
	if _, err := in.Step([]byte{0, 0}, nil, make([]float32, 1)); err == nil || !strings.Contains(err.Error(), "Step before Reset") {
		t.Errorf("Step after a failed Reset = %v", err)
	}
	out := toyOut(1)
	out.Round[0] = 99
	if in.Observe(out); out.Round[0] != 99 {
		t.Error("Observe wrote a game after a failed Reset")
	}
}

func TestShuffleSeats(t *testing.T) {
	in, tb, _ := toyInstance(t, newToy(), Setup{Seats: []string{"", "Two", "", "One"}, Shuffle: true})
	out := toyOut(2)
	seen := map[[2]int32]bool{}
	for seed := int64(0); seed < 40; seed++ {
		if err := in.Reset(seed); err != nil {
			t.Fatal(err)
		}
		in.Observe(out)
		s := [2]int32{out.Seats[0], out.Seats[1]}
		if s[0] == s[1] {
			t.Fatalf("seed %d: both learners at seat %d", seed, s[0])
		}
		seen[s] = true
		for p := 0; p < NumSeats; p++ {
			isLearner := int32(p) == s[0] || int32(p) == s[1]
			if (tb.bots[p] == nil) != isLearner || (tb.names[p] == "Learner") != isLearner {
				t.Fatalf("seed %d: seat %d learner %v but bot %v named %q", seed, p, isLearner, tb.bots[p], tb.names[p])
			}
		}
		again := [NumSeats]int{0, 1, 2, 3}
		shuffleSeats(&again, seed)
		var names [NumSeats]string
		for j, p := range again {
			names[p] = seatName([]string{"", "Two", "", "One"}[j])
		}
		if names != tb.names {
			t.Fatalf("seed %d: seating %v not a function of the seed (%v)", seed, tb.names, again)
		}
	}
	if len(seen) < 6 {
		t.Errorf("40 seeds gave %d learner seatings, want at least 6 of 12", len(seen))
	}
}

func TestRewards(t *testing.T) {
	before := [NumSeats]int{15, 15, 15, 15}
	after := [NumSeats]int{20, 14, 50, 14}
	for _, c := range []struct {
		mode RewardMode
		p    int
		done bool
		want float32
	}{
		{ScoreDelta, 0, false, 5},
		{ScoreDelta, 1, false, -1},
		{Relative, 0, false, float32((20 - 78.0/3) - (15 - 15))},
		{Rank, 2, false, 0},
		{Rank, 2, true, 1},
		{Rank, 0, true, 1.0 / 3},
		{Rank, 1, true, -2.0 / 3}, // tied for 3rd and 4th: mean rank 3.5
	} {
		got := rewardOf(c.mode, &before, &after, c.p, c.done)
		if d := got - c.want; d > 1e-6 || d < -1e-6 {
			t.Errorf("rewardOf(%v, p=%d, done=%v) = %v, want %v", c.mode, c.p, c.done, got, c.want)
		}
	}
}

func TestSeatName(t *testing.T) {
	for in, want := range map[string]string{
		"": "Learner", "Demo": "Demo", "cpp:bots/AIMine.cc": "AIMine", `policy:C:\p\net.onnx`: "net",
		"cpp:.hidden": ".hidden", "ABCDEFGHIJKLMNOP": "ABCDEFGHIJKL",
	} {
		if got := seatName(in); got != want {
			t.Errorf("seatName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBotRegistry(t *testing.T) {
	r := NewBotRegistry[toyBot]("toy")
	r.Register("B", func(me, seed int) toyBot { return constBot(me) })
	r.Register("A", func(me, seed int) toyBot { return nil })
	if got := r.Names(); !reflect.DeepEqual(got, []string{"A", "B"}) {
		t.Errorf("Names() = %v", got)
	}
	if f, err := r.Lookup("B"); err != nil || f(3, 0).Points(0) != 3 {
		t.Errorf("Lookup(B) = %v", err)
	}
	if _, err := r.Lookup("C"); !errors.Is(err, ErrUnknownBot) || err.Error() != `unknown bot "C" (known: [A B])` {
		t.Errorf("Lookup(C) = %v", err)
	}
	defer func() {
		if p := recover(); p != "toy: bot registered twice: A" {
			t.Errorf("second registration panicked with %v", p)
		}
	}()
	r.Register("A", nil)
}
