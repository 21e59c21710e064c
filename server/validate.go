package server

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
)

// Sizes of the strings a request may carry. Longer ones are refused
// before anything else reads them, and error messages quote at most a
// short prefix of any input (short).
const (
	maxGameBytes      = 64
	maxBotBytes       = 256
	maxConfigBytes    = 64 << 10
	maxSessionIDBytes = 64
	maxTraceDirBytes  = 128
	maxMessageBytes   = 1024 // of any error message sent to a client
	shortQuote        = 40   // bytes of an input quoted in a message
)

// short quotes s for an error message: at most shortQuote bytes of it,
// and its length when it is longer.
func short(s string) string {
	if len(s) <= shortQuote {
		return strconv.Quote(s)
	}
	cut := shortQuote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// clip cuts a message to n bytes.
func clip(msg string, n int) string {
	if len(msg) <= n {
		return msg
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + fmt.Sprintf("... (%d bytes cut)", len(msg)-cut)
}

// checkString refuses a string field longer than limit, or one that is
// not printable UTF-8 text.
func checkString(field, s string, limit int) error {
	if len(s) > limit {
		return fmt.Errorf("%w: %s is %d bytes, over the limit of %d", errBadRequest, field, len(s), limit)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not UTF-8", errBadRequest, field)
	}
	return nil
}

// checkCreate refuses a CreateSessionRequest with oversized or malformed
// strings, before anything else reads it.
func checkCreate(req *jgymv1.CreateSessionRequest) error {
	if err := checkString("game", req.GetGame(), maxGameBytes); err != nil {
		return err
	}
	if err := checkString("config", req.GetConfig(), maxConfigBytes); err != nil {
		return err
	}
	if err := checkString("trace_env0", req.GetTraceEnv0(), maxTraceDirBytes); err != nil {
		return err
	}
	if n := len(req.GetSeats()); n > 16 {
		return fmt.Errorf("%w: %d seats given", errBadRequest, n)
	}
	for j, seat := range req.GetSeats() {
		b := seat.GetBot()
		if err := checkString(fmt.Sprintf("seat %d", j), b, maxBotBytes); err != nil {
			return err
		}
		if strings.ContainsFunc(b, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return fmt.Errorf("%w: seat %d: bot %s has control characters", errBadRequest, j, short(b))
		}
	}
	return nil
}

// gameID returns the id of a request's game: the first hosted game when
// empty, else a hosted one.
func (s *Server) gameID(id string) (string, error) {
	if err := checkString("game", id, maxGameBytes); err != nil {
		return "", err
	}
	if id == "" {
		return s.reg.IDs()[0], nil
	}
	if _, err := s.reg.Lookup(id); err != nil {
		return "", fmt.Errorf("%w: game %s (hosted: %v)", errNotFound, short(id), s.reg.IDs())
	}
	return id, nil
}

// offersPrefix reports whether game seats "prefix:NAME" bots.
func (s *Server) offersPrefix(game, prefix string) bool {
	g, err := s.reg.Lookup(game)
	if err != nil {
		return false
	}
	_, prefixes := g.Bots()
	return slices.Contains(prefixes, prefix)
}

// checkSeats checks the "prefix:NAME" seats of a session: NAME is an
// offered file's name or one of the client's uploads, never a path.
// It returns the number of seats whose prefix runs a process.
func (s *Server) checkSeats(c *client, game string, seats []string) (procSeats int, err error) {
	for j, b := range seats {
		prefix, name, ok := strings.Cut(b, ":")
		if !ok {
			if slices.Contains(s.opts.refusedBots, b) {
				return 0, fmt.Errorf("%w: seat %d: bot %s costs seconds of CPU a game: this server does not seat it (its operator may: jgym serve --allow-search)", env.ErrUnknownBot, j, short(b))
			}
			continue // a built-in bot, or a learner; the game checks it
		}
		if !s.offersPrefix(game, prefix) {
			return 0, fmt.Errorf("%w: seat %d: bot %s: %s takes no %s: bots", env.ErrUnknownBot, j, short(b), game, short(prefix))
		}
		if hash, _, ok := ParseUploadRef(name); ok {
			if !s.store.owns(c.id, prefix, hash) {
				return 0, fmt.Errorf("%w: seat %d: no upload %s of yours (uploads expire when newer ones need the room; upload it again)", env.ErrUnknownBot, j, short(b))
			}
		} else if !ValidBotFile(name) {
			return 0, fmt.Errorf("%w: seat %d: bot %s: after %q comes the name of a file the server offers (see ListBots) or an upload (UploadBot), never a path", errBadRequest, j, short(b), prefix+":")
		}
		if slices.Contains(s.opts.processPrefixes, prefix) {
			procSeats++
		}
	}
	return procSeats, nil
}
