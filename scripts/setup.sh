#!/usr/bin/env bash
# Installs what building and testing Quire needs on Debian/Ubuntu: the C libraries the package
# links (libmicrohttpd, GnuTLS, SQLite, OpenSSL, libpq, libcurl, libvips for photo thumbnails and
# location removal: it brings libexif, libheif and libwebp), the openssl command (the HTTPS
# tests make a throwaway certificate authority with it), the PostgreSQL 15 server (the PostgreSQL
# store's tests start a throwaway cluster with its initdb and pg_ctl), haproxy (two instances
# behind a real balancer), pkg-config, tmux and vim
# for the terminal tests, and a Python venv with the icalendar parser for the calendar export
# test and the tuspy resumable-upload client for the upload protocol test. Safe to run again;
# does nothing when all are present.
set -euo pipefail

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
for pair in "libmicrohttpd:libmicrohttpd-dev" "gnutls:libgnutls28-dev" "sqlite3:libsqlite3-dev" "libcrypto:libssl-dev" "libpq:libpq-dev" "libcurl:libcurl4-openssl-dev" "vips:libvips-dev" "jemalloc:libjemalloc-dev"; do
  module=${pair%%:*}
  package=${pair##*:}
  if ! pkg-config --exists "$module" 2>/dev/null; then need+=("$package"); fi
done
command -v curl >/dev/null 2>&1 || need+=(curl)
# The restore tests back the server up as docs/deploying.md tells an operator to: the sqlite3 command.
command -v sqlite3 >/dev/null 2>&1 || need+=(sqlite3)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
[ -x /usr/lib/postgresql/15/bin/initdb ] && [ -x /usr/lib/postgresql/15/bin/pg_ctl ] || need+=(postgresql-15)
# The photo tests read metadata back with exiftool (shares no code with libvips or libexif); the
# thumbnail benchmark's baseline is libvips' own vipsthumbnail command.
command -v exiftool >/dev/null 2>&1 || need+=(libimage-exiftool-perl)
command -v vipsthumbnail >/dev/null 2>&1 || need+=(libvips-tools)
# A real load balancer in front of two instances: BalancedInstancesTests runs haproxy unprivileged
# on loopback with a config file it writes (docs/deploying.md, "Several instances").
[ -x /usr/sbin/haproxy ] || need+=(haproxy)
# quire-bench only (not the tests): the server benchmarks (server-put, feed-poll, the HTTP host's
# baseline) drive the server with wrk, an HTTP load generator nobody here wrote.
command -v wrk >/dev/null 2>&1 || need+=(wrk)
# A real terminal editor in a real terminal: the editor tests drive vim inside tmux.
command -v tmux >/dev/null 2>&1 || need+=(tmux)
[ -x /usr/bin/vim ] || need+=(vim)
# The calendar export test reads the export with an independent parser (icalendar, from PyPI).
command -v python3 >/dev/null 2>&1 || need+=(python3)
python3 -c 'import ensurepip' >/dev/null 2>&1 || need+=(python3-venv)

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

# icalendar and tuspy, pinned, in a venv under .build (ignored by git) that the tests run:
# .build/venv-ci/bin/python. ICalendarParserTests reads the calendar export with icalendar;
# TusClientUploadTests uploads to a real quire-server with tuspy, a tus client nobody here wrote.
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.build/venv-ci"
icalendar_version=7.3.0
tuspy_version=1.1.0
pinned="icalendar==$icalendar_version tuspy==$tuspy_version"
if ! "$venv/bin/python" -c "
import sys
from importlib.metadata import version
sys.exit(version('icalendar') != '$icalendar_version' or version('tuspy') != '$tuspy_version')
" >/dev/null 2>&1; then
  echo "setup: creating $venv with $pinned" >&2
  rm -rf "$venv"
  mkdir -p "$root/.build"
  python3 -m venv "$venv"
  # shellcheck disable=SC2086 # the pinned names are separate words
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $pinned
fi

# schemathesis, pinned, in a venv of its own (its dependencies stay apart from icalendar's), for
# scripts/schemathesis.sh: the API fuzzing stage of scripts/test.sh.
schemathesis_venv="$root/.build/venv-schemathesis"
schemathesis_version=4.32.5
if ! "$schemathesis_venv/bin/schemathesis" --version 2>/dev/null | grep -qx "schemathesis, version $schemathesis_version"; then
  echo "setup: creating $schemathesis_venv with schemathesis $schemathesis_version" >&2
  rm -rf "$schemathesis_venv"
  mkdir -p "$root/.build"
  python3 -m venv "$schemathesis_venv"
  "$schemathesis_venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "schemathesis==$schemathesis_version"
fi
