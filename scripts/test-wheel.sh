#!/usr/bin/env bash
# Installs the built wheel (make wheel) into a fresh venv and runs the
# README's Python quick-start there with no Go on PATH, away from the source
# tree: the wheel alone must start the server it carries. Then builds a
# wheel from the sdist (Go present) and checks it carries a server too.
#   scripts/test-wheel.sh [VENV]   (default .venv: builds from the sdist)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${1:-.venv}
shopt -s nullglob
wheels=(dist/jgym-*-py3-none-manylinux_2_17_x86_64*.whl)
if [ ${#wheels[@]} -ne 1 ]; then
  echo "want one manylinux x86_64 wheel in dist/ (make wheel), found ${#wheels[@]}" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q -c python-client/constraints.txt "$root/${wheels[0]}"
# The quick-start: the README's first python block.
awk '/^```python$/ {on=1; next} on && /^```$/ {exit} on {print}' README.md > "$tmp/quickstart.py"
cat "$tmp/quickstart.py"
cd "$tmp"
clean=(env -i HOME="$tmp" PATH="$tmp/venv/bin:/usr/bin:/bin" LANG=C.UTF-8)
if "${clean[@]}" sh -c 'command -v go' >/dev/null; then
  echo "go is on the clean PATH: the test would not show the wheel works without it" >&2
  exit 1
fi
"${clean[@]}" jgym --version
"${clean[@]}" python quickstart.py
echo "the wheel's quick-start ran with no Go on PATH"
cd "$root"
sdists=(dist/jgym-*.tar.gz)
"$venv/bin/python" -m pip wheel -q --no-deps --no-build-isolation -w "$tmp/from-sdist" "${sdists[0]}"
listing=$("$venv/bin/python" -m zipfile -l "$tmp"/from-sdist/jgym-*.whl)
grep -q 'jgym/bin/jgym ' <<<"$listing"
echo "the sdist built a wheel with the server: $(basename "$tmp"/from-sdist/*.whl)"
