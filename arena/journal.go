package arena

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
)

// A Journal keeps the results of a batch in a file as they come, one JSON
// line a game, so that a batch that was stopped (a killed process, a
// machine that went down) starts again where it was: OpenJournal reads
// the games the file holds and the batch plays only the others
// (Batch.Done, Batch.OnResult). Games are matched by seed and seating,
// so a rerun with more games, or from another first seed, reuses every
// game it shares with the file.
//
// The file's first line is its header (JournalHeader): what the games were
// played with. A file whose header differs from the batch's is refused,
// with the field that differs, rather than mixed with it. A line cut short
// by a stopped write (the file's last, with no newline) is dropped and the
// file truncated before it; any other line that does not read is an error
// giving its number.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	path string
}

// JournalHeader is what makes two batches' games the same games: the
// game, the players' names in the order the seatings index them, the
// configuration, and anything else that changes how the players play
// (Extra: the contents' digests of the files the names load, environment
// variables that size a bot).
type JournalHeader struct {
	Journal int               `json:"jgym_journal"` // the format's version, 1
	Game    string            `json:"game"`
	Players []string          `json:"players"`
	Config  string            `json:"config"`
	Extra   map[string]string `json:"extra,omitempty"`
}

// journalLine is one game's result.
type journalLine struct {
	Seed   int        `json:"seed"`
	Seats  [Seats]int `json:"seats"`
	Scores [Seats]int `json:"scores"`
}

// maxJournalLine bounds a line of a journal: a result is well under 200
// bytes, a header a few KB.
const maxJournalLine = 1 << 16

// OpenJournal opens (or creates) the journal at path for a batch with
// header h and games: it returns the results the file already holds,
// by the index of their game in games.
func OpenJournal(path string, h JournalHeader, games []Seating) (*Journal, map[int]Result, error) {
	h.Journal = 1
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{f: f, path: path}
	done, err := j.read(h, games)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	j.w = bufio.NewWriter(f)
	return j, done, nil
}

// read checks the header (writing it to an empty file), reads the results
// and leaves the file's offset at its end, after the last whole line.
func (j *Journal) read(h JournalHeader, games []Seating) (map[int]Result, error) {
	want, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	st, err := j.f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		_, err := j.f.Write(append(want, '\n'))
		return map[int]Result{}, err
	}
	index := make(map[journalLine]int, len(games)) // by seed and seats, Scores zero
	for i, g := range games {
		index[journalLine{Seed: g.Seed, Seats: g.Seats}] = i
	}
	done := map[int]Result{}
	r := bufio.NewReaderSize(j.f, 4096)
	var end int64 // the end of the last whole line
	for n := 1; ; n++ {
		line, err := readLine(r)
		if errors.Is(err, io.EOF) {
			if len(line) > 0 { // cut short by a stopped write
				if err := j.f.Truncate(end); err != nil {
					return nil, err
				}
			}
			break
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		end += int64(len(line)) + 1
		if n == 1 {
			if err := sameHeader(line, h); err != nil {
				return nil, err
			}
			continue
		}
		var x journalLine
		if err := json.Unmarshal(line, &x); err != nil {
			return nil, fmt.Errorf("line %d: not a game's result (%d bytes)", n, len(line))
		}
		key := x
		key.Scores = [Seats]int{}
		if i, ok := index[key]; ok {
			done[i] = Result(x)
		}
	}
	_, err = j.f.Seek(end, io.SeekStart)
	return done, err
}

// readLine reads a line without its newline: io.EOF with what is left
// when the input ends before one.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxJournalLine {
			return nil, fmt.Errorf("longer than %d bytes", maxJournalLine)
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line, err
		}
	}
}

// sameHeader reports which field of the header line differs from h.
func sameHeader(line []byte, h JournalHeader) error {
	var got JournalHeader
	if err := json.Unmarshal(line, &got); err != nil || got.Journal == 0 {
		return errors.New("not a jgym journal (its first line is no journal header)")
	}
	if got.Journal != h.Journal {
		return fmt.Errorf("journal format %d, this jgym writes %d", got.Journal, h.Journal)
	}
	differ := func(what string, a, b any) error {
		x, _ := json.Marshal(a)
		y, _ := json.Marshal(b)
		if bytes.Equal(x, y) {
			return nil
		}
		return fmt.Errorf("its games were played with another %s (%s there, %s here): give another file", what, clip(x), clip(y))
	}
	for _, c := range []struct {
		what string
		a, b any
	}{{"game", got.Game, h.Game}, {"players", got.Players, h.Players}, {"configuration", got.Config, h.Config}} {
		if err := differ(c.what, c.a, c.b); err != nil {
			return err
		}
	}
	keys := make([]string, 0, len(got.Extra)+len(h.Extra))
	for k := range got.Extra {
		keys = append(keys, k)
	}
	for k := range h.Extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if err := differ(k, got.Extra[k], h.Extra[k]); err != nil {
			return err
		}
	}
	return nil
}

// clip shortens what an error quotes from a file.
func clip(b []byte) string {
	const n = 80
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// Add appends game r's result and writes it through to the file, so that
// a game once reported is never played again.
func (j *Journal) Add(r Result) error {
	line, err := json.Marshal(journalLine(r))
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.w.Write(line)
	j.w.WriteByte('\n')
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	err := j.w.Flush()
	return errors.Join(err, j.f.Close())
}
