#!/usr/bin/env bash
# Builds a static jgym server binary. The Dockerfile's build stage runs this
# same script, so CI tests the image's build step without a Docker engine.
#   scripts/build-server.sh [OUT]   (default: bin/jgym-linux)
set -euo pipefail
out=${1:-bin/jgym-linux}
cd "$(dirname "$0")/.."
mkdir -p "$(dirname "$out")"
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out" ./cmd/jgym
"$out" --version
