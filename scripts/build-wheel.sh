#!/usr/bin/env bash
# Builds jgym's wheel (the Go server compiled into it) and its sdist into dist/.
#   scripts/build-wheel.sh [TARGETS]
# TARGETS is "host" (default: this machine's platform) or "all": every
# platform the wheel is cross-compiled for (linux/amd64 linux/arm64
# darwin/amd64 darwin/arm64; python-client/setup.py, PLATFORMS). Needs Go
# and python3 (3.10 or newer, with its venv module).
#
# The build runs in a venv of its own, $JGYM_BUILD_VENV (default
# .venv-build), made on first use with the setuptools that
# python-client/constraints.txt pins: nothing else is needed, so it works
# on a fresh clone, and the development venv (.venv, make setup) is
# neither needed nor touched.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${1:-host}
case $targets in
  host | all) ;;
  *) echo "build-wheel.sh: TARGETS is host or all, not '$targets'" >&2; exit 2 ;;
esac
venv=${JGYM_BUILD_VENV:-.venv-build}
py="$venv/bin/python"
setuptools=$(grep -i '^setuptools==' python-client/constraints.txt)
if ! "$py" -c 'import setuptools, sys; sys.exit(tuple(map(int, setuptools.__version__.split(".")[:2])) < (70, 1))' 2>/dev/null; then
  echo "build-wheel.sh: making the build venv $venv ($setuptools)"
  python3 -m venv "$venv"
  "$py" -m pip install -q --disable-pip-version-check "$setuptools"
fi
rm -rf dist python-client/build
mkdir -p dist
build() { # GOOS GOARCH (empty: this machine)
  rm -rf python-client/build
  JGYM_GOOS=$1 JGYM_GOARCH=$2 "$py" -m pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w dist ./python-client
}
if [ "$targets" = all ]; then
  for t in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do build "${t%/*}" "${t#*/}"; done
else
  build "" ""
fi
rm -rf python-client/build
# setuptools lists every file it copies into the sdist (about 450 lines):
# shown only when the build fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$py" - >"$log" 2>&1 <<'PY'
import sys
sys.path.insert(0, "python-client/build_backend")
import jgym_build
jgym_build.build_sdist("dist")
PY
then
  cat "$log" >&2
  echo "build-wheel.sh: the sdist failed (its log above)" >&2
  exit 1
fi
ls -l dist
