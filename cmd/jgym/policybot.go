package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"jgym/env/crematoria"
	"jgym/policy"
)

// The policy: seat prefix: an ONNX policy exported by
// python-client/examples/train_ppo.py (docs/export.md), run by the pure-Go
// interpreter of package policy (crematoria.PolicyBot). A file is loaded and checked once
// per process (unsupported operators and a mismatched observation version
// fail here, before any game starts) and shared by every seat and game
// that names it while the file is unchanged: a loaded model is immutable.
func init() {
	botPrefixes = append(botPrefixes, botPrefix{
		prefix: "policy",
		help:   "exported ONNX policy (python-client/examples/train_ppo.py, docs/export.md), run in Go",
		open:   openPolicyBot,
	})
}

// policyKey identifies a version of a policy file.
type policyKey struct {
	path  string
	size  int64
	mtime time.Time
}

var (
	policyMu     sync.Mutex
	policyModels = map[policyKey]*policy.Model{}
)

func openPolicyBot(path string) (crematoria.BotFactory, io.Closer, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("load policy: %w", err)
	}
	key := policyKey{path, fi.Size(), fi.ModTime()}
	policyMu.Lock()
	defer policyMu.Unlock()
	m, ok := policyModels[key]
	if !ok {
		if m, err = policy.Load(path, crematoria.PolicySignature()); err != nil {
			return nil, nil, err
		}
		policyModels[key] = m
	}
	return crematoria.PolicyFactory(m), nil, nil
}
