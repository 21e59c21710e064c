package dataset

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"jgym/env"
)

// toyReplay is a game of 2 seats, 3 slots, 4 actions (3 is "none") and 5
// rounds whose observation and labels are functions of (round, seat), so
// that every byte read back can be checked.
type toyReplay struct {
	r      int
	rounds int
	failAt int // Next fails at this round (-1: never)
	err    error
}

const (
	toySlots   = 3
	toyActions = 4
)

func toySpec() env.Spec {
	return env.Spec{
		ID:                 "Toy-v0",
		ObservationVersion: "toy-obs-1",
		NumSeats:           2,
		Observation: []env.TensorSpec{
			{Name: "board", Dtype: env.Uint8, Shape: []int{2, 3}},
			{Name: "globals", Dtype: env.Float32, Shape: []int{2}},
			{Name: "action_mask", Dtype: env.Bool, Shape: []int{toySlots, toyActions}},
		},
		Action:     env.TensorSpec{Name: "action", Dtype: env.Int8, Shape: []int{toySlots}},
		NumActions: toyActions,
		NumRounds:  5,
	}
}

func (t *toyReplay) Spec() env.Spec  { return toySpec() }
func (t *toyReplay) Names() []string { return []string{"A", "B"} }
func (t *toyReplay) Seed() int       { return 7 }
func (t *toyReplay) Round() int      { return t.r }
func (t *toyReplay) Err() error      { return t.err }

func (t *toyReplay) Next() bool {
	if t.r+1 >= t.rounds {
		return false
	}
	if t.r+1 == t.failAt {
		t.err = errors.New("toy: round diverges")
		return false
	}
	t.r++
	return true
}

func (t *toyReplay) Observe(seat int, obs [][]byte) {
	for i := range obs[0] {
		obs[0][i] = byte(10*t.r + seat + i)
	}
	binary.LittleEndian.PutUint32(obs[1][0:], math.Float32bits(float32(t.r)))
	binary.LittleEndian.PutUint32(obs[1][4:], math.Float32bits(float32(seat)))
	// Slot 0 may do anything, slot 1 only "none" (not the seat's), slot 2
	// anything but action 2.
	for k := 0; k < toySlots; k++ {
		for a := 0; a < toyActions; a++ {
			ok := k == 0 || a == toyActions-1 || (k == 2 && a != 2)
			obs[2][k*toyActions+a] = b2u(ok)
		}
	}
}

// Label: slot 0 moves r%3, slot 1 none, slot 2 moves 2 (illegal) in round
// 4 for seat 1, else none.
func (t *toyReplay) Label(seat int, action []byte) {
	action[0] = byte(t.r % 3)
	action[1] = toyActions - 1
	action[2] = toyActions - 1
	if t.r == 4 && seat == 1 {
		action[2] = 2
	}
}

func (t *toyReplay) Scores() (before, after []int) {
	return []int{t.r * 10, t.r * 20}, []int{(t.r + 1) * 10, (t.r + 1) * 20}
}

// readNpz returns the arrays of a shard: name -> (header, data).
func readNpz(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(f.Name, ".npy")] = b
	}
	return out
}

var npyHeaderRE = regexp.MustCompile(`^\{'descr': '([<|][a-z][0-9])', 'fortran_order': False, 'shape': \(([0-9, ]*)\), \} *\n$`)

// npy checks a .npy file's header and returns its descr, shape and data.
func npy(t *testing.T, b []byte) (string, string, []byte) {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("\x93NUMPY\x01\x00")) {
		t.Fatalf("not a .npy v1.0 file: % x", b[:min(len(b), 10)])
	}
	n := int(binary.LittleEndian.Uint16(b[8:10]))
	if (10+n)%64 != 0 {
		t.Errorf("header of %d bytes: the data does not start at a multiple of 64", 10+n)
	}
	m := npyHeaderRE.FindStringSubmatch(string(b[10 : 10+n]))
	if m == nil {
		t.Fatalf("bad .npy header %q", b[10:10+n])
	}
	return m[1], m[2], b[10+n:]
}

func TestWriterShardsAndManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := NewWriter(dir, Options{Game: "Toy", ShardSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Trace 0: rounds 0..4, both seats: 10 samples. Trace 1: seat 1 only,
	// fails after round 1: 2 samples kept.
	if _, err := w.AddTrace("a.res", &toyReplay{r: -1, rounds: 5, failAt: -1}, []int{0, 1}); err != nil {
		t.Fatal(err)
	}
	tr, err := w.AddTrace("b.res", &toyReplay{r: -1, rounds: 5, failAt: 2}, []int{1})
	if err == nil || tr.Samples != 2 {
		t.Fatalf("failing trace: %d samples, err %v; want 2 and an error", tr.Samples, err)
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if m.Samples != 12 || len(m.Shards) != 3 || m.Shards[2].Samples != 4 {
		t.Fatalf("samples %d, shards %+v; want 12 in 3 shards of 4", m.Samples, m.Shards)
	}
	// Seat 0: 5 moves of slot 0 (slot 2's "none" counts, its mask allows
	// moves); seat 1: the same plus the illegal move of round 4.
	if m.Labels.Moves != 5+6+2 || m.Labels.Illegal != 1 || len(m.Traces[0].Illegal) != 1 {
		t.Errorf("labels %+v, illegal %v", m.Labels, m.Traces[0].Illegal)
	}
	var disk Manifest
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &disk); err != nil || disk.Samples != 12 || disk.NoneAction != toyActions-1 {
		t.Fatalf("manifest.json: %v, %+v", err, disk)
	}

	// Every sample, in order: (trace 0, r, seat) for r in 0..4, seat 0, 1,
	// then (trace 1, r, 1) for r in 0, 1.
	type key struct{ trace, r, seat int }
	var want []key
	for r := 0; r < 5; r++ {
		want = append(want, key{0, r, 0}, key{0, r, 1})
	}
	want = append(want, key{1, 0, 1}, key{1, 1, 1})
	i := 0
	for _, sh := range m.Shards {
		arrays := readNpz(t, filepath.Join(dir, sh.File))
		descr, shape, board := npy(t, arrays["board"])
		if descr != "|u1" || shape != "4, 2, 3" {
			t.Fatalf("board: %s (%s)", descr, shape)
		}
		_, _, glob := npy(t, arrays["globals"])
		_, _, act := npy(t, arrays["action"])
		descr, _, rew := npy(t, arrays["reward"])
		if descr != "<f4" {
			t.Errorf("reward dtype %s", descr)
		}
		_, _, seat := npy(t, arrays["seat"])
		for j := 0; j < sh.Samples; j, i = j+1, i+1 {
			k := want[i]
			if got := board[j*6+5]; got != byte(10*k.r+k.seat+5) {
				t.Errorf("sample %d %+v: board[5] %d", i, k, got)
			}
			if got := math.Float32frombits(binary.LittleEndian.Uint32(glob[j*8:])); got != float32(k.r) {
				t.Errorf("sample %d: globals[0] %v", i, got)
			}
			if got := int8(act[j*3]); int(got) != k.r%3 {
				t.Errorf("sample %d: action[0] %d", i, got)
			}
			wantRew := float32(10 * (k.seat + 1))
			if got := math.Float32frombits(binary.LittleEndian.Uint32(rew[j*4:])); got != wantRew {
				t.Errorf("sample %d: reward %v, want %v", i, got, wantRew)
			}
			if int(seat[j]) != k.seat {
				t.Errorf("sample %d: seat %d", i, seat[j])
			}
		}
	}
	if i != len(want) {
		t.Errorf("%d samples read back, want %d", i, len(want))
	}
}

func TestWriterRefusesOtherSpaces(t *testing.T) {
	w, err := NewWriter(filepath.Join(t.TempDir(), "ds"), Options{Game: "Toy"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if _, err := w.AddTrace("a.res", &toyReplay{r: -1, rounds: 2, failAt: -1}, []int{0}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddTrace("b.res", &otherShape{toyReplay{r: -1, rounds: 2, failAt: -1}}, []int{0}); !errors.Is(err, ErrSpec) {
		t.Fatalf("a trace of other shapes: %v, want ErrSpec", err)
	}
	if _, err := w.AddTrace("c.res", &toyReplay{r: -1, rounds: 2, failAt: -1}, []int{2}); err == nil {
		t.Fatal("seat 2 of a 2-seat game accepted")
	}
}

type otherShape struct{ toyReplay }

func (o *otherShape) Spec() env.Spec {
	s := toySpec()
	s.Observation[0].Shape = []int{3, 3}
	return s
}

func TestNewWriterRefusesAnExistingDataset(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	w, err := NewWriter(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddTrace("a.res", &toyReplay{r: -1, rounds: 2, failAt: -1}, []int{0}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := NewWriter(dir, Options{}); err == nil {
		t.Fatal("a second writer over a dataset directory was accepted")
	}
}

// orderedReplay is a toyReplay that offers the opponent order "reversed":
// it negates its board bytes, so a sample shows which order wrote it.
type orderedReplay struct {
	toyReplay
	order string
}

func (o *orderedReplay) OrderOpponents(order string) error {
	if order != "seat" && order != "reversed" {
		return errors.New("toy has no such order")
	}
	o.order = order
	return nil
}

func (o *orderedReplay) Observe(seat int, obs [][]byte) {
	o.toyReplay.Observe(seat, obs)
	if o.order == "reversed" {
		for i := range obs[0] {
			obs[0][i] = -obs[0][i]
		}
	}
}

// TestWriterOpponentOrder writes datasets in an opponent order: the
// manifest records it (seat by default), every trace is observed in it,
// and a replay that cannot relabel, or an order the game does not offer,
// is refused with ErrOpponentOrder before any sample.
func TestWriterOpponentOrder(t *testing.T) {
	for _, tc := range []struct {
		order, want string
		rep         Replay
		err         error
		board5      byte // the first sample's board[5]
	}{
		{"", "seat", &orderedReplay{toyReplay: toyReplay{r: -1, rounds: 2, failAt: -1}}, nil, 5},
		{"seat", "seat", &toyReplay{r: -1, rounds: 2, failAt: -1}, nil, 5},
		{"reversed", "reversed", &orderedReplay{toyReplay: toyReplay{r: -1, rounds: 2, failAt: -1}}, nil, 256 - 5},
		{"reversed", "", &toyReplay{r: -1, rounds: 2, failAt: -1}, ErrOpponentOrder, 0},
		{"alphabet", "", &orderedReplay{toyReplay: toyReplay{r: -1, rounds: 2, failAt: -1}}, ErrOpponentOrder, 0},
	} {
		dir := filepath.Join(t.TempDir(), "ds")
		w, err := NewWriter(dir, Options{Game: "Toy", OpponentOrder: tc.order})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := w.AddTrace("a.res", tc.rep, []int{0})
		if !errors.Is(err, tc.err) || (tc.err != nil && tr.Samples != 0) {
			t.Errorf("order %q on %T: AddTrace = %d samples, %v; want %v", tc.order, tc.rep, tr.Samples, err, tc.err)
		}
		if tc.err != nil {
			w.Abort()
			continue
		}
		m, err := w.Close()
		if err != nil {
			t.Fatal(err)
		}
		if m.OpponentOrder != tc.want {
			t.Errorf("order %q: manifest opponent_order %q, want %q", tc.order, m.OpponentOrder, tc.want)
		}
		_, _, board := npy(t, readNpz(t, filepath.Join(dir, m.Shards[0].File))["board"])
		if board[5] != tc.board5 {
			t.Errorf("order %q: board[5] = %d, want %d", tc.order, board[5], tc.board5)
		}
	}
}
