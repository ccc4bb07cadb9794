#!/usr/bin/env bash
# Runs every test: installs what is missing, builds the package with its tests (the end-to-end
# tests start the built quire-server and quire binaries), then runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
