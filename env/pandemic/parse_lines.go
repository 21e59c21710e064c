package pandemic

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Reading the lines of a trace: every line is checked to be exactly what
// the engine writes.

// readLine reads the next line without its newline; on failure it returns
// a reason, a format with one %s for what was wanted. The slice is valid
// until the next read.
func (p *traceParser) readLine() ([]byte, string) {
	p.line++
	b, err := p.r.ReadSlice('\n')
	switch {
	case err == nil:
		return b[:len(b)-1], ""
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Sprintf("line longer than %d bytes, want %%s", maxTraceLine)
	case errors.Is(err, io.EOF) && len(b) == 0:
		return nil, "unexpected end of file, want %s"
	case errors.Is(err, io.EOF):
		return nil, "last line " + strings.ReplaceAll(quoteTrunc(b), "%", "%%") + " does not end with a newline, want %s"
	}
	return nil, "read error: " + strings.ReplaceAll(err.Error(), "%", "%%") + ", want %s"
}

// next reads the next line without its newline.
func (p *traceParser) next(what string) ([]byte, error) {
	b, why := p.readLine()
	if why != "" {
		return nil, p.fail(why, what)
	}
	return b, nil
}

// atEOF reports whether the input is exhausted.
func (p *traceParser) atEOF() (bool, error) {
	_, err := p.r.Peek(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	if err != nil {
		return false, p.fail("read error: %v", err)
	}
	return false, nil
}

func quoteTrunc(b []byte) string {
	if len(b) > 48 {
		return strconv.Quote(string(b[:48])) + "..."
	}
	return strconv.Quote(string(b))
}

// literal reads a line that must be exactly want.
func (p *traceParser) literal(want string) error {
	got, why := p.readLine()
	if why != "" {
		return p.fail(why, strconv.Quote(want))
	}
	if string(got) != want {
		return p.fail("want %q, got %s", want, quoteTrunc(got))
	}
	return nil
}

// canonInt parses a decimal integer written as the engine writes it: no
// sign but '-', no leading zeros, no "-0", within 32 bits.
func canonInt(s []byte) (int, bool) {
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

// intAfter reads a line "<prefix><int>".
func (p *traceParser) intAfter(prefix string) (int, error) {
	got, why := p.readLine()
	if why != "" {
		return 0, p.fail(why, strconv.Quote(prefix+"<integer>"))
	}
	if !bytes.HasPrefix(got, []byte(prefix)) {
		return 0, p.fail("want %q followed by an integer, got %s", prefix, quoteTrunc(got))
	}
	n, ok := canonInt(got[len(prefix):])
	if !ok {
		return 0, p.fail("after %q want an integer, got %s", prefix, quoteTrunc(got[len(prefix):]))
	}
	return n, nil
}

// intFields reads integers separated by single spaces from b, which must
// hold nothing else; it returns the index of the first bad one, or -1.
func intFields(b []byte, dst []*int) int {
	for i, d := range dst {
		end := bytes.IndexByte(b, ' ')
		if i == len(dst)-1 {
			end = len(b)
		} else if end < 0 {
			return i
		}
		n, ok := canonInt(b[:end])
		if !ok {
			return i
		}
		*d = n
		b = b[min(end+1, len(b)):]
	}
	return -1
}

// spaceInts reads a line of n integers each preceded by one space.
func (p *traceParser) spaceInts(what string, dst []int) error {
	got, err := p.next(what)
	if err != nil {
		return err
	}
	b := got
	for k := range dst {
		if len(b) == 0 || b[0] != ' ' {
			return p.fail("%s: want %d integers each preceded by one space, got %s", what, len(dst), quoteTrunc(got))
		}
		b = b[1:]
		end := bytes.IndexByte(b, ' ')
		if end < 0 {
			end = len(b)
		}
		n, ok := canonInt(b[:end])
		if !ok {
			return p.fail("%s: value %d is not an integer: %s", what, k, quoteTrunc(got))
		}
		dst[k] = n
		b = b[end:]
	}
	if len(b) != 0 {
		return p.fail("%s: want %d integers, got more: %s", what, len(dst), quoteTrunc(got))
	}
	return nil
}
