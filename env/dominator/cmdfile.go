package dominator

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrCommandFile is wrapped by every command-file error.
var ErrCommandFile = errors.New("bad command file")

// CommandLog holds the command lists each player's object held after its
// play() in each round (SPEC §15.1): Rounds[r][p] for trace round r+1, in
// the player's view, directions as passed (possibly invalid).
type CommandLog struct {
	Rounds [][NumPlayers][]Command
	// Present[r][p] reports whether the file has a line for round r and
	// player p; rounds past its end (or all, when it is nil) are present.
	// A missing line means the player never finished its play() (it
	// crashed, and the course program with it): Complete is false.
	Present [][NumPlayers]bool
}

// maxLogRounds bounds the round numbers a command file may name.
const maxLogRounds = maxRounds

// ParseCommandLog reads a command file: one line per round and player,
// "r p n id1 dir1 ... idn dirn", all integers. Lines may come in any
// order; a (round, player) given twice is an error.
func ParseCommandLog(r io.Reader) (*CommandLog, error) {
	log := &CommandLog{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	var nums []int
	for ln := 1; sc.Scan(); ln++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		nums = nums[:0]
		for _, s := range f {
			n, err := strconv.ParseInt(s, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %q is not a 32-bit integer", ErrCommandFile, ln, s)
			}
			nums = append(nums, int(n))
		}
		if len(nums) < 3 {
			return nil, fmt.Errorf("%w: line %d: want \"round player n id dir ...\"", ErrCommandFile, ln)
		}
		rd, p, n := nums[0], nums[1], nums[2]
		switch {
		case rd < 0 || rd >= maxLogRounds:
			return nil, fmt.Errorf("%w: line %d: round %d out of range", ErrCommandFile, ln, rd)
		case p < 0 || p >= NumPlayers:
			return nil, fmt.Errorf("%w: line %d: player %d out of range", ErrCommandFile, ln, p)
		case n < 0 || len(nums) != 3+2*n:
			return nil, fmt.Errorf("%w: line %d: count %d does not match %d id/dir pairs", ErrCommandFile, ln, n, (len(nums)-3)/2)
		}
		for len(log.Rounds) <= rd {
			log.Rounds = append(log.Rounds, [NumPlayers][]Command{})
			log.Present = append(log.Present, [NumPlayers]bool{})
		}
		if log.Present[rd][p] {
			return nil, fmt.Errorf("%w: line %d: round %d player %d given twice", ErrCommandFile, ln, rd, p)
		}
		log.Present[rd][p] = true
		cmds := make([]Command, n)
		for i := range cmds {
			cmds[i] = Command{ID: nums[3+2*i], Dir: Dir(nums[4+2*i])}
		}
		log.Rounds[rd][p] = cmds
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCommandFile, err)
	}
	return log, nil
}

// Round returns the command lists of round r (r = 0 for trace round 1);
// empty lists past the end.
func (l *CommandLog) Round(r int) *[NumPlayers][]Command {
	if r < len(l.Rounds) {
		return &l.Rounds[r]
	}
	return &[NumPlayers][]Command{}
}

// Complete reports whether the log has the lines of all four players for
// round r. Logs built with Record are always complete.
func (l *CommandLog) Complete(r int) bool {
	if r < 0 || r >= len(l.Rounds) {
		return false
	}
	return r >= len(l.Present) || l.Present[r] == allPresent
}

// Write writes the log in the command-file format.
func (l *CommandLog) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var b []byte
	for r := range l.Rounds {
		for p := 0; p < NumPlayers; p++ {
			if r < len(l.Present) && !l.Present[r][p] {
				continue
			}
			b = strconv.AppendInt(b[:0], int64(r), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(p), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(len(l.Rounds[r][p])), 10)
			for _, c := range l.Rounds[r][p] {
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(c.ID), 10)
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(c.Dir), 10)
			}
			b = append(b, '\n')
			bw.Write(b)
		}
	}
	return bw.Flush()
}

// Record appends one round's lists to the log.
func (l *CommandLog) Record(cmds *[NumPlayers][]Command) {
	var c [NumPlayers][]Command
	for p := range c {
		c[p] = append([]Command(nil), cmds[p]...)
	}
	if l.Present != nil {
		for len(l.Present) < len(l.Rounds) {
			l.Present = append(l.Present, allPresent)
		}
		l.Present = append(l.Present, allPresent)
	}
	l.Rounds = append(l.Rounds, c)
}

var allPresent = [NumPlayers]bool{true, true, true, true}
