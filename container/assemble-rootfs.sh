#!/bin/sh
# Assembles the image's whole filesystem in OUT: the compiled emulator, the shared libraries ldd
# lists for it (from this machine, where it was built), a static busybox for /bin/sh, the gcloud
# shim, the entrypoint, a non-root user and /tmp. The Dockerfile's build stage runs it, and so
# does CI (.ci/image) before `buildah bud` — the image built here is the one a Docker host builds.
#
#   container/assemble-rootfs.sh dist/pubsub-emulator OUT [BUSYBOX]
#
# For another architecture's binary (the linux-arm64 image), SYSROOT names where that
# architecture's libraries live here (Debian's libc6-arm64-cross: /usr/aarch64-linux-gnu) and
# EXEC the user-mode emulator that runs its programs (qemu-aarch64-static): libraries are listed
# by its own loader, copied to the same paths under / in the image, and the checks run under EXEC.
set -eu
SYSROOT=${SYSROOT:-}
EXEC=${EXEC:-}

BIN=${1:?usage: assemble-rootfs.sh BINARY OUT [BUSYBOX]}
OUT=${2:?usage: assemble-rootfs.sh BINARY OUT [BUSYBOX]}
BUSYBOX=${3:-/bin/busybox}
HERE=$(cd "$(dirname "$0")" && pwd)
UID_GID=10001

die() { echo "assemble-rootfs: $*" >&2; exit 1; }
[ -x "$BIN" ] || die "$BIN is not an executable (run bun run build first)"
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing (apt-get install busybox-static)"
# A dynamically linked busybox would need its own libraries: insist on the static one.
if ldd "$BUSYBOX" >/dev/null 2>&1; then die "$BUSYBOX is not statically linked (apt-get install busybox-static)"; fi
# ldd, or the foreign loader's --list under EXEC (its lines name the libraries under SYSROOT).
list_libs() {
  if [ -z "$SYSROOT" ]; then ldd "$1"; return; fi
  loader=$(ls "$SYSROOT"/lib/ld-linux*.so.* | head -1)
  $EXEC "$loader" --library-path "$SYSROOT/lib" --list "$1"
}

rm -rf "$OUT"
mkdir -p "$OUT/bin" "$OUT/usr/local/bin" "$OUT/etc" "$OUT/tmp" "$OUT/data"
chmod 1777 "$OUT/tmp"

install -m 0755 "$BIN" "$OUT/usr/local/bin/pubsub-emulator"
install -m 0755 "$HERE/gcloud" "$OUT/usr/local/bin/gcloud"
install -m 0755 "$HERE/entrypoint.sh" "$OUT/usr/local/bin/entrypoint"

# Every library the loader would map, at the path ldd resolves it to (symlinks followed).
libs=$(list_libs "$BIN" | awk '/=>/ { print $3 } !/=>/ && $1 ~ /^\// { print $1 }')
[ -n "$libs" ] || die "ldd listed no libraries for $BIN"
for src in $libs; do
  lib=${src#"$SYSROOT"}
  mkdir -p "$OUT$(dirname "$lib")"
  cp -L "$src" "$OUT$lib"
done
libs=$(for src in $libs; do echo "${src#"$SYSROOT"}"; done)
# The loader path is fixed in the binary; keep /lib64 → the file copied above on merged-/usr hosts.
interp=$(list_libs "$BIN" | awk '$1 ~ /^\/.*ld-linux/ { print $1 }')
[ -n "$interp" ] && [ -e "$OUT$interp" ] || die "no dynamic loader found for $BIN"

install -m 0755 "$BUSYBOX" "$OUT/bin/busybox"
for applet in $($EXEC "$BUSYBOX" --list); do
  [ -e "$OUT/bin/$applet" ] || ln -s busybox "$OUT/bin/$applet"
done

cat >"$OUT/etc/passwd" <<PASSWD
root:x:0:0:root:/root:/bin/sh
pubsub:x:$UID_GID:$UID_GID:pubsub-emulator:/data:/bin/sh
PASSWD
cat >"$OUT/etc/group" <<GROUP
root:x:0:
pubsub:x:$UID_GID:
GROUP
printf 'hosts: files dns\n' >"$OUT/etc/nsswitch.conf"
chown "$UID_GID:$UID_GID" "$OUT/data" 2>/dev/null || true

# The emulator must start from this tree alone: run it through the copied loader and libraries.
libpath=$(for lib in $libs; do printf '%s:' "$OUT$(dirname "$lib")"; done)
$EXEC "$OUT$interp" --library-path "$libpath" \
  "$OUT/usr/local/bin/pubsub-emulator" --version >/dev/null || die "the assembled binary does not run"
echo "assemble-rootfs: $OUT ($(du -sh "$OUT" | cut -f1))"
