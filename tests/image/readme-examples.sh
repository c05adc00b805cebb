#!/usr/bin/env bash
# Runs the documentation's drop-in examples as written, against the image and binary CI just built:
#   - docker-compose: docs/container.md's compose file and the README's short one (their `build:` /
#     `image:` lines pointed at the image, the `app` service a container that reaches
#     `pubsub:8085` by name) under podman-compose;
#   - GitHub Actions, service container (docs/container.md): the image with the workflow's env and port, waited on
#     through its HEALTHCHECK as the runner does, then an app test configured by env alone;
#   - GitHub Actions, binary: its `run:` block executed as the step would, then the
#     same app test.
# Every wait is bounded; fails loudly. Prints "examples: N passed, 0 failed".
#   IMAGE=localhost/pubsub-emulator:ci BIN=dist/pubsub-emulator bash tests/image/readme-examples.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${IMAGE:?IMAGE is the image to run}" "${BIN:?BIN is the compiled binary}"
ROOT=$PWD
DOC=docs/container.md
WORK=$(mktemp -d)
passed=0
CIDS=()
COMPOSE_UP=
COMPOSE_DIR=
BIN_PID=
# runc and limits this sandbox accepts, for podman-compose's own podman calls (as .ci/image's RUN).
cat >"$WORK/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]
[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$WORK/containers.conf"
PROJECT=pse-examples-$$

cleanup() {
  [ -n "$BIN_PID" ] && kill "$BIN_PID" 2>/dev/null || true
  [ -n "$COMPOSE_UP" ] && (cd "$COMPOSE_DIR" && timeout 60 podman-compose -p "$PROJECT" down -t 5 >/dev/null 2>&1) || true
  for c in "${CIDS[@]}"; do timeout 30 podman rm -f "$c" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
die() { echo "examples: FAILED: $*" >&2; exit 1; }
ok() { passed=$((passed + 1)); echo "  ok  $*"; }
# The fenced block that follows the first line containing $3 (the fence line itself may) in the
# section of file $1 headed by the line $2, which ends at the next heading of its level or above
# (a `#` line inside another fence is no heading).
block() {
  awk -v head="$2" -v after="$3" '
    BEGIN { level = index(head, " ") - 1 }
    !in_sec { if ($0 == head) in_sec = 1; next }
    /^```/ {
      if (open) exit
      if (!seen && index($0, after)) seen = 1
      if (seen) { open = 1; next }
      fence = !fence; next
    }
    open { print; next }
    !fence && /^#+ / && index($0, " ") - 1 <= level { exit }
    !seen && index($0, after) { seen = 1 }' "$1"
}
wait_for() { # seconds, description, command…
  local until=$((SECONDS + $1)) what=$2
  shift 2
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$until" ] || die "$what within the time limit"
    sleep 0.5
  done
}
port_free() { ! (exec 3<>/dev/tcp/127.0.0.1/8085) 2>/dev/null; }

command -v podman-compose >/dev/null || die "podman-compose is missing (.ci/image installs it)"
port_free || die "port 8085 is taken: the examples use it as written"

# A compose example ($1: file, $2: its section's heading line, $3: a line its compose file holds)
# under podman-compose: the emulator serves PUBSUB_PROJECT1's resources on the published port, and
# the app service reaches it by service name. More checks of that run: the function compose_more.
compose_example() {
  local doc=$1 head=$2 marker=$3 dir
  dir=$(mktemp -d "$WORK/compose.XXXX")
  echo "== examples: docker-compose ($doc, $head) under podman-compose ($(dpkg-query -W -f '${Version}' podman-compose 2>/dev/null || echo '?'))"
  block "$doc" "$head" '```yaml' >"$dir/example.yaml"
  grep -qF "$marker" "$dir/example.yaml" || die "$doc's compose block was not found"
  # The example builds from the Dockerfile or names the image; here the image CI built stands for
  # it, and the app is a container that checks it can reach the emulator at PUBSUB_EMULATOR_HOST.
  awk -v img="$IMAGE" '
    /^  pubsub:/ { svc = "pubsub" } /^  app:/ { svc = "app" }
    /^    (build|image):/ { print "    image: " img; if (svc == "app") print "    command: [\"/bin/sh\", \"-c\", \"pubsub-emulator healthcheck --host-port $$PUBSUB_EMULATOR_HOST && echo app reached $$PUBSUB_EMULATOR_HOST\"]"; next }
    { print }' "$dir/example.yaml" >"$dir/docker-compose.yml"
  compose_files "$dir"
  (cd "$dir" && timeout 180 podman-compose -p "$PROJECT" up -d >"$WORK/compose.log" 2>&1) || { cat "$WORK/compose.log" >&2; die "podman-compose up failed"; }
  COMPOSE_UP=1 COMPOSE_DIR=$dir
  wait_for 30 "the compose emulator did not answer on 127.0.0.1:8085" "$BIN" healthcheck --host-port 127.0.0.1:8085
  ok "podman-compose up: the emulator answers on the published port 8085"
  PUBSUB_EMULATOR_HOST=localhost:8085 PUBSUB_PROJECT_ID=my-project timeout 60 bun tests/image/env-check.ts orders orders-worker ||
    die "the compose emulator did not serve the PUBSUB_PROJECT1 resources"
  ok "PUBSUB_PROJECT1's resources served to the official client"
  compose_more
  local app logs
  app=$(podman ps -a --filter "label=com.docker.compose.project=$PROJECT" --filter label=com.docker.compose.service=app --format '{{.ID}}' | head -1)
  [ -n "$app" ] || die "no app container"
  wait_for 60 "the app container did not finish" sh -c "[ \"\$(podman inspect $app --format '{{.State.Status}}')\" = exited ]"
  logs=$(podman logs "$app" 2>&1)
  grep -q 'app reached pubsub:8085' <<<"$logs" || die "the app did not reach pubsub:8085: $logs"
  ok "the app service reached the emulator as pubsub:8085 (service name, compose network)"
  (cd "$dir" && timeout 60 podman-compose -p "$PROJECT" down -t 5 >/dev/null 2>&1) || die "podman-compose down failed"
  COMPOSE_UP=
  wait_for 20 "port 8085 still taken after compose down" port_free
}

# docs/container.md's file mounts a pubsub.yaml as PUBSUB_CONFIG: one is written beside it, and
# its resources must be served too.
compose_files() {
  cat >"$1/pubsub.yaml" <<'YAML'
projects:
  - id: my-project
    topics:
      - name: payments
        subscriptions: [payments-worker]
YAML
  chmod 644 "$1/pubsub.yaml"
}
compose_more() {
  PUBSUB_EMULATOR_HOST=localhost:8085 PUBSUB_PROJECT_ID=my-project timeout 60 bun tests/image/env-check.ts payments payments-worker ||
    die "the compose emulator did not apply PUBSUB_CONFIG (the mounted pubsub.yaml)"
  ok "the mounted PUBSUB_CONFIG file provisioned, served to the official client"
}
compose_example "$DOC" "## docker-compose" "PUBSUB_PROJECT1: my-project,orders:orders-worker,audit"
compose_files() { :; }
compose_more() { :; }
compose_example README.md "### A container image" "PUBSUB_PROJECT1: my-project,orders:orders-worker"

echo "== examples: GitHub Actions, service container ($DOC)"
env=$(block "$DOC" "## GitHub Actions" "As a service container" | sed -n 's/^ *\(PUBSUB_PROJECT1\): *\(.*\)$/\1=\2/p')
[ -n "$env" ] || die "$DOC's service container block was not found"
CID=$(timeout 60 podman run --runtime runc --ulimit nofile=20000:20000 --ulimit nproc=4096:4096 -d -p 8085:8085 -e "$env" "$IMAGE" 2>>"$WORK/podman.err") || die "podman run failed: $(tail -3 "$WORK/podman.err")"
CIDS+=("$CID")
# The runner waits for the service's health status before the steps.
wait_for 30 "the service container never became healthy" sh -c "podman healthcheck run $CID 2>>$WORK/podman.err"
ok "service container healthy through its HEALTHCHECK"
PUBSUB_EMULATOR_HOST=localhost:8085 PUBSUB_PROJECT_ID=my-project timeout 60 bun tests/image/env-check.ts orders orders-worker ||
  die "the app test failed against the service container"
ok "the workflow's env (PUBSUB_EMULATOR_HOST=localhost:8085, PUBSUB_PROJECT_ID) serves the app test"
timeout 30 podman rm -f "$CID" >/dev/null 2>>"$WORK/podman.err"
wait_for 20 "port 8085 still taken after the service container" port_free

echo "== examples: GitHub Actions, the binary ($DOC run: step)"
mkdir -p "$WORK/job/dist"
cp "$BIN" "$WORK/job/dist/pubsub-emulator"
step=$(block "$DOC" "## GitHub Actions" "Or the binary" | sed -n '/run: |/,$p' | tail -n +2 | sed 's/^ *//')
grep -q 'pubsub-emulator' <<<"$step" || die "$DOC's binary step was not found"
(cd "$WORK/job" && eval "$step"; echo $! >"$WORK/bin.pid") || die "$DOC's binary step failed: $(cat "$WORK/job/pubsub.log" 2>/dev/null)"
BIN_PID=$(cat "$WORK/bin.pid")
ok "the step started the binary and its healthcheck loop passed"
(cd "$ROOT" && PUBSUB_EMULATOR_HOST=localhost:8085 PUBSUB_PROJECT_ID=my-project timeout 60 bun tests/image/env-check.ts orders orders-worker) ||
  die "the app test failed against the binary"
ok "the app test passes against the binary the step started"

echo "examples: $passed passed, 0 failed"
