/** What the shared port (src/server/listener.ts) hands its HTTP/2 connections to: the lean gRPC server or grpc-js's. */
import type * as net from "node:net";

export interface GrpcTransport {
  /** Takes over a socket whose first bytes (the HTTP/2 preface) are unshifted back into it. */
  accept(socket: net.Socket): void;
  /** GOAWAY on every connection: each closes once its calls have finished, or after `graceMs`. */
  drain(graceMs: number): void;
  /** Closes every connection at once. */
  close(): void;
}
