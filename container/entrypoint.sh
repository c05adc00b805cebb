#!/bin/sh
# Flags and the emulator's own commands go to the emulator (`docker run IMAGE --log-level debug`);
# anything else runs as given, as in the gcloud image (`/bin/sh -c "gcloud beta emulators …"`).
case "${1:-}" in
  "" | -* | start | env-init | healthcheck | help | version) exec /usr/local/bin/pubsub-emulator "$@" ;;
esac
exec "$@"
