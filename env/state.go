package env

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
)

// Errors of saved states and trace starts.
var (
	// ErrBadState is wrapped by every error of a saved state or a start
	// position that cannot be restored: another game's or another setup's
	// state, a truncated, corrupt or forged one, a trace that its commands
	// do not reproduce, a round out of range.
	ErrBadState = errors.New("bad saved state or trace start")
	// ErrUnsaved means a game in progress cannot be saved: a seat plays a
	// bot whose state a saved state cannot hold (a C++ bot in its own
	// process), or the instance has no game.
	ErrUnsaved = errors.New("state cannot be saved")
)

// MaxStateBytes bounds a saved state, its game's part and the env's
// header together: a state is a game's command lists (a few bytes a
// command), so a whole game of the four course games fits with room to
// spare. Restore refuses a larger one before decoding it.
const MaxStateBytes = 4 << 20

// MaxTraceBytes bounds a trace, and its command file, a trace start
// reads: four times the largest reference trace of the course games
// (about 2 MB).
const MaxTraceBytes = 8 << 20

// Saver is implemented by instances whose games can be saved and restored
// at any round (every Host's instance whose table is a StateTable).
//
// A saved state is opaque bytes: the setup's fingerprint (its game,
// configuration text and seats), the game seed, the seating, then the
// game's part (StateTable.SaveGame), with a checksum. Restoring it into an
// instance of the same setup puts the game where it was, bots included:
// the game continues exactly as the original, observation for
// observation, reward for reward, trace byte for byte. A state is
// untrusted input: Restore checks it whole and returns an error wrapping
// ErrBadState, never a partly restored game.
type Saver interface {
	// SaveState appends the state of the current game to dst.
	SaveState(dst []byte) ([]byte, error)
	// RestoreState replaces the current game by a saved one (the trace of
	// the current game, if any, is closed; the restored game's trace, when
	// the instance writes traces, holds the whole game from round 0).
	RestoreState(state []byte) error
}

// TraceStarter is implemented by instances that can start a game from a
// round of a trace.
type TraceStarter interface {
	// ResetFromTrace starts the game of a trace (its configuration must
	// be the setup's), played to round (0..its rounds) with the command
	// lists of its command file (commands, the game's command-file
	// format), then handed to the instance's seats: the bots and
	// learners of the setup play on from there. The bots are asked for
	// their orders in the replayed rounds (their orders unused), so that
	// their memories and generators are those of a bot that sat there.
	// The replay must give the trace's own bytes (ErrBadState otherwise).
	// Without a command file (commands empty) the position at round
	// (0..its rounds-1) is rebuilt from the trace itself, with a fresh
	// random generator and new bots: it does not continue as the
	// original, and it cannot be saved (but at round 0).
	ResetFromTrace(trace, commands []byte, round int) error
}

// StateTable is a Table whose games can be saved, restored and started
// from a trace. The Host's instances are Savers and TraceStarters when
// their table is one.
type StateTable[B any] interface {
	Table[B]
	// SaveGame appends the game's part of a saved state to dst (an error
	// wrapping ErrUnsaved when a seat cannot be saved).
	SaveGame(dst []byte) ([]byte, error)
	// RestoreGame starts the game of the seed with the bots and replays a
	// game's part of a saved state; an error wraps ErrBadState.
	RestoreGame(seed int64, names [NumSeats]string, bots [NumSeats]B, game []byte) error
	// TraceSeed checks a trace start (the trace's configuration is the
	// table's) and returns the trace's seed.
	TraceSeed(trace []byte) (int64, error)
	// ResetFromTrace starts the game of the seed with the bots and
	// replays the trace's commands to round (see TraceStarter).
	ResetFromTrace(seed int64, names [NumSeats]string, bots [NumSeats]B, trace, commands []byte, round int) error
}

// stateMagic begins every saved state; its last byte is the format's
// version.
var stateMagic = [4]byte{'J', 'G', 'S', 1}

// stateHeader is the env's part of a saved state: 4 magic, 8 setup
// fingerprint, 8 seed, 4 seating, then the game's part, then 4 CRC-32
// (IEEE) of everything before it.
const stateHeader = 4 + 8 + 8 + NumSeats

// fingerprint identifies a setup for its saved states: the game, the
// configuration text and the seats (bots and learners).
func fingerprint(game string, s *Setup) uint64 {
	h := fnv.New64a()
	h.Write([]byte(game))
	h.Write([]byte{0})
	h.Write([]byte(s.Config))
	for _, b := range s.Seats {
		h.Write([]byte{0})
		h.Write([]byte(b))
	}
	return h.Sum64()
}

func (in *instance[C, B]) stateTable() (StateTable[B], bool) {
	st, ok := in.t.(StateTable[B])
	return st, ok
}

// SaveState appends the current game's state to dst.
func (in *instance[C, B]) SaveState(dst []byte) ([]byte, error) {
	st, ok := in.stateTable()
	if !ok {
		return dst, fmt.Errorf("%w: %s has no saved states", ErrUnsaved, in.f.h.rules.Name())
	}
	if !in.live {
		return dst, fmt.Errorf("%w: no game (reset first)", ErrUnsaved)
	}
	start := len(dst)
	dst = append(dst, stateMagic[:]...)
	dst = binary.LittleEndian.AppendUint64(dst, in.f.fingerprint)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(in.seed))
	for _, p := range in.seat {
		dst = append(dst, byte(p))
	}
	dst, err := st.SaveGame(dst)
	if err != nil {
		return dst[:start], err
	}
	if len(dst)-start+4 > MaxStateBytes {
		return dst[:start], fmt.Errorf("%w: %d bytes (max %d)", ErrUnsaved, len(dst)-start+4, MaxStateBytes)
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:])), nil
}

// RestoreState replaces the current game by a saved one.
func (in *instance[C, B]) RestoreState(state []byte) error {
	st, ok := in.stateTable()
	if !ok {
		return fmt.Errorf("%w: %s has no saved states", ErrBadState, in.f.h.rules.Name())
	}
	if len(state) > MaxStateBytes {
		return fmt.Errorf("%w: %d bytes (max %d)", ErrBadState, len(state), MaxStateBytes)
	}
	if len(state) < stateHeader+4 || [4]byte(state[:4]) != stateMagic {
		return fmt.Errorf("%w: not a saved state of this version", ErrBadState)
	}
	body, sum := state[:len(state)-4], binary.LittleEndian.Uint32(state[len(state)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return fmt.Errorf("%w: checksum mismatch (truncated or altered)", ErrBadState)
	}
	if binary.LittleEndian.Uint64(body[4:]) != in.f.fingerprint {
		return fmt.Errorf("%w: saved by another game or setup (game, configuration and seats must match)", ErrBadState)
	}
	seed := int64(binary.LittleEndian.Uint64(body[12:]))
	var seat [NumSeats]int
	var seen [NumSeats]bool
	for j := range seat {
		p := int(body[20+j])
		if p >= NumSeats || seen[p] {
			return fmt.Errorf("%w: bad seating", ErrBadState)
		}
		seen[p], seat[j] = true, p
	}
	if !in.f.setup.Shuffle && seat != [NumSeats]int{0, 1, 2, 3} {
		return fmt.Errorf("%w: shuffled seating for a setup without shuffle", ErrBadState)
	}
	return in.start(seed, &seat, func(names [NumSeats]string) error {
		return st.RestoreGame(seed, names, in.bots, body[stateHeader:])
	})
}

// ResetFromTrace starts the game of a trace at one of its rounds.
func (in *instance[C, B]) ResetFromTrace(trace, commands []byte, round int) error {
	st, ok := in.stateTable()
	if !ok {
		return fmt.Errorf("%w: %s has no trace starts", ErrBadState, in.f.h.rules.Name())
	}
	if len(trace) > MaxTraceBytes || len(commands) > MaxTraceBytes {
		return fmt.Errorf("%w: trace or command file over %d bytes", ErrBadState, MaxTraceBytes)
	}
	seed, err := st.TraceSeed(trace)
	if err != nil {
		return err
	}
	return in.start(seed, nil, func(names [NumSeats]string) error {
		return st.ResetFromTrace(seed, names, in.bots, trace, commands, round)
	})
}
