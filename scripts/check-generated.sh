#!/usr/bin/env bash
# check-generated.sh: fail if the generated Go code in api/ is not what
# `buf generate` makes from the .proto files, and if `buf lint` complains.
# It regenerates into a temporary copy of api/ and diffs; the work tree is
# never modified. Run from anywhere inside the repository.
set -euo pipefail

BUF="go run github.com/bufbuild/buf/cmd/buf@v1.75.0"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cp -r "$root/api" "$tmp/api"
# Remove the committed generated files so stale ones cannot survive.
find "$tmp/api" -name '*.pb.go' -delete

cd "$root/api"
$BUF lint
cd "$tmp/api"
$BUF generate

status=0
while IFS= read -r -d '' f; do
  rel="${f#"$tmp/api/"}"
  if [ ! -f "$root/api/$rel" ]; then
    echo "missing generated file: api/$rel (run: cd api && $BUF generate)" >&2
    status=1
  elif ! diff -u "$root/api/$rel" "$f" >"$tmp/diff" 2>&1; then
    echo "stale generated file: api/$rel (run: cd api && $BUF generate)" >&2
    head -n 40 "$tmp/diff" >&2
    status=1
  fi
done < <(find "$tmp/api" -name '*.pb.go' -print0)
while IFS= read -r -d '' f; do
  rel="${f#"$root/api/"}"
  if [ ! -f "$tmp/api/$rel" ]; then
    echo "generated file without a source: api/$rel" >&2
    status=1
  fi
done < <(find "$root/api" -name '*.pb.go' -print0)

if [ "$status" -eq 0 ]; then
  echo "generated code is fresh, buf lint is clean"
fi
exit "$status"
