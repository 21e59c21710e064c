#!/usr/bin/env bash
# The Go tests of make test-go, in three runs that together check what one
# `go test -race ./...` of everything did, in about half its time:
#
# 1. every package but the game packages and cppexport under the race
#    detector, in full: the server, vec, the sandbox, the C++ bot adapter,
#    the command line, where goroutines share state;
# 2. the game packages (env/GAME and their subpackages) and cppexport
#    without the race detector, under -short (the same sample of
#    reference traces and games the race detector ran before: see
#    game/gametest's Options and each test's testing.Short()); their rules,
#    encoders, traces and verifiers run in one goroutine, and the race
#    detector made these runs 2.5-10 times slower (benchmarks/notebook/ci-time.md);
# 3. the game packages' contract tests that do run goroutines, under the
#    race detector: the env (vec pools), the policy and C++ bots, and
#    in-process copies of a match played beside the original;
# 4. Crematoria's encoder built without its assembly (-tags purego, what a
#    CPU without AVX2 or another architecture runs): the searches against
#    a cell-by-cell expansion and the recorded observations.
#
#   scripts/test-go.sh            (GO=go, as the Makefile's)
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
games=(./env/crematoria/... ./env/dominator/... ./env/pandemic/... ./env/moria/... ./cppexport)
mapfile -t others < <("$go" list ./... | grep -v -E '^jgym/(env/(crematoria|dominator|pandemic|moria)(/.*)?|cppexport)$')
if [ "${#others[@]}" -lt 10 ]; then
  echo "test-go: only ${#others[@]} packages outside the games: is the module still jgym?" >&2
  exit 1
fi
step() {
  local name=$1 t=$SECONDS
  shift
  "$@"
  echo "test-go: $name passed in $((SECONDS - t)) s"
}
step "race, ${#others[@]} packages" "$go" test -race -count=1 -timeout 25m "${others[@]}"
step "games and cppexport, -short" "$go" test -short -count=1 -timeout 25m "${games[@]}"
step "games' concurrent contract tests, race" "$go" test -race -short -count=1 -timeout 25m \
  -run '^TestContract$/^(Env|PolicyBot|CppBot)$' "${games[@]}"
step "games' copies beside the original, race" "$go" test -race -short -count=1 -timeout 25m \
  -run '^TestContract$/^States$/^Copy$' "${games[@]}"
step "crematoria's encoder without assembly (purego)" "$go" test -short -count=1 -tags purego \
  -run 'Expand|Fixture|Mask' ./env/crematoria/
