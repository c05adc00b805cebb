#!/usr/bin/env bash
# Whole-command timings with hyperfine: start-up to the first successful RPC (gRPC CreateTopic,
# and HTTP GET /health), `bun src/main.ts --help`, and bare `bun -e 0` as the runtime floor; the
# same for the compiled binary (dist/pubsub-emulator, built with `bun run build` when missing).
#
#   bench/startup/startup.sh                 # 2 repeats × 30 runs, 3 warm-ups each
#   RUNS=50 REPEAT=3 bench/startup/startup.sh
#   NO_INSTALL=1 bench/startup/startup.sh    # never apt-get install hyperfine
#   FALLBACK=1 bench/startup/startup.sh      # use the bun loop even if hyperfine exists
#
# hyperfine is installed with apt-get when missing (root only); without it a bun loop timing
# each run with Bun.nanoseconds() (loop.ts) stands in. Writes into bench/results/:
#   <stamp>-startup-run<k>.json (hyperfine --export-json shape), <stamp>-startup.txt (best of runs)
set -euo pipefail

cd "$(dirname "$0")/../.."
BUN="${BUN:-$(command -v bun)}"
RUNS="${RUNS:-30}"
WARMUP="${WARMUP:-3}"
REPEAT="${REPEAT:-2}"
RESULTS=bench/results
STAMP="$(date -u +%Y-%m-%dT%H%M%S)"
mkdir -p "$RESULTS"

if [[ -z "${FALLBACK:-}" ]] && ! command -v hyperfine >/dev/null 2>&1 && [[ -z "${NO_INSTALL:-}" ]]; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "startup.sh: hyperfine not found; installing it with apt-get" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine; } >&2 ||
      echo "startup.sh: apt-get could not install hyperfine" >&2
  else
    echo "startup.sh: hyperfine not found and cannot apt-get install it (not root or no apt-get)" >&2
  fi
fi

# name|command pairs; commands run without a shell (hyperfine -N), split on spaces.
COMMANDS=(
  "bun -e 0 (runtime floor)|$BUN -e 0"
  "main.ts --help|$BUN src/main.ts --help"
  "start → first CreateTopic (gRPC)|$BUN bench/startup/first-rpc.ts"
  "start → first GET /health|$BUN bench/startup/first-rpc.ts --http"
  "binary --help|dist/pubsub-emulator --help"
  "binary: start → first CreateTopic (gRPC)|$BUN bench/startup/first-rpc.ts --binary dist/pubsub-emulator"
)
[[ -x dist/pubsub-emulator ]] || "$BUN" run build >/dev/null

# The first-RPC script must work before it is timed: a failing command would time an error.
"$BUN" bench/startup/first-rpc.ts --verbose
"$BUN" bench/startup/first-rpc.ts --http --verbose
"$BUN" bench/startup/first-rpc.ts --binary dist/pubsub-emulator --verbose

FILES=()
if [[ -z "${FALLBACK:-}" ]] && command -v hyperfine >/dev/null 2>&1; then
  TOOL="$(hyperfine --version)"
  for k in $(seq 1 "$REPEAT"); do
    out="$RESULTS/$STAMP-startup-run$k.json"
    args=(-N --warmup "$WARMUP" --runs "$RUNS" --export-json "$out")
    for c in "${COMMANDS[@]}"; do args+=(-n "${c%%|*}" "${c#*|}"); done
    echo "=== hyperfine, run $k/$REPEAT ==="
    hyperfine "${args[@]}"
    FILES+=("$out")
  done
else
  TOOL="bun loop (Bun.nanoseconds), hyperfine unavailable"
  for k in $(seq 1 "$REPEAT"); do
    out="$RESULTS/$STAMP-startup-run$k.json"
    args=()
    for c in "${COMMANDS[@]}"; do args+=("${c%%|*}" "${c#*|}"); done
    echo "=== bun loop, run $k/$REPEAT ==="
    "$BUN" bench/startup/loop.ts "$out" "$RUNS" "$WARMUP" "${args[@]}"
    FILES+=("$out")
  done
fi

echo
"$BUN" bench/startup/summarize.ts "$RESULTS/$STAMP-startup.txt" "$TOOL" "${FILES[@]}"
echo "wrote ${FILES[*]} $RESULTS/$STAMP-startup.txt"
