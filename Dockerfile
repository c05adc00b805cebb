# A small image of the emulator: Bun on Alpine, production dependencies only.
# docker build -t pubsub-emulator . && docker run -p 8085:8085 pubsub-emulator
FROM oven/bun:1.4.5-alpine
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production && rm -rf /root/.bun/install/cache
COPY protos ./protos
COPY src ./src
# The container listens on every interface; outside a container the default is loopback.
ENV PUBSUB_HOST_PORT=0.0.0.0:8085
EXPOSE 8085
# A place for --data-dir that the bun user can write; a named volume mounted there inherits it.
RUN mkdir -p /data && chown bun:bun /data
USER bun
HEALTHCHECK --interval=2s --timeout=2s --start-period=1s --retries=5 \
  CMD wget -qO- http://127.0.0.1:8085/health >/dev/null || exit 1
ENTRYPOINT ["bun", "src/main.ts"]
