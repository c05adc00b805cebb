/** What the shared port (src/server/listener.ts) hands its HTTP/2 connections to: the raw, lean or grpc-js gRPC server. */
import type * as net from "node:net";

export interface GrpcTransport {
  /** Takes over a socket whose first bytes (the HTTP/2 preface) are unshifted back into it. */
  accept(socket: net.Socket): void;
  /** GOAWAY on every connection: each closes once its calls have finished, or after `graceMs`. */
  drain(graceMs: number): void;
  /** Closes every connection at once. */
  close(): void;
}

/** A transport's drain over its live connections: each is told to go away now, and whatever is still open after `graceMs` is destroyed. */
export function drainConnections<T>(live: ReadonlySet<T>, goAway: (c: T) => void, destroy: (c: T) => void, graceMs: number): void {
  for (const c of live) goAway(c);
  setTimeout(() => {
    for (const c of [...live]) destroy(c);
  }, graceMs).unref?.();
}
