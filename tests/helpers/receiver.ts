/** A push endpoint for tests: a real HTTP server on 127.0.0.1 (port 0) that records every request. */
import type { Server } from "bun";
import { waitFor } from "./wait.ts";

export interface PushHit {
  headers: Headers;
  body: Uint8Array;
  /** The parsed body when it is JSON (the wrapper), else null. */
  json: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Milliseconds since the receiver started. */
  at: number;
}

/** What the receiver answers the n-th request (0-based): a status, or "hang" (no answer until stop). */
export type Responder = (hit: PushHit, n: number) => number | "hang" | Promise<number>;

export interface Receiver {
  url: string;
  hits: PushHit[];
  /** Resolves once `n` requests arrived; rejects after `ms`. */
  waitFor(n: number, ms?: number): Promise<PushHit[]>;
  stop(): Promise<void>;
}

export function startReceiver(respond: Responder = () => 200, path = "/push"): Receiver {
  const hits: PushHit[] = [];
  const started = performance.now();
  const hanging = new Set<() => void>();
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = new Uint8Array(await req.arrayBuffer());
      let json = null;
      try {
        json = JSON.parse(new TextDecoder().decode(body));
      } catch {
        json = null;
      }
      const hit: PushHit = { headers: req.headers, body, json, at: performance.now() - started };
      hits.push(hit);
      const answer = await respond(hit, hits.length - 1);
      if (answer === "hang") {
        // Held until stop() (bounded by the test's own timeouts), then dropped.
        await new Promise<void>((resolve) => hanging.add(resolve));
        return new Response(null, { status: 500 });
      }
      return new Response(null, { status: answer });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}${path}`,
    hits,
    async waitFor(n, ms = 5000) {
      await waitFor(() => hits.length >= n, ms, () => `${n} requests to the receiver (it got ${hits.length})`);
      return hits.slice(0, n);
    },
    async stop() {
      for (const release of hanging) release();
      await server.stop(true);
    },
  };
}
