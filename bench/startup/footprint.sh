#!/usr/bin/env bash
# Sizes and idle memory of the three ways to run the emulator: `bun src/main.ts`, the compiled
# binary and the image under podman (when IMAGE names a built one, e.g. .ci/image's): start-up
# CPU and wall time and idle RSS (ready-cost.ts), image sizes, podman run → started line.
#
#   bench/startup/footprint.sh
#   IMAGE=localhost/pubsub-emulator:ci RUNS=10 bench/startup/footprint.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS="${RUNS:-5}"
[[ -x dist/pubsub-emulator ]] || bun run build >/dev/null

rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

echo "binary dist/pubsub-emulator: $(stat -c %s dist/pubsub-emulator) bytes"
bun bench/startup/ready-cost.ts "$RUNS" bun src/main.ts
bun bench/startup/ready-cost.ts "$RUNS" dist/pubsub-emulator

if [[ -n "${IMAGE:-}" ]]; then
  run=(podman run --rm --runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096)
  echo "image $IMAGE: $(podman image inspect "$IMAGE" --format '{{.Size}}') bytes," \
    "$(podman save --format docker-archive "$IMAGE" | gzip -6 | wc -c) bytes gzip -6"
  starts=() rss=()
  for k in $(seq 1 "$RUNS"); do
    name="footprint-$$-$k"
    t0=$(date +%s%3N)
    # Attached, so the line is seen the moment it is printed (bash waits for grep only).
    timeout 10 grep -q -m1 started < <("${run[@]}" --name "$name" "$IMAGE" 2>/dev/null) ||
      { echo "no started line from the image" >&2; exit 1; }
    starts+=($(($(date +%s%3N) - t0)))
    sleep 3
    rss+=("$(rss_kb "$(podman inspect "$name" --format '{{.State.Pid}}')")")
    podman rm -f "$name" >/dev/null 2>&1
  done
  echo "image: podman run → started line $(printf '%s\n' "${starts[@]}" | median) ms (median of $RUNS: ${starts[*]})"
  echo "image: idle RSS $(($(printf '%s\n' "${rss[@]}" | median) / 1024)) MiB (median of $RUNS)"
fi
