#!/usr/bin/env bash
# The quick start: builds Quire, starts a quire-server on SQLite (loopback, a free port), makes an
# account, and runs two devices ("phone" and "laptop") that sync through it: offline edits, a
# concurrent edit of one note that loses nothing, and a delete that loses to an edit.
# Notes are end-to-end encrypted: the server only ever stores ciphertext (the demo checks).
# Everything lives in a temporary directory that is removed at the end (QUIRE_DEMO_KEEP=1 keeps it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The build's own output (and SwiftPM's warning about the -pthread in libvips's pkg-config flags)
# is shown only when the build fails.
echo "Building Quire (swift build: minutes the first time, seconds after)..." >&2
build_log=$(mktemp -t quire-demo-build.XXXXXX)
if ! swift build >"$build_log" 2>&1; then
  cat "$build_log" >&2
  rm -f "$build_log"
  exit 1
fi
rm -f "$build_log"
bin=$(swift build --show-bin-path 2>/dev/null)

work=$(mktemp -d -t quire-demo.XXXXXX)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ "${QUIRE_DEMO_KEEP:-0}" = 1 ]; then echo "(kept $work)"; else rm -rf "$work"; fi
}
trap cleanup EXIT

say() { printf '\n\033[1m%s\033[0m\n' "$*"; }
run() { printf '$'; printf ' %q' "$@"; printf '\n'; "$@"; }

"$bin/quire-server" --port 0 --db "$work/server.sqlite" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
for _ in $(seq 1 100); do
  url=$(sed -n 's/^quire-server listening on //p' "$work/server.out")
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "quire-server did not start:"; cat "$work/server.err"; exit 1; }

phone() { "$bin/quire" --data-dir "$work/phone" "$@"; }
laptop() { "$bin/quire" --data-dir "$work/laptop" "$@"; }

say "A server on SQLite at $url; an account; two devices signed in to it"
printf '$ phone register %s demo --password-stdin   (the password never leaves the device)\n' "$url"
printf 'correct horse battery staple\n' | phone register "$url" demo --password-stdin --device-name phone
printf '$ laptop login %s demo --password-stdin\n' "$url"
printf 'correct horse battery staple\n' | laptop login "$url" demo --password-stdin --device-name laptop

say "The phone writes a note with no sync at all, then syncs"
id=$(phone new --title "Groceries" --body $'milk\neggs\nbread')
echo "$ phone new --title Groceries ...  → $id"
run phone ls
run phone sync
run laptop sync
run laptop ls

say "Both edit different lines while offline: the edits merge, no copy"
run phone edit "$id" --body $'milk\n6 eggs\nbread'
run laptop edit "$id" --body $'milk\neggs\nbread\nbutter'
run phone sync
run laptop sync
run phone sync
run phone show "$id"

say "Both edit the same line while offline, then sync: nothing typed is lost"
run phone edit "$id" --body $'oat milk\n6 eggs\nbread\nbutter'
run laptop edit "$id" --body $'whole milk\n6 eggs\nbread\nbutter'
run phone sync
run laptop sync
run phone sync
run laptop ls
run laptop diff "$id"

say "The laptop keeps its version; the phone follows"
run laptop resolve "$id" --keep mine
run laptop sync
run phone sync
run phone show "$id"

say "The phone deletes a note while the laptop edits it: the edit wins on both"
trip=$(phone new --title "Trip" --body "pack")
phone sync >/dev/null && laptop sync >/dev/null
run phone rm "$trip"
run laptop edit "$trip" --body "pack the charger"
run phone sync
run laptop sync
run phone sync
run phone ls
run phone status

say "The server holds only ciphertext: no title or body appears in its database file"
if grep -a -q -e "Groceries" -e "charger" "$work/server.sqlite"* 2>/dev/null; then
  echo "FOUND plaintext in the server's files"; exit 1
else
  echo "grep for 'Groceries' and 'charger' in server.sqlite*: not found"
fi
