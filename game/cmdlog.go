package game

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// CommandLog holds the command lists each player handed to the engine in
// each round, after the player-side filter: what a course program's
// command file records (docs/verify.md). With it a game replays exactly.
type CommandLog[D Dir] struct {
	// Rounds[k][p] is player p's list of the k-th round played (k from 0).
	Rounds [][NumSeats][]Command[D]
	// Present[k][p] reports whether the file has a line for that round and
	// player; rounds past its end (or all, when it is nil) are present. A
	// missing line means the player never finished its turn (it crashed,
	// and the course program with it).
	Present [][NumSeats]bool
	// First is the number of the first round in the file
	// (Def.LogFirstRound).
	First int
}

// maxLogRounds bounds the round numbers a command file may name.
const maxLogRounds = 100000

// ParseCommandLog reads a command file: one line per round and player,
// "r p n id1 dir1 ... idn dirn", integers, rounds numbered from first,
// directions within dirs (inclusive). Lines may come in any order; a
// (round, player) given twice is an error, and so is a line of more than
// MaxCommands commands.
func ParseCommandLog[D Dir](r io.Reader, first int, dirs [2]int) (*CommandLog[D], error) {
	log := &CommandLog[D]{First: first}
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
		k := rd - first
		switch {
		case k < 0 || k >= maxLogRounds:
			return nil, fmt.Errorf("%w: line %d: round %d out of range %d..%d", ErrCommandFile, ln, rd, first, first+maxLogRounds-1)
		case p < 0 || p >= NumSeats:
			return nil, fmt.Errorf("%w: line %d: player %d out of range", ErrCommandFile, ln, p)
		case n < 0 || n > MaxCommands || len(nums) != 3+2*n:
			return nil, fmt.Errorf("%w: line %d: count %d does not match %d id/dir pairs (max %d)", ErrCommandFile, ln, n, (len(nums)-3)/2, MaxCommands)
		}
		for len(log.Rounds) <= k {
			log.Rounds = append(log.Rounds, [NumSeats][]Command[D]{})
			log.Present = append(log.Present, [NumSeats]bool{})
		}
		if log.Present[k][p] {
			return nil, fmt.Errorf("%w: line %d: round %d player %d given twice", ErrCommandFile, ln, rd, p)
		}
		log.Present[k][p] = true
		cmds := make([]Command[D], n)
		for i := range cmds {
			d := nums[4+2*i]
			if d < dirs[0] || d > dirs[1] {
				// Recorded lists passed the player-side filter, so a bad
				// direction means a corrupt file.
				return nil, fmt.Errorf("%w: line %d: direction %d out of range %d..%d", ErrCommandFile, ln, d, dirs[0], dirs[1])
			}
			cmds[i] = Command[D]{ID: nums[3+2*i], Dir: D(d)}
		}
		log.Rounds[k][p] = cmds
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCommandFile, err)
	}
	return log, nil
}

// Round returns the command lists of the k-th round played (k from 0;
// empty lists past the end).
func (l *CommandLog[D]) Round(k int) *[NumSeats][]Command[D] {
	if k >= 0 && k < len(l.Rounds) {
		return &l.Rounds[k]
	}
	return &[NumSeats][]Command[D]{}
}

// Complete reports whether the log has the lines of all four players for
// the k-th round. Logs a Match records are always complete.
func (l *CommandLog[D]) Complete(k int) bool {
	if k < 0 || k >= len(l.Rounds) {
		return false
	}
	return k >= len(l.Present) || l.Present[k] == allPresent
}

var allPresent = [NumSeats]bool{true, true, true, true}

// Check checks that the log could come from the player-side filter r of a
// game of the given number of rounds: no more rounds, at most MaxCommands
// per list, one command per unit.
func (l *CommandLog[D]) Check(rounds int, r *OrderRules[D]) error {
	if len(l.Rounds) > rounds {
		return fmt.Errorf("%w: %d rounds of commands for a game of %d rounds", ErrCommandFile, len(l.Rounds), rounds)
	}
	for k := range l.Rounds {
		for p, cmds := range l.Rounds[k] {
			if len(cmds) > MaxCommands {
				return fmt.Errorf("%w: round %d player %d: %d commands (max %d)", ErrCommandFile, k+l.First, p, len(cmds), MaxCommands)
			}
			seen := make(map[int]bool, len(cmds))
			for _, c := range cmds {
				if r.SkipMinusOne && c.ID == -1 {
					continue
				}
				if seen[c.ID] {
					return fmt.Errorf("%w: round %d player %d: unit %d commanded twice (the player-side filter keeps one)", ErrCommandFile, k+l.First, p, c.ID)
				}
				seen[c.ID] = true
			}
		}
	}
	return nil
}

// Write writes the log in the command-file format: a line per round and
// player present, rounds numbered from l.First.
func (l *CommandLog[D]) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var b []byte
	for k := range l.Rounds {
		for p := 0; p < NumSeats; p++ {
			if k < len(l.Present) && !l.Present[k][p] {
				continue
			}
			b = strconv.AppendInt(b[:0], int64(k+l.First), 10)
			b = append(b, ' ', byte('0'+p), ' ')
			b = strconv.AppendInt(b, int64(len(l.Rounds[k][p])), 10)
			for _, c := range l.Rounds[k][p] {
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

// Record appends one round's lists to the log (copies).
func (l *CommandLog[D]) Record(cmds *[NumSeats][]Command[D]) {
	var c [NumSeats][]Command[D]
	for p := range c {
		c[p] = append([]Command[D](nil), cmds[p]...)
	}
	l.Rounds = append(l.Rounds, c)
	if l.Present != nil {
		for len(l.Present) < len(l.Rounds) {
			l.Present = append(l.Present, allPresent)
		}
	}
}
