#!/usr/bin/env bash
# Fuzzes the parsers with libFuzzer (issue 12 item 14; docs/security.md, "Fuzzing"):
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
# Each target runs for SECONDS (default 12; five targets make about a minute), starting from its
# committed seeds in Fuzz/corpus/TARGET/ (new inputs go to .build/fuzz/corpus/TARGET/, so the
# committed seeds change only by hand). A crash, a sanitizer report, a failed invariant or a hang
# stops the run: the input is kept under .build/fuzz/crashes/ and the script exits 1. Copy it into
# a regression test of the normal suite, then fix.
#
# How it builds (SwiftPM cannot: an executable target has its own main, libFuzzer brings one).
# The module under test is compiled again, whole, with -sanitize=fuzzer,address (coverage for the
# fuzzer, AddressSanitizer for memory errors) and -enable-testing; the target's file is its own
# module on top (`@testable import`, `@_cdecl("LLVMFuzzerTestOneInput")`, no main); the modules
# below come as they are from `swift build`'s debug objects. Rebuilt only when a source changed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-12}
shift || true
all=(merge cursor request payload chunked)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

# target: the module compiled with instrumentation, then the debug modules below it.
declare -A module=(
  [merge]=QuireMerge [chunked]=QuireCrypto [cursor]=QuireServer [request]=QuireServer [payload]=QuireClient)
declare -A below=(
  [QuireMerge]=""
  [QuireCrypto]=""
  [QuireServer]="QuireWire QuireSQLite QuirePostgres QuireCrypto QuireLock CMicroHTTPDErrors CSQLiteWALBuffer"
  [QuireClient]="QuireDomain QuireMerge QuireTrips QuireWire QuireSQLite QuireCrypto"
)
# libFuzzer's limit on an input's size, per target.
declare -A max_len=([merge]=4096 [chunked]=8192 [cursor]=256 [request]=4096 [payload]=2048)

swift build --build-tests >/dev/null
debug=$(swift build --show-bin-path)
out=.build/fuzz
mkdir -p "$out"

# The C modules' maps and headers, as swift build passes them.
cflags=()
for map in Sources/C*/module.modulemap "$debug"/*.build/module.modulemap; do
  cflags+=(-Xcc "-fmodule-map-file=$map")
done
for dir in Sources/C*/include; do cflags+=(-Xcc -I -Xcc "$dir"); done
for flag in $(pkg-config --cflags-only-I libpq gnutls libmicrohttpd libcurl libcrypto sqlite3); do
  cflags+=(-Xcc "$flag")
done
# SwiftPM's -package-name (so `package` declarations are visible across modules): the package's
# identity, its directory name lowercased, as a C identifier.
package_name=$(basename "$PWD" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9_]/_/g' -e 's/^[0-9]/_&/')
swiftflags=(-swift-version 6 -package-name "$package_name" -parse-as-library -O -gline-tables-only -sanitize=fuzzer,address -I "$debug/Modules" "${cflags[@]}")

# newer OUTPUT FILE...: whether any FILE changed after OUTPUT was built (or OUTPUT is missing).
stale() {
  local output=$1
  shift
  [ ! -e "$output" ] || [ -n "$(find "$@" -newer "$output" -print -quit)" ]
}

build_module() {
  local name=$1 dir="$out/$1"
  local sources
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  if stale "$dir/$name.o" "Sources/$name" "$debug/Modules"; then
    echo "fuzz: compiling $name with -sanitize=fuzzer,address" >&2
    mkdir -p "$dir"
    swiftc "${swiftflags[@]}" -suppress-warnings -enable-testing -module-name "$name" -wmo -c "${sources[@]}" \
      -emit-module-path "$dir/$name.swiftmodule" -o "$dir/$name.o"
  fi
}

build_target() {
  local target=$1 name=${module[$1]}
  local binary="$out/fuzz-$target"
  build_module "$name"
  if stale "$binary" "Fuzz/Targets/$target.swift" Fuzz/Support "$out/$name/$name.o"; then
    echo "fuzz: linking $binary" >&2
    local objects=()
    for dep in ${below[$name]}; do objects+=("$debug/$dep.build"/*.o); done
    swiftc "${swiftflags[@]}" -I "$out/$name" -module-name "Fuzz_$target" \
      "Fuzz/Targets/$target.swift" Fuzz/Support/*.swift "$out/$name/$name.o" "${objects[@]}" -ldl -use-ld=lld \
      -o "$binary"
  fi
}

status=0
for target in "${targets[@]}"; do
  [ -n "${module[$target]:-}" ] || { echo "fuzz: no target '$target' (targets: ${all[*]})" >&2; exit 64; }
  build_target "$target"
  mkdir -p "$out/corpus/$target" "$out/crashes"
  echo "fuzz: $target for ${seconds}s" >&2
  # Swift's own backtracer stays out of the way: libFuzzer reports the crash and keeps the input.
  if ! ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$out/fuzz-$target" -max_total_time="$seconds" -max_len="${max_len[$target]}" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/crashes/$target-" \
    "$out/corpus/$target" "Fuzz/corpus/$target" >"$out/$target.log" 2>&1; then
    tail -n 60 "$out/$target.log" >&2
    echo "fuzz: $target FAILED; the input is in $out/crashes/ (log: $out/$target.log)" >&2
    status=1
  else
    grep -E "^stat::number_of_executed_units|^Done" "$out/$target.log" | tr '\n' ' ' >&2
    echo >&2
  fi
done
exit "$status"
