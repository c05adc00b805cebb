#!/usr/bin/env bash
# CPU profile of our server under one bench load: starts `bun --cpu-prof src/main.ts`, runs one
# compare metric against it (bench/profile/load.ts), stops it with SIGTERM (the profile is written on exit) and
# prints the layer split (bench/profile/split.ts).
#
#   bench/profile/profile.sh firehose [--duration s]      # publish 1 KB, client-default batching
#   bench/profile/profile.sh throughput                   # end-to-end StreamingPull, tuned client
#   bench/profile/profile.sh pull                         # unary Pull(1000) + Acknowledge
#   SERVER_ARGS="--foo" bench/profile/profile.sh …        # extra server flags
# Writes bench/results/profile-<scenario>.cpuprofile (open it in Chrome DevTools or speedscope).
set -euo pipefail
cd "$(dirname "$0")/../.."
scenario="$1"; shift
out=bench/results; mkdir -p "$out"
port=$((20000 + RANDOM % 20000))
# shellcheck disable=SC2086
bun --cpu-prof --cpu-prof-dir="$out" --cpu-prof-name="profile-$scenario.cpuprofile" src/main.ts \
  --host-port "127.0.0.1:$port" --log-level warn ${SERVER_ARGS:-} &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done
timeout 300 bun bench/profile/load.ts "$scenario" --target "127.0.0.1:$port" "$@"
kill -TERM $pid; wait $pid || true
trap - EXIT
bun bench/profile/split.ts "$out/profile-$scenario.cpuprofile" --top "${TOP:-20}"
