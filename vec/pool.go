package vec

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"jgym/env"
)

// Errors of the pool. Callers (the server's status mapping) branch on
// them with errors.Is.
var (
	// ErrBadOption means New was given an invalid option or size.
	ErrBadOption = errors.New("bad pool option")
	// ErrBadEnvID means an env id is out of range or listed twice.
	ErrBadEnvID = errors.New("bad env id")
	// ErrBadAction means an action or action-order buffer has the wrong
	// length or a value outside the action space.
	ErrBadAction = errors.New("bad action")
	// ErrBadSeed means a reset seed is outside 0..2^31-1.
	ErrBadSeed = errors.New("bad seed")
	// ErrNotReset means an env is stepped before its first reset.
	ErrNotReset = errors.New("env not reset")
	// ErrNeedsReset means an env must be reset before it is stepped again:
	// its game ended with autoreset disabled, or it failed.
	ErrNeedsReset = errors.New("env needs reset")
	// ErrBusy means an env is still running from an asynchronous Send, or
	// is ready but not yet received.
	ErrBusy = errors.New("env is running")
	// ErrNothingPending means Recv was called with no env running.
	ErrNothingPending = errors.New("no env running")
	// ErrClosed means the pool is closed.
	ErrClosed = errors.New("pool closed")
	// ErrInstance means a game instance failed (engine error or panic);
	// the env must be reset.
	ErrInstance = errors.New("game instance failed")
)

// Autoreset says how finished games restart (Gymnasium's autoreset modes).
type Autoreset uint8

// The autoreset modes. The zero value is NextStep.
const (
	// NextStep: the step after the last round resets the env, ignores its
	// actions and returns the new game's first observation with reward 0.
	NextStep Autoreset = iota
	// SameStep: the last round's step already returns the new game's first
	// observation; the final observation is returned beside it.
	SameStep
	// Disabled: a finished env must be reset explicitly.
	Disabled
)

func (a Autoreset) String() string {
	switch a {
	case NextStep:
		return "next_step"
	case SameStep:
		return "same_step"
	case Disabled:
		return "disabled"
	}
	return fmt.Sprintf("Autoreset(%d)", int(a))
}

// Option configures a Pool.
type Option func(*options)

type options struct {
	workers   int
	autoreset Autoreset
	batchSize int
	stride    int
	trace     env.TraceOpener
}

// WithWorkers sets the number of worker goroutines (default GOMAXPROCS,
// at most the number of envs). Results do not depend on it.
func WithWorkers(n int) Option { return func(o *options) { o.workers = n } }

// WithAutoreset sets the autoreset mode (default NextStep).
func WithAutoreset(a Autoreset) Option { return func(o *options) { o.autoreset = a } }

// WithBatchSize sets how many envs Recv returns (default: all envs).
func WithBatchSize(b int) Option { return func(o *options) { o.batchSize = b } }

// WithSeedStride sets the seed stride (default: the number of envs): env
// i's k-th game after a reset seeded with s uses s+i+k*stride. A stride
// of G lets several pools share out G games and give each game the seed
// it would have in one pool of G envs (see Reset).
func WithSeedStride(stride int) Option { return func(o *options) { o.stride = stride } }

// WithTrace records every game of env 0 in the game's trace format, in
// files opened by open. The game's instances must implement env.Tracer.
func WithTrace(open env.TraceOpener) Option { return func(o *options) { o.trace = open } }

// envState is the pool's bookkeeping of one env. Workers write it while
// the env is in flight; the caller reads it after the env's completion was
// received from a channel, which orders the accesses.
type envState struct {
	nextSeed int64
	episode  int32
	started  bool  // reset at least once
	over     bool  // game ended, waiting for a reset
	term     bool  // terminated flag to report for the last operation
	final    bool  // final observation stored (SameStep)
	inflight bool  // sent to a worker and not yet returned to the caller
	async    bool  // in flight through Send
	hasOrder bool  // action order given for the current step
	err      error // failure of the last operation
	failed   bool  // failed and not reset since
	// start is what an opRestore or opTraceStart starts from (the
	// caller's bytes, read by the worker).
	start *start
}

type opKind uint8

const (
	opReset opKind = iota
	opStep
	opRestore
	opTraceStart
)

// task is one unit of work for a worker: one env, one operation.
type task struct {
	env   int32
	op    opKind
	async bool
}

// Pool is a vector of game instances of one env.Factory, stepped by a
// fixed set of worker goroutines. Its methods must be called by one
// goroutine at a time (Close included); the workers are its own.
type Pool struct {
	f         env.Factory
	spec      env.Spec
	n, l      int
	opts      options
	insts     []env.Instance
	envs      []envState
	allIDs    []int32
	tensorLen []int // per observation tensor: bytes of one env (L seats)
	actLen    int   // bytes of one env's actions
	ordLen    int   // bytes of one env's action order

	// Per-env outputs, env i at offset i (written by workers).
	obs        [][]byte
	obsInPlace bool // batches of some envs are not gathered (ObsInPlace)
	final      [][]byte
	reward     []float32
	unit       []float32 // per-unit credit [n, L, U] (Setup.UnitRewards), nil without
	unitLen    int       // U
	scores     []int32
	fscores    []int32
	rank       []int32
	seats      []int32
	round      []int32
	outs       []env.Out
	finalOut   []env.Out
	actions    []byte
	orders     []byte

	tasks        chan task
	done         chan int32 // completions of synchronous calls
	ready        chan int32 // completions of Send
	syncPending  int
	asyncPending int // sent and not yet received
	wg           sync.WaitGroup
	closed       bool

	stamp   []uint32 // duplicate detection
	stampNo uint32
	batch   Batch
	recvIDs []int32
}

// New makes a pool of n instances of f and starts its workers. The
// instances must be Reset before they are stepped. Close the pool to stop
// the workers and release the instances; the factory stays the caller's.
func New(f env.Factory, n int, opts ...Option) (*Pool, error) {
	o := options{workers: runtime.GOMAXPROCS(0)}
	for _, opt := range opts {
		opt(&o)
	}
	if n <= 0 {
		return nil, fmt.Errorf("%w: num envs %d, want at least 1", ErrBadOption, n)
	}
	if o.batchSize == 0 {
		o.batchSize = n
	}
	if o.batchSize < 0 || o.batchSize > n {
		return nil, fmt.Errorf("%w: batch size %d, want 0..%d", ErrBadOption, o.batchSize, n)
	}
	if o.stride == 0 {
		o.stride = n
	}
	if o.stride < n || o.stride >= seedMod {
		return nil, fmt.Errorf("%w: seed stride %d, want %d (the number of envs) to %d", ErrBadOption, o.stride, n, seedMod-1)
	}
	if o.autoreset > Disabled {
		return nil, fmt.Errorf("%w: autoreset mode %d", ErrBadOption, o.autoreset)
	}
	if o.workers <= 0 {
		o.workers = 1
	}
	o.workers = min(o.workers, n)
	p := &Pool{f: f, spec: f.Spec(), n: n, l: f.Learners(), opts: o}
	p.insts = make([]env.Instance, n)
	for i := range p.insts {
		in, err := f.NewInstance()
		if err != nil {
			p.closeInstances()
			return nil, fmt.Errorf("new instance %d: %w", i, err)
		}
		p.insts[i] = in
	}
	if o.trace != nil {
		tr, ok := p.insts[0].(env.Tracer)
		if !ok {
			p.closeInstances()
			return nil, fmt.Errorf("%w: game %s does not write traces", ErrBadOption, p.spec.ID)
		}
		tr.SetTrace(o.trace)
	}
	p.alloc()
	p.tasks = make(chan task, n)
	p.done = make(chan int32, n)
	p.ready = make(chan int32, n)
	p.wg.Add(o.workers)
	for w := 0; w < o.workers; w++ {
		go p.worker()
	}
	return p, nil
}

// alloc lays out the per-env buffers and the views the instances write to.
func (p *Pool) alloc() {
	n, l, s := p.n, p.l, p.spec.NumSeats
	nt := len(p.spec.Observation)
	p.tensorLen = make([]int, nt)
	p.obs = make([][]byte, nt)
	for t, ts := range p.spec.Observation {
		p.tensorLen[t] = l * ts.Bytes()
		p.obs[t] = make([]byte, n*p.tensorLen[t])
	}
	p.reward = make([]float32, n*l)
	if u := p.spec.UnitReward.NumElems(); u > 0 {
		p.unitLen = u
		p.unit = make([]float32, n*l*u)
	}
	p.scores = make([]int32, n*s)
	p.rank = make([]int32, n*l)
	p.seats = make([]int32, n*l)
	p.round = make([]int32, n)
	p.actLen = l * p.spec.Action.Bytes()
	p.ordLen = l * p.spec.ActionOrder.Bytes()
	p.actions = make([]byte, n*p.actLen)
	p.orders = make([]byte, n*p.ordLen)
	p.envs = make([]envState, n)
	p.allIDs = make([]int32, n)
	p.stamp = make([]uint32, n)
	p.outs = make([]env.Out, n)
	for i := range p.envs {
		p.envs[i].nextSeed = int64(i)
		p.envs[i].episode = -1
		p.allIDs[i] = int32(i)
		p.outs[i] = p.view(p.obs, p.scores, i)
	}
	if p.opts.autoreset == SameStep {
		p.final = make([][]byte, nt)
		for t := range p.final {
			p.final[t] = make([]byte, n*p.tensorLen[t])
		}
		p.fscores = make([]int32, n*s)
		p.finalOut = make([]env.Out, n)
		for i := range p.finalOut {
			p.finalOut[i] = p.view(p.final, p.fscores, i)
			// The final observation's rank, seats and round are not sent.
			p.finalOut[i].Rank = make([]int32, l)
			p.finalOut[i].Seats = make([]int32, l)
			p.finalOut[i].Round = make([]int32, 1)
		}
	}
	p.batch.alloc(p)
}

func (p *Pool) view(obs [][]byte, scores []int32, i int) env.Out {
	l, s := p.l, p.spec.NumSeats
	o := env.Out{
		Obs:    make([][]byte, len(obs)),
		Scores: scores[i*s : (i+1)*s],
		Rank:   p.rank[i*l : (i+1)*l],
		Seats:  p.seats[i*l : (i+1)*l],
		Round:  p.round[i : i+1],
	}
	for t := range obs {
		o.Obs[t] = obs[t][i*p.tensorLen[t] : (i+1)*p.tensorLen[t]]
	}
	return o
}

// Spec returns the spaces of the pool's instances.
func (p *Pool) Spec() env.Spec { return p.spec }

// NumEnvs returns the number of instances.
func (p *Pool) NumEnvs() int { return p.n }

// Learners returns the number of learner seats per instance.
func (p *Pool) Learners() int { return p.l }

// BatchSize returns how many envs Recv returns.
func (p *Pool) BatchSize() int { return p.opts.batchSize }

// Workers returns the number of worker goroutines.
func (p *Pool) Workers() int { return p.opts.workers }

// Autoreset returns the autoreset mode.
func (p *Pool) Autoreset() Autoreset { return p.opts.autoreset }

// Close stops the workers after the operations in flight, waits for them
// and closes the instances. Calls after Close return ErrClosed.
func (p *Pool) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	close(p.tasks)
	p.wg.Wait()
	return p.closeInstances()
}

func (p *Pool) closeInstances() error {
	var errs []error
	for _, in := range p.insts {
		if in != nil {
			errs = append(errs, in.Close())
		}
	}
	return errors.Join(errs...)
}

// worker runs tasks until the task channel is closed. Completion channels
// have room for every env, so a worker never blocks on them.
func (p *Pool) worker() {
	defer p.wg.Done()
	for t := range p.tasks {
		p.run(t)
		if t.async {
			p.ready <- t.env
		} else {
			p.done <- t.env
		}
	}
}

// run executes one task; a panicking instance fails its env, not the pool.
func (p *Pool) run(t task) {
	i := int(t.env)
	e := &p.envs[i]
	e.err = nil
	defer func() {
		if r := recover(); r != nil {
			e.err = fmt.Errorf("%w: env %d: panic: %v", ErrInstance, i, r)
		}
		if e.err != nil {
			e.failed = true
		}
	}()
	switch t.op {
	case opReset:
		e.err = p.reset(i, true)
	case opStep:
		e.err = p.step(i)
	case opRestore, opTraceStart:
		e.err = p.restart(i, t.op)
	}
}

// seedMod bounds game seeds to the course's 0..2^31-1.
const seedMod = 1 << 31

// reset starts env i's next game with its next seed.
func (p *Pool) reset(i int, zeroReward bool) error {
	e := &p.envs[i]
	seed := e.nextSeed
	e.nextSeed = (seed + int64(p.opts.stride)) % seedMod
	if err := p.insts[i].Reset(seed); err != nil {
		return fmt.Errorf("%w: env %d: reset: %w", ErrInstance, i, err)
	}
	e.episode++
	e.started, e.over, e.failed = true, false, false
	if zeroReward {
		clear(p.reward[i*p.l : (i+1)*p.l])
		if p.unit != nil {
			clear(p.unitRow(i))
		}
		e.term = false
	}
	p.insts[i].Observe(&p.outs[i])
	return nil
}

// unitRow is env i's part of the per-unit credit.
func (p *Pool) unitRow(i int) []float32 {
	n := p.l * p.unitLen
	return p.unit[i*n : (i+1)*n]
}

// step plays one round of env i, resetting it as the autoreset mode says.
func (p *Pool) step(i int) error {
	e := &p.envs[i]
	if e.over {
		return p.reset(i, true) // NextStep: the actions are ignored
	}
	var ord []byte
	if e.hasOrder {
		ord = p.orders[i*p.ordLen : (i+1)*p.ordLen]
	}
	term, err := p.insts[i].Step(p.actions[i*p.actLen:(i+1)*p.actLen], ord, p.reward[i*p.l:(i+1)*p.l])
	if err != nil {
		return fmt.Errorf("%w: env %d: step: %w", ErrInstance, i, err)
	}
	e.term = term
	if p.unit != nil {
		if ur, ok := p.insts[i].(env.UnitRewarder); ok {
			ur.UnitRewards(p.unitRow(i))
		}
	}
	if term && p.opts.autoreset == SameStep {
		p.insts[i].Observe(&p.finalOut[i])
		e.final = true
		return p.reset(i, false)
	}
	e.over = term
	p.insts[i].Observe(&p.outs[i])
	return nil
}
