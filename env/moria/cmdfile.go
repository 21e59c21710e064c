package moria

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrCommandFile is wrapped by every command-file parsing error.
var ErrCommandFile = errors.New("bad command file")

// CommandLog holds the command lists each player handed to the engine in
// each round (SPEC §15.1): Rounds[r-1][p] for round r (rounds are numbered
// from 1, as in the files).
type CommandLog struct {
	Rounds [][NumPlayers][]Command
}

// maxLogRounds bounds the round numbers a command file may name.
const maxLogRounds = 100000

// ParseCommandLog reads a command file: one line per (round, player),
// "r p n id1 dir1 ... idn dirn", rounds from 1, directions numeric 0..8.
// Lines may come in any order; a (round, player) given twice is an error.
func ParseCommandLog(r io.Reader) (*CommandLog, error) {
	log := &CommandLog{}
	seen := map[[2]int]bool{}
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
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %q is not an integer", ErrCommandFile, ln, s)
			}
			nums = append(nums, n)
		}
		if len(nums) < 3 {
			return nil, fmt.Errorf("%w: line %d: want \"round player n id dir ...\"", ErrCommandFile, ln)
		}
		rd, p, n := nums[0], nums[1], nums[2]
		switch {
		case rd < 1 || rd > maxLogRounds:
			return nil, fmt.Errorf("%w: line %d: round %d out of range 1..%d", ErrCommandFile, ln, rd, maxLogRounds)
		case p < 0 || p >= NumPlayers:
			return nil, fmt.Errorf("%w: line %d: player %d out of range", ErrCommandFile, ln, p)
		case n < 0 || len(nums) != 3+2*n:
			return nil, fmt.Errorf("%w: line %d: count %d does not match %d id/dir pairs", ErrCommandFile, ln, n, (len(nums)-3)/2)
		case seen[[2]int{rd, p}]:
			return nil, fmt.Errorf("%w: line %d: round %d player %d given twice", ErrCommandFile, ln, rd, p)
		}
		seen[[2]int{rd, p}] = true
		for len(log.Rounds) < rd {
			log.Rounds = append(log.Rounds, [NumPlayers][]Command{})
		}
		cmds := make([]Command, n)
		for i := range cmds {
			d := nums[4+2*i]
			if d < 0 || d >= int(DirSize) {
				// Recorded lists passed the player filter, so a bad
				// direction means a corrupt file.
				return nil, fmt.Errorf("%w: line %d: direction %d out of range", ErrCommandFile, ln, d)
			}
			cmds[i] = Command{ID: nums[3+2*i], Dir: Dir(d)}
		}
		log.Rounds[rd-1][p] = cmds
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCommandFile, err)
	}
	return log, nil
}

// Round returns the command lists of round r (from 1; empty lists past the
// end). A game in state k plays round k+1: Round(g.Round+1).
func (l *CommandLog) Round(r int) *[NumPlayers][]Command {
	if r >= 1 && r <= len(l.Rounds) {
		return &l.Rounds[r-1]
	}
	return &[NumPlayers][]Command{}
}

// Write writes the log in the command-file format.
func (l *CommandLog) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var b []byte
	for r := range l.Rounds {
		for p := 0; p < NumPlayers; p++ {
			b = strconv.AppendInt(b[:0], int64(r+1), 10)
			b = append(b, ' ', byte('0'+p), ' ')
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
	l.Rounds = append(l.Rounds, c)
}
