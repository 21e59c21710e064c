package course

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrTrace is wrapped by every trace parsing error.
var ErrTrace = errors.New("bad trace")

// ParseError reports where and why a trace is malformed.
type ParseError struct {
	Line  int    // 1-based line number
	Round int    // round of the block being read; -1 in the header
	Msg   string // what was expected and what was found
}

func (e *ParseError) Error() string {
	if e.Round < 0 {
		return fmt.Sprintf("%v: line %d (header): %s", ErrTrace, e.Line, e.Msg)
	}
	return fmt.Sprintf("%v: line %d (round %d): %s", ErrTrace, e.Line, e.Round, e.Msg)
}

// Unwrap makes errors.Is(err, ErrTrace) true.
func (e *ParseError) Unwrap() error { return ErrTrace }

// TraceReader reads the lines of a .res trace, every one checked to be
// exactly what the course engine writes: lines end with a newline, are at
// most a maximum length, and integers are written canonically. Its errors
// are *ParseError values at the current Line and Round. A game's trace
// parser embeds one and reads its own layout with it.
type TraceReader struct {
	// Line is the number of the last line read.
	Line int
	// Round is the round of the block being read, for errors; -1 (the
	// header) at first.
	Round int
	// SayWant makes the errors of a last line without its newline, and of
	// a read error, also say what was wanted there (Pandemic's messages).
	SayWant bool

	r       *bufio.Reader
	maxLine int
}

// NewTraceReader returns a reader of the trace r, plain or gzip-compressed,
// whose lines hold at most maxLine bytes.
func NewTraceReader(r io.Reader, maxLine int) (*TraceReader, error) {
	br := bufio.NewReaderSize(r, maxLine)
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: gzip: %v", ErrTrace, err)
		}
		br = bufio.NewReaderSize(zr, maxLine)
	}
	return &TraceReader{Round: -1, r: br, maxLine: maxLine}, nil
}

// Fail returns a *ParseError at the current line and round.
func (p *TraceReader) Fail(format string, a ...any) error {
	return &ParseError{Line: p.Line, Round: p.Round, Msg: fmt.Sprintf(format, a...)}
}

// Next reads the next line without its newline; what says what was wanted
// there, for errors. The slice is valid until the next read.
func (p *TraceReader) Next(what string) ([]byte, error) {
	p.Line++
	b, err := p.r.ReadSlice('\n')
	switch {
	case err == nil:
		return b[:len(b)-1], nil
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, p.Fail("line longer than %d bytes, want %s", p.maxLine, what)
	case errors.Is(err, io.EOF) && len(b) == 0:
		return nil, p.Fail("unexpected end of file, want %s", what)
	case errors.Is(err, io.EOF) && p.SayWant:
		return nil, p.Fail("last line %s does not end with a newline, want %s", Quote(b), what)
	case errors.Is(err, io.EOF):
		return nil, p.Fail("last line %s does not end with a newline", Quote(b))
	case p.SayWant:
		return nil, p.Fail("read error: %v, want %s", err, what)
	}
	return nil, p.Fail("read error: %v", err)
}

// AtEOF reports whether the input is exhausted, reading nothing.
func (p *TraceReader) AtEOF() (bool, error) {
	_, err := p.r.Peek(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	if err != nil {
		return false, p.Fail("read error: %v", err)
	}
	return false, nil
}

// End checks that nothing follows the last state of a trace of rounds
// rounds.
func (p *TraceReader) End(rounds int) error {
	eof, err := p.AtEOF()
	if err != nil || eof {
		return err
	}
	p.Line++
	return p.Fail("data after the last state (round %d)", rounds)
}

// Literal reads a line that must be exactly want.
func (p *TraceReader) Literal(want string) error {
	got, err := p.Next(strconv.Quote(want))
	if err != nil {
		return err
	}
	if string(got) != want {
		return p.Fail("want %q, got %s", want, Quote(got))
	}
	return nil
}

// IntAfter reads a line "<prefix><integer>".
func (p *TraceReader) IntAfter(prefix string) (int, error) {
	got, err := p.Next(strconv.Quote(prefix + "<integer>"))
	if err != nil {
		return 0, err
	}
	if !bytes.HasPrefix(got, []byte(prefix)) {
		return 0, p.Fail("want %q followed by an integer, got %s", prefix, Quote(got))
	}
	n, ok := CanonInt(got[len(prefix):])
	if !ok {
		return 0, p.Fail("after %q want an integer, got %s", prefix, Quote(got[len(prefix):]))
	}
	return n, nil
}

// Ints reads a line "<label> a b ..." of len(dst) integers separated by
// single spaces into dst.
func (p *TraceReader) Ints(label string, dst []int) error {
	n := len(dst)
	got, err := p.Next(strconv.Quote(fmt.Sprintf("%s <%d integers>", label, n)))
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(got, []byte(label+" ")) {
		return p.Fail("want %q and %d integers separated by single spaces, got %s", label, n, Quote(got))
	}
	var buf [8]*int
	ptrs := buf[:0]
	for i := range dst {
		ptrs = append(ptrs, &dst[i])
	}
	if bad := IntFields(got[len(label)+1:], ptrs); bad >= 0 {
		return p.Fail("%s: want %d integers separated by single spaces, value %d is not: %s", label, n, bad, Quote(got))
	}
	return nil
}

// Names reads the names line: prefix, then one space and a name per entry
// of dst, each name 1 to 12 printable characters without spaces (ValidName).
// format says what was wanted, for errors, as "want <format>, got <line>".
func (p *TraceReader) Names(prefix, format string, dst []string) error {
	got, err := p.Next(fmt.Sprintf(`"names" and %d names`, len(dst)))
	if err != nil {
		return err
	}
	rest, ok := strings.CutPrefix(string(got), prefix)
	f := strings.Split(rest, " ")
	if !ok || len(f) != 1+len(dst) || f[0] != "" {
		return p.Fail("want %s, got %s", format, Quote(got))
	}
	for i := range dst {
		name := f[1+i]
		if !ValidName(name) {
			return p.Fail("name %d: want 1 to %d printable characters without spaces, got %q", i, MaxNameLen, name)
		}
		dst[i] = name
	}
	return nil
}

// MaxNameLen is the longest player name a trace holds (the kits' limit).
const MaxNameLen = 12

// ValidName reports whether a player name fits a trace's names line: 1 to
// MaxNameLen printable characters without spaces.
func ValidName(name string) bool {
	return name != "" && len(name) <= MaxNameLen && !strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f })
}

// Quote quotes a line for a message, cut after 48 bytes.
func Quote(b []byte) string {
	if len(b) > 48 {
		return strconv.Quote(string(b[:48])) + "..."
	}
	return strconv.Quote(string(b))
}

// CanonInt parses a decimal integer written as the engine writes it: no
// sign but '-', no leading zeros, no "-0", within 32 bits.
func CanonInt(s []byte) (int, bool) {
	neg := len(s) > 0 && s[0] == '-'
	digits := s
	if neg {
		digits = s[1:]
	}
	if len(digits) == 0 || len(digits) > 10 || (digits[0] == '0' && (len(digits) > 1 || neg)) {
		return 0, false
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, n >= -1<<31 && n < 1<<31
}

// IntFields reads len(dst) integers separated by single spaces from b,
// which must hold nothing else; it returns the index of the first bad one,
// or -1.
func IntFields(b []byte, dst []*int) int {
	for i, d := range dst {
		end := bytes.IndexByte(b, ' ')
		if i == len(dst)-1 {
			end = len(b)
		} else if end < 0 {
			return i
		}
		n, ok := CanonInt(b[:end])
		if !ok {
			return i
		}
		*d = n
		b = b[min(end+1, len(b)):]
	}
	return -1
}

// MoveBlock describes a block of moves in a trace: its keyword line
// ("movements"), the noun of one of its lines in messages ("movement"),
// how a line's direction is wanted ("<direction>") and the direction
// characters ("bwrxtylzudn").
type MoveBlock struct {
	Keyword, Noun, Want, Chars string
}

// ReadMoves reads a block of moves: the keyword line, then one line
// "<id> <c>" per move, c a direction character, and "-1"; at most max
// moves. mk makes the move of a unit id and a character, false when c is
// no direction of the block.
func ReadMoves[M any](p *TraceReader, b MoveBlock, max int, mk func(id int, c byte) (M, bool)) ([]M, error) {
	if err := p.Literal(b.Keyword); err != nil {
		return nil, err
	}
	moves := []M{}
	for {
		got, err := p.Next(fmt.Sprintf(`a %s "<id> %s" or "-1"`, b.Noun, b.Want))
		if err != nil {
			return nil, err
		}
		if string(got) == "-1" {
			return moves, nil
		}
		if len(moves) == max {
			return nil, p.Fail("more %s lines than units (%d), want \"-1\"", b.Noun, len(moves))
		}
		sp := bytes.IndexByte(got, ' ')
		var id int
		var m M
		ok := sp > 0 && sp == len(got)-2
		if ok {
			id, ok = CanonInt(got[:sp])
			ok = ok && id >= 0
		}
		if ok {
			m, ok = mk(id, got[sp+1])
		}
		if !ok {
			return nil, p.Fail("want a %s \"<id> <one of %s>\" or \"-1\", got %s", b.Noun, b.Chars, Quote(got))
		}
		moves = append(moves, m)
	}
}
