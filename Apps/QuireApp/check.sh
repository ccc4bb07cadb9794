#!/usr/bin/env bash
# What Linux can check of the app (there is no Apple SDK here), run by scripts/test.sh:
#   1. every Swift file of the app parses (swiftc -parse needs no SDK);
#   2. swift format lint passes on it (the repository's .swift-format);
#   3. the app's manifest and its products from the core resolve (swift package show-dependencies);
#   4. every Apple-only API it names is listed with its minimum OS, none above iOS 17 / macOS 14,
#      and the iOS-only ones sit inside #if os(iOS) (scripts/apple_apis.py, apple-apis.tsv).
# The core's own rule (no client module imports a Linux-only module outside #if) is a test:
# AppleBuildBoundaryTests in QuireClientTests.
#
# On a Mac, build the app instead (see README.md):
#   swift build                      # the macOS app and the library, from this folder
#   swift run QuireApp               # runs it on macOS
#   xcodebuild -scheme QuireAppUI -destination 'generic/platform=iOS Simulator' build
set -euo pipefail
cd "$(dirname "$0")"

files=$(find Sources Package.swift -name '*.swift' | sort)
for file in $files; do
  swiftc -parse "$file"
done
echo "check.sh: $(echo "$files" | wc -l | tr -d ' ') Swift files parse"

swift format lint --strict --configuration ../../.swift-format $files
echo "check.sh: swift format lint passes"

scratch=$(mktemp -d -t quire-app-check.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
swift package --scratch-path "$scratch" show-dependencies >/dev/null
echo "check.sh: the manifest resolves against the core's products"

python3 scripts/apple_apis.py
