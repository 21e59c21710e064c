package pandemic

import (
	"bytes"

	"jgym/course"
)

// spaceInts reads a line of n integers each preceded by one space.
func (p *traceParser) spaceInts(what string, dst []int) error {
	got, err := p.Next(what)
	if err != nil {
		return err
	}
	b := got
	for k := range dst {
		if len(b) == 0 || b[0] != ' ' {
			return p.Fail("%s: want %d integers each preceded by one space, got %s", what, len(dst), course.Quote(got))
		}
		b = b[1:]
		end := bytes.IndexByte(b, ' ')
		if end < 0 {
			end = len(b)
		}
		n, ok := course.CanonInt(b[:end])
		if !ok {
			return p.Fail("%s: value %d is not an integer: %s", what, k, course.Quote(got))
		}
		dst[k] = n
		b = b[end:]
	}
	if len(b) != 0 {
		return p.Fail("%s: want %d integers, got more: %s", what, len(dst), course.Quote(got))
	}
	return nil
}
