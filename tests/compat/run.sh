#!/usr/bin/env bash
# Official-SDK compatibility suites (Python, Go, Java) against a running emulator.
#
#   PUBSUB_EMULATOR_HOST=127.0.0.1:8085 tests/compat/run.sh [python] [go] [java]
#
# Installs each suite's pinned packages from the public registries (pip into
# tests/compat/python/.venv, go mod download, Maven), then runs the suites in their own
# test runners. It does NOT start an emulator: the caller starts one and exports
# PUBSUB_EMULATOR_HOST. Exits non-zero if any suite fails.
#
# Optional environment:
#   COMPAT_MAVEN_REPO   local Maven repository (default: Maven's own, ~/.m2/repository)
#   COMPAT_SUITE_TIMEOUT  hard limit per suite in seconds, installs included (default 480)
#   PYTHON              Python interpreter for the venv (default python3)
set -euo pipefail
export CI=true PYTHONDONTWRITEBYTECODE=1
exec </dev/null

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
suite_timeout="${COMPAT_SUITE_TIMEOUT:-480}"

if [[ -z "${PUBSUB_EMULATOR_HOST:-}" ]]; then
  echo "run.sh: PUBSUB_EMULATOR_HOST is not set; start the emulator and export it first" >&2
  exit 2
fi

langs=("$@")
if [[ ${#langs[@]} -eq 0 ]]; then
  langs=(python go java)
fi
for lang in "${langs[@]}"; do
  case "$lang" in
    python | go | java) ;;
    *)
      echo "run.sh: unknown suite '$lang' (expected: python go java)" >&2
      exit 2
      ;;
  esac
done

need() {
  command -v "$1" >/dev/null 2>&1 || {
    echo "run.sh: '$1' not found on PATH (needed for the $2 suite)" >&2
    return 1
  }
}

# Fail fast if the emulator is not listening (bash's /dev/tcp; no extra tools needed).
emu_host="${PUBSUB_EMULATOR_HOST%:*}"
emu_port="${PUBSUB_EMULATOR_HOST##*:}"
if ! timeout 5 bash -c "exec 3<>/dev/tcp/${emu_host}/${emu_port}" 2>/dev/null; then
  echo "run.sh: nothing is listening on PUBSUB_EMULATOR_HOST=${PUBSUB_EMULATOR_HOST}" >&2
  exit 2
fi

run_python() {
  local py="${PYTHON:-python3}"
  need "$py" python
  cd "$here/python"
  local stamp=".venv/.requirements.lock.sha256"
  local want
  want="$(sha256sum requirements.lock | cut -d' ' -f1)"
  if [[ ! -x .venv/bin/python || "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]]; then
    echo "== python: installing requirements.lock into tests/compat/python/.venv"
    rm -rf .venv
    "$py" -m venv .venv
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-input \
      --require-hashes -r requirements.lock
    echo "$want" >"$stamp"
  fi
  echo "== python: pytest"
  .venv/bin/python -m pytest -q
}

run_go() {
  need go go
  cd "$here/go"
  export GOTOOLCHAIN=local GOFLAGS=-mod=readonly
  echo "== go: go mod download"
  go mod download
  echo "== go: go test"
  local log rc
  log="$(mktemp)"
  # Streamed so a timeout still shows progress: failures in full, per-test PASS lines
  # and RUN markers dropped, then the runner's own summary.
  set +e
  go test -count=1 -timeout 6m -v ./... 2>&1 | tee "$log" |
    grep --line-buffered -vE '^(=== (RUN|PAUSE|CONT|NAME)|--- PASS|    --- PASS)|^\s*$'
  rc=${PIPESTATUS[0]}
  set -e
  echo "-- go: $(grep -cE '^--- PASS' "$log" || true) passed, $(grep -cE '^--- FAIL' "$log" || true) failed"
  rm -f "$log"
  return "$rc"
}

run_java() {
  need mvn java
  need java java
  cd "$here/java"
  local repo=()
  if [[ -n "${COMPAT_MAVEN_REPO:-}" ]]; then
    repo=("-Dmaven.repo.local=${COMPAT_MAVEN_REPO}")
  fi
  echo "== java: mvn test (resolves pom.xml from Maven Central on first run)"
  local log rc
  log="$(mktemp)"
  # Surefire's report (per-class results, failures, totals), streamed, without
  # JUL/transfer noise; the full log's tail if the build failed before any test ran.
  set +e
  mvn -B -ntp "${repo[@]}" -Dstyle.color=never test 2>&1 | tee "$log" |
    sed -un '/T E S T S/,/BUILD \(SUCCESS\|FAILURE\)/p' |
    grep --line-buffered -vE '^[A-Z][a-z]{2} [0-9]{1,2}, [0-9]{4} |^(INFO|WARNING): |^\[INFO\] *$|^\[INFO\] -+$'
  rc=${PIPESTATUS[0]}
  set -e
  if [[ $rc -ne 0 ]] && ! grep -q 'Tests run:' "$log"; then
    tail -n 60 "$log"
  fi
  rm -f "$log"
  return "$rc"
}

declare -A result seconds
failed=0
for lang in "${langs[@]}"; do
  echo
  echo "######## $lang suite (PUBSUB_EMULATOR_HOST=$PUBSUB_EMULATOR_HOST)"
  start=$SECONDS
  rc=0
  # Each suite runs in a subshell with a hard time limit, so one stuck runner cannot
  # hang the stage; the runners' own per-test timeouts are much shorter.
  export -f need "run_$lang"
  export here
  timeout --kill-after=20 "$suite_timeout" bash -euo pipefail -c "run_$lang" || rc=$?
  seconds[$lang]=$((SECONDS - start))
  if [[ $rc -eq 0 ]]; then
    result[$lang]=PASS
  elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
    result[$lang]="FAIL (timed out after ${suite_timeout}s)"
    failed=1
  else
    result[$lang]="FAIL (exit $rc)"
    failed=1
  fi
done

echo
echo "######## compat summary"
for lang in "${langs[@]}"; do
  printf '  %-7s %-32s %4ss\n' "$lang" "${result[$lang]}" "${seconds[$lang]}"
done
exit "$failed"
