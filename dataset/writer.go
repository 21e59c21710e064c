package dataset

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"jgym/env"
	"jgym/policy"
)

// Format names the layout of a dataset directory: the manifest below and
// shards of .npz files holding the arrays it lists.
const Format = "jgym-dataset-1"

// ManifestFile is the manifest's name in a dataset directory.
const ManifestFile = "manifest.json"

// DefaultShardSize is the default number of samples per shard.
const DefaultShardSize = 4096

// maxIllegalExamples bounds the illegal labels a trace's entry lists.
const maxIllegalExamples = 8

// Options configures a Writer.
type Options struct {
	// Game is the game's name, recorded in the manifest.
	Game string
	// ShardSize is the most samples a shard holds (DefaultShardSize when
	// 0).
	ShardSize int
	// Level is the deflate level of the shards (flate.BestSpeed when 0).
	Level int
	// LabelsFrom says where the labels come from, for the manifest:
	// "moves" (the trace's, the default) or "expert:NAME" (the commands
	// of a bot, Expert).
	LabelsFrom string
	// OpponentOrder is the order of the opponents in the observations:
	// policy.OpponentsBySeat (the default, "" too) or an order the game
	// offers (OpponentOrderer), applied to every trace and recorded in the
	// manifest.
	OpponentOrder string
	// Tensors names the observation tensors of the samples, as the env's
	// option tensors (env.Setup.Tensors; opt-in tensors too): the masks
	// are kept, the others are not written. Empty: the whole
	// observation. The manifest's Observation lists them.
	Tensors []string
}

// Manifest describes a dataset directory; it is written as
// manifest.json.
type Manifest struct {
	Format             string `json:"format"`
	Game               string `json:"game"`
	EnvID              string `json:"env_id"`
	ObservationVersion string `json:"observation_version"`
	NumActions         int    `json:"num_actions"`
	// NoneAction is the label of a slot whose unit did not move (the
	// last action of every game).
	NoneAction int `json:"none_action"`
	NumRounds  int `json:"num_rounds"`
	// LabelsFrom is "moves" (the moves the trace records) or
	// "expert:NAME" (the commands bot NAME gives in each seat's place).
	LabelsFrom string `json:"labels_from"`
	// OpponentOrder is the order of the opponents in the observations,
	// as the env's option opponent_order: "seat" (relative index r is
	// the r-th seat after the observed one) or an order the game offers
	// ("score": by decreasing score). A policy cloned from the dataset
	// plays with that order (its metadata opponent_order).
	OpponentOrder string `json:"opponent_order"`
	// Estimated lists the observation features the traces do not print,
	// which the game estimates (docs/learning-from-traces.md); empty when
	// the observations are exactly the env's.
	Estimated []string `json:"estimated"`
	// Observation lists the observation tensors, as the env's spec;
	// Action is the label array; Extra the per-sample arrays reward,
	// score, round, seat, trace and done.
	Observation []Tensor `json:"observation"`
	Action      Tensor   `json:"action"`
	Extra       []Tensor `json:"extra"`
	ShardSize   int      `json:"shard_size"`
	Samples     int      `json:"samples"`
	Shards      []Shard  `json:"shards"`
	Traces      []Trace  `json:"traces"`
	Labels      Labels   `json:"labels"`
}

// Shard is one .npz file of the dataset.
type Shard struct {
	File    string `json:"file"`
	Samples int    `json:"samples"`
	Bytes   int64  `json:"bytes"`
}

// Trace is one source trace of the dataset; its index in Manifest.Traces
// is the samples' "trace" value.
type Trace struct {
	Path    string   `json:"path"`
	Seed    int      `json:"seed"`
	Names   []string `json:"names"`
	Seats   []int    `json:"seats"`
	Rounds  int      `json:"rounds"`
	Samples int      `json:"samples"`
	Labels  Labels   `json:"labels"`
	// Illegal lists up to 8 illegal labels, "round R seat S slot K label
	// L".
	Illegal []string `json:"illegal,omitempty"`
}

// Labels counts the labels of unit slots the seat owned: moves, "none",
// and labels the observation's action_mask refuses (included in the
// first two).
type Labels struct {
	Moves   int `json:"moves"`
	None    int `json:"none"`
	Illegal int `json:"illegal"`
}

func (l *Labels) add(o Labels) { l.Moves += o.Moves; l.None += o.None; l.Illegal += o.Illegal }

// Writer writes a dataset directory: shards of at most ShardSize samples,
// then the manifest on Close. It holds one sample in memory; a shard's
// arrays are spooled to temporary files in the directory.
type Writer struct {
	dir    string
	opt    Options
	spec   *env.Spec
	arrays []array
	cur    *shard
	m      Manifest
	cols   [][]byte // one sample: the observation tensors, then action, then extras
	mask   int      // index of action_mask in cols, or -1
}

// ErrExists is returned by NewWriter for a directory that already holds a
// dataset (a manifest or shards): datasets are written once, never mixed.
var ErrExists = errors.New("dataset: the directory already holds a dataset")

// NewWriter creates dir (if needed) for a dataset; dir must not hold one.
func NewWriter(dir string, opt Options) (*Writer, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err == nil {
		return nil, fmt.Errorf("%w: %s", ErrExists, dir)
	}
	if shards, _ := filepath.Glob(filepath.Join(dir, "shard-*.npz")); len(shards) > 0 {
		return nil, fmt.Errorf("%w: %s (%d shards)", ErrExists, dir, len(shards))
	}
	if opt.ShardSize <= 0 {
		opt.ShardSize = DefaultShardSize
	}
	if opt.Level == 0 {
		opt.Level = flate.BestSpeed
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if opt.LabelsFrom == "" {
		opt.LabelsFrom = "moves"
	}
	if opt.OpponentOrder == "" {
		opt.OpponentOrder = policy.OpponentsBySeat
	}
	return &Writer{dir: dir, opt: opt, m: Manifest{Format: Format, Game: opt.Game, ShardSize: opt.ShardSize,
		LabelsFrom: opt.LabelsFrom, OpponentOrder: opt.OpponentOrder, Shards: []Shard{}, Traces: []Trace{}}}, nil
}

// extras are the per-sample arrays after the observation and the action.
var extras = []Tensor{
	{Name: "reward", Dtype: "float32", Shape: []int{}, Description: "change of the seat's score in the round (the env's score_delta)"},
	{Name: "score", Dtype: "int32", Shape: []int{}, Description: "the seat's score after the round"},
	{Name: "round", Dtype: "int16", Shape: []int{}, Description: "the round, 0 for the first"},
	{Name: "seat", Dtype: "int8", Shape: []int{}, Description: "the seat observed"},
	{Name: "trace", Dtype: "int32", Shape: []int{}, Description: "index of the source trace in the manifest's traces"},
	{Name: "done", Dtype: "bool", Shape: []int{}, Description: "the round is the game's last"},
}

// init sets the dataset's arrays from the first trace's spec.
func (w *Writer) init(spec env.Spec, rep Replay) error {
	w.spec = &spec
	w.mask = -1
	for i, t := range spec.Observation {
		w.m.Observation = append(w.m.Observation, tensorOf(t))
		if t.Name == maskName {
			w.mask = i
		}
	}
	w.m.Action = tensorOf(spec.Action)
	w.m.Extra = extras
	w.m.Estimated = []string{}
	if e, ok := rep.(Estimator); ok {
		w.m.Estimated = e.Estimated()
	}
	w.m.EnvID, w.m.ObservationVersion = spec.ID, spec.ObservationVersion
	w.m.NumActions, w.m.NoneAction, w.m.NumRounds = spec.NumActions, spec.NumActions-1, spec.NumRounds
	for _, t := range append(append(slices.Clone(w.m.Observation), w.m.Action), extras...) {
		a, err := newArray(t)
		if err != nil {
			return err
		}
		w.arrays = append(w.arrays, a)
		w.cols = append(w.cols, make([]byte, a.size))
	}
	return nil
}

// sameSpaces reports whether two specs have the same game and tensors.
func sameSpaces(a, b *env.Spec) bool {
	if a.ID != b.ID || a.ObservationVersion != b.ObservationVersion || a.NumActions != b.NumActions ||
		len(a.Observation) != len(b.Observation) {
		return false
	}
	same := func(x, y env.TensorSpec) bool {
		return x.Name == y.Name && x.Dtype == y.Dtype && slices.Equal(x.Shape, y.Shape)
	}
	for i := range a.Observation {
		if !same(a.Observation[i], b.Observation[i]) {
			return false
		}
	}
	return same(a.Action, b.Action)
}

// AddTrace replays a trace and writes a sample per round and seat of
// seats, the observations in the writer's opponent order. On an error
// the samples of the rounds before it stay written (and counted in the
// manifest).
func (w *Writer) AddTrace(path string, rep Replay, seats []int) (Trace, error) {
	if err := SelectTensors(rep, w.opt.Tensors); err != nil {
		return Trace{}, err
	}
	spec := rep.Spec()
	if err := OrderOpponents(rep, w.opt.OpponentOrder); err != nil {
		return Trace{}, err
	}
	if w.spec == nil {
		if err := w.init(spec, rep); err != nil {
			return Trace{}, err
		}
	} else if !sameSpaces(w.spec, &spec) {
		return Trace{}, fmt.Errorf("%w: %s %v, the dataset's %s %v", ErrSpec, spec.ID, shapes(&spec), w.spec.ID, shapes(w.spec))
	}
	for _, s := range seats {
		if s < 0 || s >= spec.NumSeats {
			return Trace{}, fmt.Errorf("dataset: seat %d: the game has %d seats", s, spec.NumSeats)
		}
	}
	ti := len(w.m.Traces)
	w.m.Traces = append(w.m.Traces, Trace{Path: path, Seed: rep.Seed(), Names: rep.Names(), Seats: seats})
	tr := &w.m.Traces[ti]
	nobs := len(w.m.Observation)
	obs, action := w.cols[:nobs], w.cols[nobs]
	ex := w.cols[nobs+1:]
	for rep.Next() {
		r := rep.Round()
		tr.Rounds++
		before, after := rep.Scores()
		for _, seat := range seats {
			rep.Observe(seat, obs)
			rep.Label(seat, action)
			tr.Labels.add(w.check(tr, r, seat))
			binary.LittleEndian.PutUint32(ex[0], math.Float32bits(float32(after[seat]-before[seat])))
			binary.LittleEndian.PutUint32(ex[1], uint32(int32(after[seat])))
			binary.LittleEndian.PutUint16(ex[2], uint16(int16(r)))
			ex[3][0] = byte(int8(seat))
			binary.LittleEndian.PutUint32(ex[4], uint32(int32(ti)))
			ex[5][0] = b2u(r == spec.NumRounds-1)
			if err := w.add(); err != nil {
				return *tr, err
			}
			tr.Samples++
		}
	}
	w.m.Labels.add(tr.Labels)
	return *tr, rep.Err()
}

// SelectTensors makes rep write the observation tensors named
// (TensorSelector); no names is the whole observation, which every
// replay writes. A Writer selects its tensors on every trace it adds.
func SelectTensors(rep Replay, names []string) error {
	if len(names) == 0 {
		return nil
	}
	r, ok := rep.(TensorSelector)
	if !ok {
		return fmt.Errorf("dataset: tensors %v: the replay writes the whole observation only", names)
	}
	return r.SelectTensors(names)
}

// OrderOpponents sets rep's opponent order o (OpponentOrderer; "" is
// seat order); a replay that cannot relabel writes seat order only. The
// error wraps ErrOpponentOrder. A Writer sets its order on every trace it
// adds; a caller checks an order before writing with it.
func OrderOpponents(rep Replay, o string) error {
	if o == "" {
		o = policy.OpponentsBySeat
	}
	r, ok := rep.(OpponentOrderer)
	switch {
	case ok:
		if err := r.OrderOpponents(o); err != nil {
			return fmt.Errorf("%w: %w", ErrOpponentOrder, err)
		}
	case o != policy.OpponentsBySeat:
		return fmt.Errorf("%w: %q: the replay writes seat order only", ErrOpponentOrder, o)
	}
	return nil
}

// check counts the labels of the slots seat owns (those its mask allows
// more than "none" for, or that have a move) and checks each against the
// observation's action_mask.
func (w *Writer) check(tr *Trace, r, seat int) Labels {
	var l Labels
	action := w.cols[len(w.m.Observation)]
	none := w.m.NoneAction
	na := w.spec.NumActions
	var mask []byte
	if w.mask >= 0 {
		mask = w.cols[w.mask]
	}
	for k, b := range action {
		a := int(int8(b))
		if a == none {
			if mask != nil && slices.ContainsFunc(mask[k*na:k*na+none], func(m byte) bool { return m != 0 }) {
				l.None++ // a slot of the seat that did not move
			}
			continue
		}
		l.Moves++
		if a < 0 || a >= na || (mask != nil && mask[k*na+a] == 0) {
			l.Illegal++
			if len(tr.Illegal) < maxIllegalExamples {
				tr.Illegal = append(tr.Illegal, fmt.Sprintf("round %d seat %d slot %d label %d", r, seat, k, a))
			}
		}
	}
	return l
}

// add writes the sample in w.cols to the current shard, starting one if
// needed and closing it when full.
func (w *Writer) add() error {
	if w.cur == nil {
		s, err := newShard(w.dir, fmt.Sprintf("shard-%05d.npz", len(w.m.Shards)), w.arrays)
		if err != nil {
			return err
		}
		w.cur = s
	}
	if err := w.cur.add(w.cols); err != nil {
		return err
	}
	w.m.Samples++
	if w.cur.samples >= w.opt.ShardSize {
		return w.flush()
	}
	return nil
}

// flush closes the current shard.
func (w *Writer) flush() error {
	s := w.cur
	if s == nil {
		return nil
	}
	w.cur = nil
	n, err := s.close(w.arrays, w.opt.Level)
	if err != nil {
		return err
	}
	w.m.Shards = append(w.m.Shards, Shard{File: filepath.Base(s.path), Samples: s.samples, Bytes: n})
	return nil
}

// Close writes the last shard and the manifest, and returns the manifest.
func (w *Writer) Close() (*Manifest, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&w.m); err != nil {
		return nil, fmt.Errorf("dataset: manifest: %w", err)
	}
	path := filepath.Join(w.dir, ManifestFile)
	if err := os.WriteFile(path+".tmp", data.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return &w.m, nil
}

// Abort removes the shard being filled (its spool files); the shards
// already written stay.
func (w *Writer) Abort() {
	if w.cur != nil {
		w.cur.discard()
		w.cur = nil
	}
}

func shapes(s *env.Spec) [][]int {
	var out [][]int
	for _, t := range s.Observation {
		out = append(out, t.Shape)
	}
	return out
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}
