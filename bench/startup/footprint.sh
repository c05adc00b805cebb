#!/usr/bin/env bash
# Sizes and idle memory of the three ways to run the emulator: `bun src/main.ts`, the compiled
# binary and the image under podman (when IMAGE names a built one, e.g. .ci/image's). Idle RSS is
# VmRSS of the server process 3 s after its started line, with no client connected.
#
#   bench/startup/footprint.sh
#   IMAGE=localhost/pubsub-emulator:ci RUNS=10 bench/startup/footprint.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS="${RUNS:-5}"
[[ -x dist/pubsub-emulator ]] || bun run build >/dev/null

rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
# Starts "$@" in the background, waits for the started line (bounded), prints VmRSS 3 s later.
idle_rss() {
  local log pid
  log=$(mktemp)
  "$@" --host-port 127.0.0.1:0 --log-level warn >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do grep -q started "$log" && break; sleep 0.1; done
  grep -q started "$log" || { echo "no started line from $*" >&2; kill "$pid"; return 1; }
  sleep 3
  rss_kb "$pid"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -f "$log"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "binary dist/pubsub-emulator: $(stat -c %s dist/pubsub-emulator) bytes"
for what in "bun src/main.ts" "dist/pubsub-emulator"; do
  # shellcheck disable=SC2086
  kb=$(for _ in $(seq 1 "$RUNS"); do idle_rss $what; done | median)
  echo "idle RSS, $what: $((kb / 1024)) MiB (median of $RUNS)"
done

if [[ -n "${IMAGE:-}" ]]; then
  run=(podman run -d --runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096)
  echo "image $IMAGE: $(podman image inspect "$IMAGE" --format '{{.Size}}') bytes," \
    "$(podman save --format docker-archive "$IMAGE" | gzip -6 | wc -c) bytes gzip -6"
  starts=() rss=()
  for k in $(seq 1 "$RUNS"); do
    name="footprint-$$-$k"
    t0=$(date +%s%3N)
    # Attached, so the line is seen the moment it is printed (bash waits for grep only).
    timeout 10 grep -q -m1 started < <("${run[@]/-d/--rm}" --name "$name" "$IMAGE" 2>/dev/null) ||
      { echo "no started line from the image" >&2; exit 1; }
    starts+=($(($(date +%s%3N) - t0)))
    sleep 3
    rss+=("$(rss_kb "$(podman inspect "$name" --format '{{.State.Pid}}')")")
    podman rm -f "$name" >/dev/null 2>&1
  done
  echo "image: podman run → started line $(printf '%s\n' "${starts[@]}" | median) ms (median of $RUNS: ${starts[*]})"
  echo "image: idle RSS $(($(printf '%s\n' "${rss[@]}" | median) / 1024)) MiB (median of $RUNS)"
fi
