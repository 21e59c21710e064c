package cppbot

import (
	"bytes"
	"fmt"
	"strconv"
)

// Protocol is a game's side of its runner's messages: S is the state a
// player sees, C one command of its answer.
type Protocol[S, C any] interface {
	// AppendInit appends the init message of seat me of a game with the
	// seed, whose first state is s.
	AppendInit(b []byte, me, seed int, s S) []byte
	// AppendRound appends the message of one round: the state s.
	AppendRound(b []byte, s S) []byte
	// ParseCommands parses the bot's answer into dst (ParseCommands).
	ParseCommands(line []byte, dst []C) ([]C, error)
	// Round is the number of s's round in errors, and whether it is the
	// last round of its game.
	Round(s S) (round int, last bool)
}

// Bot is a C++ bot playing one seat of a game through its Protocol: the
// first round sends the init message and waits for the runner, then every
// round sends the state and reads the commands. A failure (a crash, a
// hang, garbage, too many commands) ends the bot: it gives no commands
// any more and Err reports a *BotError. A game's bot adapter embeds one
// (crematoria.CppBot).
type Bot[S, C any] struct {
	p        *Process
	proto    Protocol[S, C]
	me, seed int
	ready    bool
	done     bool
	buf      []byte
	cmds     []C
}

// NewBot starts prog for seat me of a game with the given seed.
func NewBot[S, C any](prog *Program, proto Protocol[S, C], me, seed int) Bot[S, C] {
	return Bot[S, C]{p: prog.Start(me, seed), proto: proto, me: me, seed: seed}
}

// Process returns the bot's process.
func (b *Bot[S, C]) Process() *Process { return b.p }

// Err returns the bot's error (a *BotError), or nil.
func (b *Bot[S, C]) Err() error { return b.p.Err() }

// Close kills the bot's process.
func (b *Bot[S, C]) Close() error { return b.p.Close() }

// Commands sends the state of a round to the bot and returns the commands
// it answers, valid until the next call; after an error, or after the
// last round, none.
func (b *Bot[S, C]) Commands(s S) []C {
	if b.done || b.p.Err() != nil {
		return nil
	}
	if !b.ready {
		b.buf = b.proto.AppendInit(b.buf[:0], b.me, b.seed, s)
		if b.p.Ready(b.buf) != nil {
			return nil
		}
		b.ready = true
	}
	round, last := b.proto.Round(s)
	b.buf = b.proto.AppendRound(b.buf[:0], s)
	line, err := b.p.Ask(round, b.buf)
	if err != nil {
		return nil
	}
	if b.cmds, err = b.proto.ParseCommands(line, b.cmds); err != nil {
		b.p.Fail(round, err)
		return nil
	}
	if last {
		b.done = true
		b.p.Finish()
	}
	return b.cmds
}

// ParseCommands parses the answer "commands <n> <id> <dir> ..." into dst:
// at most max commands, each number a 32-bit integer of at most digits
// characters, and mk makes a command of an id and a direction (false: a
// bad command). Any other answer is an ErrProtocol error.
func ParseCommands[C any](line []byte, max, digits int, dst []C, mk func(id, dir int) (C, bool)) ([]C, error) {
	dst = dst[:0]
	bad := func(why string) ([]C, error) {
		return dst[:0], fmt.Errorf("%w: %s in %s", ErrProtocol, why, Quote(line))
	}
	rest, ok := bytes.CutPrefix(bytes.TrimRight(line, "\n"), []byte("commands "))
	if !ok {
		return bad("want \"commands <n> ...\"")
	}
	next := func() (int, bool) {
		rest = bytes.TrimLeft(rest, " ")
		i := bytes.IndexByte(rest, ' ')
		if i < 0 {
			i = len(rest)
		}
		tok := rest[:i]
		rest = rest[i:]
		if len(tok) == 0 || len(tok) > digits {
			return 0, false
		}
		n, err := strconv.ParseInt(string(tok), 10, 32)
		return int(n), err == nil
	}
	n, ok := next()
	if !ok || n < 0 || n > max {
		return bad("bad command count")
	}
	for x := 0; x < n; x++ {
		id, ok1 := next()
		d, ok2 := next()
		if !ok1 || !ok2 {
			return bad("bad command")
		}
		c, ok := mk(id, d)
		if !ok {
			return bad("bad command")
		}
		dst = append(dst, c)
	}
	if len(bytes.TrimSpace(rest)) != 0 {
		return bad("extra data")
	}
	return dst, nil
}

// AppendInts appends a line of the protocol: the label and the integers,
// each preceded by a space.
func AppendInts(b []byte, label string, v []int) []byte {
	b = append(b, label...)
	for _, x := range v {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, '\n')
}

// AppendList appends a space, the length of v and its integers, each
// preceded by a space: an id list of the protocol.
func AppendList(b []byte, v []int) []byte {
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(v)), 10)
	for _, x := range v {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return b
}
