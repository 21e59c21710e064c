#!/usr/bin/env bash
# Installs the built wheel (make wheel) into a fresh venv and runs the
# README's Python quick-start there with no Go on PATH, away from the source
# tree: the wheel alone must start the server it carries. Then builds a
# wheel from the sdist (Go present) and checks it carries a server too, and
# runs make wheel on a fresh clone of the repository's HEAD (no venv, no
# bin/, no dist/ there: make wheel makes its own build venv).
#   scripts/test-wheel.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build_py=${JGYM_BUILD_VENV:-.venv-build}/bin/python # made by make wheel
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
"$build_py" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w "$tmp/from-sdist" "${sdists[0]}"
listing=$("$build_py" -m zipfile -l "$tmp"/from-sdist/jgym-*.whl)
grep -q 'jgym/bin/jgym ' <<<"$listing"
echo "the sdist built a wheel with the server: $(basename "$tmp"/from-sdist/*.whl)"
if ! git rev-parse --verify -q HEAD >/dev/null; then
  echo "not a git checkout: make wheel on a fresh clone is not tried" >&2
  exit 1
fi
git clone -q "$root" "$tmp/clone"
(cd "$tmp/clone" && env -u JGYM_BUILD_VENV make -s wheel >"$tmp/clone.log" 2>&1) || {
  tail -20 "$tmp/clone.log" >&2
  echo "make wheel failed on a fresh clone" >&2
  exit 1
}
clone_wheels=("$tmp"/clone/dist/jgym-*-py3-none-manylinux_2_17_x86_64*.whl)
[ ${#clone_wheels[@]} -eq 1 ]
listing=$("$build_py" -m zipfile -l "${clone_wheels[0]}")
grep -q 'jgym/bin/jgym ' <<<"$listing"
echo "make wheel on a fresh clone built $(basename "${clone_wheels[0]}") in its own venv (.venv-build)"
