#!/usr/bin/env bash
# Builds jgym's wheel (the Go server compiled into it) and its sdist into dist/.
#   scripts/build-wheel.sh [VENV] [TARGETS]
# VENV (default .venv) has setuptools >= 70.1 (make setup); TARGETS is
# "host" (default: this machine's platform) or "all": every platform the
# wheel is cross-compiled for (linux/amd64 linux/arm64 darwin/amd64
# darwin/arm64; python-client/setup.py, PLATFORMS). Needs Go.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv}
targets=${2:-host}
py="$venv/bin/python"
rm -rf dist python-client/build
mkdir -p dist
build() { # GOOS GOARCH (empty: this machine)
  rm -rf python-client/build
  JGYM_GOOS=$1 JGYM_GOARCH=$2 "$py" -m pip wheel -q --no-deps --no-build-isolation -w dist ./python-client
}
if [ "$targets" = all ]; then
  for t in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do build "${t%/*}" "${t#*/}"; done
else
  build "" ""
fi
rm -rf python-client/build
"$py" - <<'PY'
import sys
sys.path.insert(0, "python-client/build_backend")
import jgym_build
jgym_build.build_sdist("dist")
PY
ls -l dist
