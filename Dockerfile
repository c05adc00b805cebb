# The emulator as one compiled binary in an image FROM scratch: the binary, the libraries it
# links, a static busybox (for /bin/sh) and a `gcloud` shim, so it is a drop-in for the gcloud
# emulator image (Testcontainers runs `/bin/sh -c "gcloud beta emulators pubsub start …"`).
#
#   docker build -t pubsub-emulator .
#   docker run --rm -p 8085:8085 pubsub-emulator
#
# CI builds the same final stage without a Docker engine: .ci/image runs the build steps and
# container/assemble-rootfs.sh on the host, then `buildah bud` on this file's last stage.

FROM oven/bun:1.4.5 AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends busybox-static \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json bun.lock ./
# Bun is in this image already: not the npm package's per-platform Bun (optionalDependencies).
RUN bun install --frozen-lockfile --production --omit=optional
COPY tsconfig.json ./
COPY protos ./protos
COPY src ./src
COPY container ./container
RUN bun run build \
 && container/assemble-rootfs.sh dist/pubsub-emulator /rootfs /bin/busybox

FROM scratch
COPY --from=build /rootfs /
# COPY makes everything root's; the data directory belongs to the user the emulator runs as.
COPY --from=build --chown=10001:10001 /rootfs/data /data
# The emulator writes the address it serves to PUBSUB_ADDRESS_FILE and the HEALTHCHECK reads it,
# so a container started on another port (Testcontainers for Python: 8432) is checked there.
ENV PATH=/usr/local/bin:/bin \
    PUBSUB_HOST_PORT=0.0.0.0:8085 \
    PUBSUB_ADDRESS_FILE=/tmp/pubsub-emulator.address
USER 10001:10001
WORKDIR /data
EXPOSE 8085
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/pubsub-emulator", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/entrypoint"]
CMD ["start"]
