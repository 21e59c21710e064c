package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/env"
)

// BotCheck checks an uploaded bot before it is stored: that an ONNX
// policy loads and fits the game, that a C++ source compiles. kind is the
// seat prefix ("policy", "cpp"), name the file name. kept is what the
// check leaves on the server's disk for the bot (a C++ bot's executable):
// it counts against the client's upload quota with the content. Its error
// goes to the client: it must not carry the content of files other than
// data. An error wrapping env.ErrBusy (the compilers are all taken) is
// ResourceExhausted, others InvalidArgument.
type BotCheck func(ctx context.Context, kind, game, name string, data []byte) (kept int64, err error)

// BotStore holds the bots that clients upload (UploadBot), by content:
// an upload is named by the hash of its bytes, and the clients that
// uploaded the same bytes share one copy. Each client's uploads count
// against its ClientLimits (Uploads, UploadBytes); the oldest are dropped
// to make room for a new one. The resolver of a game's bots reads them
// with Get. It is safe for concurrent use.
type BotStore struct {
	maxBytes int64 // all clients together

	mu     sync.Mutex
	items  map[string]*upload   // by key (kind/hash)
	owners map[string][]*upload // by client id, oldest first
	bytes  int64
}

type upload struct {
	key, kind, hash, name string
	data                  []byte
	kept                  int64 // bytes on disk for it (BotCheck), counted in quotas
	owners                int
}

// cost is what an upload counts against its owners' quotas.
func (u *upload) cost() int64 { return int64(len(u.data)) + u.kept }

// NewBotStore returns a store of at most maxBytes of uploads over all
// clients.
func NewBotStore(maxBytes int64) *BotStore {
	return &BotStore{maxBytes: maxBytes, items: map[string]*upload{}, owners: map[string][]*upload{}}
}

// UploadRef is the seat name of an upload: "PREFIX:@HASH/NAME", HASH the
// first 32 hex digits of the content's SHA-256.
func UploadRef(kind, hash, name string) string { return kind + ":@" + hash + "/" + name }

// ParseUploadRef splits the part after "PREFIX:" of an upload's seat name
// into the hash and the file name; ok is false if it is not one.
func ParseUploadRef(ref string) (hash, name string, ok bool) {
	rest, ok := strings.CutPrefix(ref, "@")
	if !ok {
		return "", "", false
	}
	hash, name, ok = strings.Cut(rest, "/")
	if !ok || len(hash) != 32 || strings.Trim(hash, "0123456789abcdef") != "" || !botFileRE.MatchString(name) {
		return "", "", false
	}
	return hash, name, true
}

// botFileRE is what a bot's file name may be: in a bots directory and in
// an upload.
var botFileRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`)

// ValidBotFile reports whether name may name a bot's file: 1 to 64
// letters, digits, '.', '_' and '-', not starting with '.' or '-' (so
// never a path, nor "..").
func ValidBotFile(name string) bool { return botFileRE.MatchString(name) }

// Get returns the file name and content of an upload.
func (st *BotStore) Get(kind, hash string) (name string, data []byte, ok bool) {
	if st == nil {
		return "", nil, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	u, ok := st.items[kind+"/"+hash]
	if !ok {
		return "", nil, false
	}
	return u.name, u.data, true
}

// owns reports whether client has uploaded kind/hash.
func (st *BotStore) owns(client, kind, hash string) bool {
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, u := range st.owners[client] {
		if u.kind == kind && u.hash == hash {
			return true
		}
	}
	return false
}

// holds reports whether client has uploads.
func (st *BotStore) holds(client string) bool {
	if st == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.owners[client]) > 0
}

// usage returns the bytes of client's uploads and what is kept for them.
func (st *BotStore) usage(client string) int64 {
	var n int64
	for _, u := range st.owners[client] {
		n += u.cost()
	}
	return n
}

// put stores data for client, dropping its oldest uploads as its limits
// require, and returns the upload and the client's bytes after it. kept
// is what the server keeps on disk for it (BotCheck): it counts against
// the client's quota, not against the store's memory.
func (st *BotStore) put(client string, lim ClientLimits, kind, name string, data []byte, kept int64) (*upload, int64, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:16])
	key := kind + "/" + hash
	size := int64(len(data))
	if size+kept > lim.UploadBytes || lim.Uploads < 1 {
		return nil, 0, fmt.Errorf("%w: an upload of %d bytes (%d with its build) is over your upload quota of %d bytes", errLimit, size, size+kept, lim.UploadBytes)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	mine := st.owners[client]
	for i, u := range mine {
		if u.key == key {
			// Already yours: it becomes the newest.
			copy(mine[i:], mine[i+1:])
			mine[len(mine)-1] = u
			return u, st.usage(client), nil
		}
	}
	u, shared := st.items[key]
	if !shared && st.bytes+size > st.maxBytes {
		// Make room from this client's own uploads first.
		for len(mine) > 0 && st.bytes+size > st.maxBytes {
			mine = st.drop(mine)
		}
		st.owners[client] = mine
		if st.bytes+size > st.maxBytes {
			return nil, 0, fmt.Errorf("%w: the server's store of uploaded bots is full (%d bytes)", errLimit, st.maxBytes)
		}
	}
	for len(mine) > 0 && (len(mine)+1 > lim.Uploads || st.usage(client)+size+kept > lim.UploadBytes) {
		mine = st.drop(mine)
		st.owners[client] = mine
	}
	if !shared {
		u = &upload{key: key, kind: kind, hash: hash, name: name, data: data, kept: kept}
		st.items[key] = u
		st.bytes += size
	}
	u.owners++
	st.owners[client] = append(mine, u)
	return u, st.usage(client), nil
}

// drop removes a client's oldest upload (the first of mine), freeing it
// when no other client holds it, and returns the rest.
func (st *BotStore) drop(mine []*upload) []*upload {
	u := mine[0]
	u.owners--
	if u.owners == 0 {
		delete(st.items, u.key)
		st.bytes -= int64(len(u.data))
	}
	return mine[1:]
}

// uploadKinds maps BotKind to the seat prefix and the file suffixes
// accepted.
var uploadKinds = map[jgymv1.BotKind]struct {
	prefix   string
	suffixes []string
}{
	jgymv1.BotKind_BOT_KIND_POLICY: {"policy", []string{".onnx"}},
	jgymv1.BotKind_BOT_KIND_CPP:    {"cpp", []string{".cc", ".cpp"}},
}

// UploadBot checks and stores an uploaded bot (see BotStore).
func (s *Server) UploadBot(ctx context.Context, req *jgymv1.UploadBotRequest) (*jgymv1.UploadBotResponse, error) {
	resp, err := s.uploadBot(ctx, req)
	return resp, toStatus(err)
}

func (s *Server) uploadBot(ctx context.Context, req *jgymv1.UploadBotRequest) (*jgymv1.UploadBotResponse, error) {
	if s.store == nil || s.opts.botCheck == nil {
		return nil, fmt.Errorf("%w: this server takes no uploaded bots", errForbidden)
	}
	kind, ok := uploadKinds[req.GetKind()]
	if !ok {
		return nil, fmt.Errorf("%w: kind %d: want BOT_KIND_POLICY or BOT_KIND_CPP", errBadRequest, req.GetKind())
	}
	name := req.GetName()
	if !ValidBotFile(name) || !hasSuffix(name, kind.suffixes) {
		return nil, fmt.Errorf("%w: name %s: want 1 to 64 letters, digits, '.', '_' or '-' ending in %s", errBadRequest, short(name), strings.Join(kind.suffixes, " or "))
	}
	data := req.GetContent()
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: the content is empty", errBadRequest)
	}
	if int64(len(data)) > s.opts.maxUploadBytes {
		return nil, fmt.Errorf("%w: the content is %d bytes, over the server's limit of %d per upload", errLimit, len(data), s.opts.maxUploadBytes)
	}
	game, err := s.gameID(req.GetGame())
	if err != nil {
		return nil, err
	}
	if !s.offersPrefix(game, kind.prefix) {
		return nil, fmt.Errorf("%w: %s seats %s: bots", errForbidden, game, kind.prefix)
	}
	c := clientOf(ctx)
	if err := s.takeCheck(c); err != nil {
		return nil, err
	}
	kept, err := s.opts.botCheck(ctx, kind.prefix, game, name, data)
	s.giveCheck(c)
	if errors.Is(err, env.ErrBusy) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %s", errBadRequest, name, clip(err.Error(), maxCheckMessage))
	}
	// The content is kept: copy it out of the request's buffer.
	u, used, err := s.store.put(c.id, c.limits, kind.prefix, name, append([]byte(nil), data...), kept)
	if err != nil {
		return nil, err
	}
	s.metrics.uploads.Add(1)
	return &jgymv1.UploadBotResponse{
		Bot:            UploadRef(u.kind, u.hash, name),
		Sha256:         fmt.Sprintf("%x", sha256.Sum256(data)),
		QuotaUsedBytes: used,
		QuotaBytes:     c.limits.UploadBytes,
	}, nil
}

// takeCheck counts an upload being checked (a C++ upload compiles) against
// the client's Compiles limit.
func (s *Server) takeCheck(c *client) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.checks >= c.limits.Compiles {
		return fmt.Errorf("%w: you have %d uploads being checked (compiled), your limit: wait for one to finish", errLimit, c.checks)
	}
	c.checks++
	s.metrics.compiles.Add(1)
	return nil
}

func (s *Server) giveCheck(c *client) {
	s.mu.Lock()
	c.checks--
	s.mu.Unlock()
	s.metrics.compiles.Add(-1)
}

// maxCheckMessage bounds the message of a failed BotCheck (a compiler's
// errors about the client's own source).
const maxCheckMessage = 4000

func hasSuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}
