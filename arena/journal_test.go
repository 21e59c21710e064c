package arena_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"jgym/arena"
)

func journalHeader() arena.JournalHeader {
	return arena.JournalHeader{Game: "Fake", Players: []string{"A", "B", "C", "A"}, Config: "default", Extra: map[string]string{"JGYM_SEARCH": "4,2,30"}}
}

// playJournal plays games with the journal at path, stopping the batch
// (as a killed process would) once stopAfter games have been added
// (never if negative); it returns the results, the games played and the
// error.
func playJournal(t *testing.T, path string, h arena.JournalHeader, games []arena.Seating, stopAfter int) ([]arena.Result, int64, error) {
	t.Helper()
	g := &fakeGame{failSeed: -1}
	b, err := arena.NewBatch(g, fakeConfig{}, []string{"A", "B", "C", "A"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Workers = 3
	j, done, err := arena.OpenJournal(path, h, games)
	if err != nil {
		return nil, 0, err
	}
	defer j.Close()
	added := 0
	b.Done = done
	b.OnResult = func(r arena.Result) error {
		if added == stopAfter {
			return errors.New("stopped")
		}
		added++
		return j.Add(r)
	}
	res, err := b.Play(context.Background(), games)
	return res, g.played.Load(), err
}

func TestJournalResumes(t *testing.T) {
	games := arena.EvalSchedule(40, 101)
	ref, err := arena.NewBatch(&fakeGame{failSeed: -1}, fakeConfig{}, []string{"A", "B", "C", "A"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Play(context.Background(), games)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "eval.jsonl")
	h := journalHeader()
	if _, _, err := playJournal(t, path, h, games, 13); err == nil {
		t.Fatal("the batch stopped after 13 games reported no error")
	}
	// A write cut short at the end of the file is dropped.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seed":1`)
	f.Close()
	got, played, err := playJournal(t, path, h, games, -1)
	if err != nil {
		t.Fatal(err)
	}
	if played != 40-13 {
		t.Errorf("the second run played %d games, want the %d the journal lacked", played, 40-13)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results with a stop and a resume differ from one run's:\n%v\n%v", got, want)
	}
	// A third run plays nothing; a longer one only the new games, and a
	// run from another seed the games it shares (seed and seating).
	if _, played, err := playJournal(t, path, h, games, -1); err != nil || played != 0 {
		t.Errorf("a third run played %d games (%v), want 0", played, err)
	}
	if _, played, err := playJournal(t, path, h, arena.EvalSchedule(44, 101), -1); err != nil || played != 4 {
		t.Errorf("a run of 44 games played %d (%v), want 4", played, err)
	}
	if _, played, err := playJournal(t, path, h, arena.EvalSchedule(8, 105), -1); err != nil || played != 0 {
		t.Errorf("a run from seed 105 (seatings shifted by 4) played %d (%v), want 0", played, err)
	}
	if _, played, err := playJournal(t, path, h, arena.EvalSchedule(8, 102), -1); err != nil || played != 8 {
		t.Errorf("a run from seed 102 (other seatings) played %d (%v), want 8", played, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(data), "\n"); lines != 1+40+4+8 {
		t.Errorf("the journal has %d lines, want a header and 52 games", lines)
	}
}

func TestJournalRefuses(t *testing.T) {
	games := arena.EvalSchedule(8, 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "eval.jsonl")
	if _, _, err := playJournal(t, path, journalHeader(), games, -1); err != nil {
		t.Fatal(err)
	}
	other := func(f func(h *arena.JournalHeader)) arena.JournalHeader {
		h := journalHeader()
		f(&h)
		return h
	}
	for _, c := range []struct {
		name string
		h    arena.JournalHeader
		want string
	}{
		{"game", other(func(h *arena.JournalHeader) { h.Game = "Other" }), "another game"},
		{"players", other(func(h *arena.JournalHeader) { h.Players[1] = "C" }), "another players"},
		{"config", other(func(h *arena.JournalHeader) { h.Config = "sha256:00" }), "another configuration"},
		{"search", other(func(h *arena.JournalHeader) { h.Extra["JGYM_SEARCH"] = "0,3,30,0,2" }), "another JGYM_SEARCH"},
		{"extra", other(func(h *arena.JournalHeader) { h.Extra["policy:m.onnx"] = "sha256:11" }), "another policy:m.onnx"},
	} {
		_, _, err := playJournal(t, path, c.h, games, -1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// Not a journal, a broken line, a line too long: errors that quote
	// no more than a few bytes of the file.
	for name, content := range map[string]string{
		"not":    strings.Repeat("secret ", 100) + "\n",
		"broken": `{"jgym_journal":1,"game":"Fake","players":["A","B","C","A"],"config":"default","extra":{"JGYM_SEARCH":"4,2,30"}}` + "\n" + strings.Repeat("secret ", 100) + "\n",
		"long":   strings.Repeat("x", 1<<17) + "\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := playJournal(t, p, journalHeader(), games, -1)
		if err == nil || strings.Contains(err.Error(), "secret") || len(err.Error()) > 200 {
			t.Errorf("%s: %v, want a short error", name, err)
		}
	}
}
