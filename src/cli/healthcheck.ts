/**
 * `pubsub-emulator healthcheck`: exits 0 when the emulator at the configured address answers
 * GET /health with 200, for images without curl or wget (Docker HEALTHCHECK, compose).
 */
import type { Config } from "../runtime/config.ts";
import { clientAddress } from "./address.ts";

export interface HealthResult {
  ok: boolean;
  detail: string;
}

export async function healthcheck(config: Pick<Config, "host" | "port">, timeoutMs = 2000): Promise<HealthResult> {
  if (config.port === 0) return { ok: false, detail: "healthcheck needs the port (--host-port HOST:PORT or PUBSUB_HOST_PORT)" };
  const url = `http://${clientAddress(config, "127.0.0.1")}/health`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status === 200 ? { ok: true, detail: `${url}: 200` } : { ok: false, detail: `${url}: HTTP ${res.status}` };
  } catch (e) {
    return { ok: false, detail: `${url}: ${(e as Error).message}` };
  }
}
