package arena

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress draws a progress bar on a terminal, or prints one line at the
// end otherwise. A nil writer shows nothing.
type progress struct {
	w     io.Writer
	tty   bool
	total int
	start time.Time
	mu    sync.Mutex
	done  int
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, tty: isTerminal(w), total: total, start: time.Now()}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// add counts a finished game.
func (p *progress) add() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.w == nil || !p.tty {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || p.done == p.total {
		p.last = now
		p.draw()
	}
}

func (p *progress) draw() {
	const width = 30
	fill := width * p.done / max(p.total, 1)
	el := time.Since(p.start)
	eta := ""
	if p.done > 0 && p.done < p.total {
		left := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		eta = " eta " + left.Round(time.Second/10).String()
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d games %s%s   ", strings.Repeat("#", fill), strings.Repeat(".", width-fill),
		p.done, p.total, el.Round(time.Second/10), eta)
}

// finish ends the bar, or prints the one line.
func (p *progress) finish() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	el := time.Since(p.start)
	if p.tty {
		p.draw()
		fmt.Fprintln(p.w)
		return
	}
	per := time.Duration(0)
	if p.done > 0 {
		per = el / time.Duration(p.done)
	}
	fmt.Fprintf(p.w, "%d/%d games in %s (%s per game)\n", p.done, p.total, el.Round(time.Millisecond), per.Round(10*time.Microsecond))
}
