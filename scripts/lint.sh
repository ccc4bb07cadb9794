#!/usr/bin/env bash
# Fails when `swift format` (in the toolchain) would change anything, with the committed
# .swift-format, the SwiftUI app's files included. Fix with:
#   swift format format -i -r Sources Tests Package.swift Apps/QuireApp
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict -r Sources Tests Package.swift Apps/QuireApp
