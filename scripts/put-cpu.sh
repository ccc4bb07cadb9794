#!/usr/bin/env bash
# The server's CPU time per PUT (issue 13 part 6), for a fixed number of PUTs, repeatably.
#
#   swift build -c release --product quire-server
#   scripts/put-cpu.sh [PUTS] [CONNECTIONS] [RUNS]    (default 4000 PUTs over 8 connections, 3 runs)
#   QUIRE_PUT_PROFILE=1 scripts/put-cpu.sh ...        (also perf record -g the PUT window of run 1)
#   QUIRE_SERVER=/tmp/quire-server-before scripts/put-cpu.sh ...   (another build: a before/after pair)
#
# Each run starts .build/release/quire-server on a fresh SQLite file (synchronous=FULL, group
# commit on, as shipped), registers an account and signs in (scripts/put-client.py), then reads
# the server's user+system CPU (/proc/PID/stat) around PUTS new 2 KB notes sent over CONNECTIONS
# keep-alive connections (every answer must be 200), and around an idle window of the same
# length, and prints (PUT window - idle window) / PUTS. The median of the runs is the figure.
#
# Why not callgrind: valgrind 3.19 (Debian 12's) dies with an internal SIGSEGV on this Swift 6.3
# binary even for --help under --tool=none, and this VM exposes no hardware counters to perf
# (instructions:u "not supported"), so instructions cannot be counted here; CPU time over a fixed
# number of PUTs, as a median of runs, is the repeatable figure that is left.
set -euo pipefail

puts=${1:-4000}
connections=${2:-8}
runs=${3:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
server=${QUIRE_SERVER:-"$root/.build/release/quire-server"}
[ -x "$server" ] || { echo "put-cpu: build first: swift build -c release --product quire-server" >&2; exit 1; }
ticks=$(getconf CLK_TCK)
dir=$(mktemp -d /tmp/quire-put-cpu.XXXXXX)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
user_ticks() { awk '{print $14}' "/proc/$1/stat"; }

results=()
user_results=()
for run in $(seq 1 "$runs"); do
  rm -rf "$dir/run" && mkdir -p "$dir/run"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$server" --db "$dir/run/server.sqlite" --port "$port" --auth-hash-iterations 1 --min-kdf-iterations 1 \
    >"$dir/run/server.log" 2>&1 &
  pid=$!
  trap 'kill "$pid" 2>/dev/null || true' EXIT
  python3 "$root/scripts/put-client.py" "$port" "$puts" "$connections" "$dir/run/ready" "$dir/run/go" \
    "$dir/run/done" &
  client=$!
  while [ ! -e "$dir/run/ready" ]; do
    kill -0 "$client" 2>/dev/null || { echo "put-cpu: the client failed; see $dir/run/server.log" >&2; exit 1; }
    kill -0 "$pid" 2>/dev/null || { echo "put-cpu: the server died; see $dir/run/server.log" >&2; exit 1; }
    sleep 0.1
  done
  profiler=""
  if [ "${QUIRE_PUT_PROFILE:-}" = 1 ] && [ "$run" = 1 ]; then
    perf record -e cpu-clock -F 2000 -g -p "$pid" -o "$dir/perf.data" >/dev/null 2>&1 &
    profiler=$!
    sleep 0.5
  fi
  before=$(cpu_ticks "$pid")
  before_user=$(user_ticks "$pid")
  started=$(date +%s.%N)
  touch "$dir/run/go"
  wait "$client"
  busy=$(($(cpu_ticks "$pid") - before))
  user=$(($(user_ticks "$pid") - before_user))
  elapsed=$(python3 -c "print(round(__import__('time').time() - $started, 2))")
  if [ -n "$profiler" ]; then kill -INT "$profiler"; wait "$profiler" || true; fi
  before=$(cpu_ticks "$pid")
  sleep "$elapsed"
  idle=$(($(cpu_ticks "$pid") - before))
  kill -TERM "$pid"
  wait "$pid" || true
  trap - EXIT
  per=$(python3 -c "print(f'{($busy - $idle) / $ticks / $puts * 1000:.4f}')")
  per_user=$(python3 -c "print(f'{$user / $ticks / $puts * 1000:.4f}')")
  echo "run $run: $puts PUTs in $elapsed s ($(python3 -c "print(round($puts / $elapsed))") PUT/s)," \
    "server CPU $busy ticks ($user user), idle $idle: $per ms per PUT, $per_user ms of it user"
  results+=("$per")
  user_results+=("$per_user")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
echo "server CPU per PUT, median of $runs runs: $(median "${results[@]}") ms," \
  "user $(median "${user_results[@]}") ms ($puts PUTs, $connections connections)"
if [ -e "$dir/perf.data" ]; then
  echo "profile: perf report -i $dir/perf.data --no-children --sort symbol | head -60"
fi
