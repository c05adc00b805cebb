/**
 * Every gRPC server the emulator serves with (`--grpc-server`), and a suite run once per server
 * inside `bun test` (Hono's common.case.test.ts, fake-gcs-server's runServersTest): the transport
 * and fuzz suites see all three without a rerun per server.
 */
import { describe } from "bun:test";
import type { Config } from "../../src/runtime/config.ts";

export type GrpcServer = Config["grpcServer"];

/** The servers the per-server suites run on: dropping one is deleting it here. */
export const GRPC_SERVERS: readonly GrpcServer[] = ["raw", "lean", "grpc-js"];

/**
 * Runs `suite` once per server in `servers`, each in its own `--grpc-server NAME` describe, so its
 * hooks start and stop that server's emulator. PUBSUB_GRPC_SERVER=NAME narrows the run to one.
 */
export function forEachGrpcServer(suite: (grpcServer: GrpcServer) => void, servers: readonly GrpcServer[] = GRPC_SERVERS): void {
  const only = process.env.PUBSUB_GRPC_SERVER;
  for (const grpcServer of servers) if (!only || only === grpcServer) describe(`--grpc-server ${grpcServer}`, () => suite(grpcServer));
}
