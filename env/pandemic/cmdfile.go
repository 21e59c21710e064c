package pandemic

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ErrCommandFile is wrapped by every command-file parsing error.
var ErrCommandFile = errors.New("bad command file")

// CommandLog holds the command lists each player handed to the engine in
// each round: Rounds[r][p] (SPEC §15.4).
type CommandLog struct {
	Rounds [][NumPlayers][]Command
}

// maxLogRounds bounds the round numbers a command file may name.
const maxLogRounds = MaxRounds

// ParseCommandLog reads a command file: one line per (round, player),
// "r p n id1 dir1 ... idn dirn". Ids and directions may be any integers
// (the player-side filter checks neither; directions must fit the kit's
// enum range -128..127 here). Lines may come in any order; a (round,
// player) given twice is an error.
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
		case n < 0 || n > MaxCommands || len(nums) != 3+2*n:
			return nil, fmt.Errorf("%w: line %d: count %d does not match %d id/dir pairs (max %d)",
				ErrCommandFile, ln, n, (len(nums)-3)/2, MaxCommands)
		case seen[[2]int{rd, p}]:
			return nil, fmt.Errorf("%w: line %d: round %d player %d given twice", ErrCommandFile, ln, rd, p)
		}
		seen[[2]int{rd, p}] = true
		for len(log.Rounds) <= rd {
			log.Rounds = append(log.Rounds, [NumPlayers][]Command{})
		}
		cmds := make([]Command, n)
		ids := make(map[int]bool, n)
		for i := 0; i < n; i++ {
			id, d := nums[3+2*i], nums[4+2*i]
			if d < math.MinInt8 || d > math.MaxInt8 {
				return nil, fmt.Errorf("%w: line %d: direction %d out of range", ErrCommandFile, ln, d)
			}
			if ids[id] {
				// Recorded lists passed the player-side filter (SPEC §8.1).
				return nil, fmt.Errorf("%w: line %d: unit %d commanded twice", ErrCommandFile, ln, id)
			}
			ids[id] = true
			cmds[i] = Command{ID: id, Dir: Dir(d)}
		}
		log.Rounds[rd][p] = cmds
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCommandFile, err)
	}
	return log, nil
}

// Round returns the command lists of round r (empty lists past the end).
func (l *CommandLog) Round(r int) *[NumPlayers][]Command {
	if r < len(l.Rounds) {
		return &l.Rounds[r]
	}
	return &[NumPlayers][]Command{}
}

// Write writes the log in the command-file format.
func (l *CommandLog) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var b []byte
	for r := range l.Rounds {
		for p := 0; p < NumPlayers; p++ {
			b = strconv.AppendInt(b[:0], int64(r), 10)
			b = append(b, ' ', '0'+byte(p), ' ')
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
