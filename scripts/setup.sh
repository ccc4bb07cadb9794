#!/usr/bin/env bash
# Installs what building and testing Quire needs on Debian/Ubuntu: the C libraries the package
# links (libmicrohttpd, SQLite, OpenSSL), pkg-config, and tmux and vim for the terminal tests. Safe to run again; does nothing when all
# are present.
set -euo pipefail

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
for pair in "libmicrohttpd:libmicrohttpd-dev" "sqlite3:libsqlite3-dev" "libcrypto:libssl-dev"; do
  module=${pair%%:*}
  package=${pair##*:}
  if ! pkg-config --exists "$module" 2>/dev/null; then need+=("$package"); fi
done
command -v curl >/dev/null 2>&1 || need+=(curl)
# A real terminal editor in a real terminal: the editor tests drive vim inside tmux.
command -v tmux >/dev/null 2>&1 || need+=(tmux)
[ -x /usr/bin/vim ] || need+=(vim)

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: the Swift toolchain (6.0 or newer) is not on PATH; install it from swift.org" >&2
  exit 1
fi
