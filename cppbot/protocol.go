package cppbot

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// The protocol between the engine and a game's runner (docs/cpp-bots.md).
// All messages are ASCII text, one answer line per message. The engine
// sends the game's init message once, answered by "ready <name>" (the
// registered player's name), then one message per round, answered by one
// line the game parses (Crematoria: "commands <n> <id> <dir> ..."). Any
// answer may instead be "error <kind> <text>". The engine closes the
// runner's input at the end of the game. What the init and round messages
// hold is the game's (crematoria.CppBot).

// ErrRunner is a failure the runner reported with an error line (an
// exception in the player's code, no registered player, ...).
var ErrRunner = errors.New("bot failed")

// parseRunnerError turns "error <kind> <text>" into an error: the game's
// error for the kinds it maps (Kit.Errors), ErrProtocol for "protocol".
func parseRunnerError(line []byte, k *Kit) error {
	rest := bytes.TrimSpace(bytes.TrimPrefix(line, []byte("error")))
	kind, text, _ := bytes.Cut(rest, []byte(" "))
	if k != nil {
		if e, ok := k.Errors[string(kind)]; ok {
			return fmt.Errorf("%w: %s", e, text)
		}
	}
	if string(kind) == "protocol" {
		return fmt.Errorf("%w: the runner says: %s", ErrProtocol, text)
	}
	return fmt.Errorf("%w: %s: %s", ErrRunner, kind, text)
}

// parseReady parses "ready <name>".
func parseReady(line []byte, k *Kit) (string, error) {
	if bytes.HasPrefix(line, []byte("error ")) {
		return "", parseRunnerError(line, k)
	}
	f := bytes.Fields(line)
	if len(f) != 2 || string(f[0]) != "ready" {
		return "", fmt.Errorf("%w: want \"ready <name>\", got %s", ErrProtocol, Quote(line))
	}
	return string(f[1]), nil
}

// Quote shows the start of a protocol line, for messages.
func Quote(line []byte) string {
	line = bytes.TrimRight(line, "\n")
	if len(line) > 80 {
		return strconv.Quote(string(line[:80])) + "..."
	}
	return strconv.Quote(string(line))
}
