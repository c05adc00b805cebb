/**
 * HTTP/1.1 on the gRPC port: health, metrics and reset for containers, scripts and the bench.
 * GET / answers 200 as the gcloud emulator does, so existing health checks keep working.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Broker } from "../core/broker.ts";
import { JWKS_PATH } from "../push/oidc.ts";

const started = Date.now();

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function metrics(broker: Broker) {
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    rssBytes: mem.rss,
    heapUsedBytes: mem.heapUsed,
    heapTotalBytes: mem.heapTotal,
    cpuUserMicros: cpu.user,
    cpuSystemMicros: cpu.system,
    uptimeSeconds: (Date.now() - started) / 1000,
    bunVersion: process.versions.bun ?? null,
    ...broker.stats(),
  };
}

export interface AdminExtras {
  /** The push OIDC signing keys, served where Google serves its own. */
  jwks?: () => Promise<unknown>;
}

export function adminHandler(broker: Broker, extras: AdminExtras = {}) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === JWKS_PATH && extras.jwks) {
      extras.jwks().then((keys) => json(res, 200, keys), () => json(res, 503, { error: { code: 503, message: "No signing key.", status: "UNAVAILABLE" } }));
      return;
    }
    if (req.method === "GET" && path === "/") return void res.end("Ok\n");
    if (req.method === "GET" && path === "/health") return json(res, 200, { status: "ok" });
    if (req.method === "GET" && path === "/metrics") return json(res, 200, metrics(broker));
    if (req.method === "POST" && path === "/reset") {
      broker.reset();
      return json(res, 200, { reset: true });
    }
    json(res, 404, { error: { code: 404, message: `No route for ${req.method} ${path}`, status: "NOT_FOUND" } });
  };
}
