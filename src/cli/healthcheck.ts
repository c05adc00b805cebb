/**
 * `pubsub-emulator healthcheck`: exits 0 when the emulator at the configured address answers
 * GET /health with 200, for images without curl or wget (Docker HEALTHCHECK, compose).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { loadConfig, type Config } from "../runtime/config.ts";
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

/**
 * The address file (PUBSUB_ADDRESS_FILE, set in the image): the started emulator writes there the
 * address it serves, and `healthcheck` without --host-port checks that address instead of the
 * configured one, so the image's HEALTHCHECK follows a container started on another port
 * (Testcontainers for Python passes --host-port=0.0.0.0:8432; the image's default is 8085).
 * Written whole (a temporary file renamed over it), so a healthcheck never reads half a line.
 */
export function recordAddress(file: string, served: Pick<Config, "host" | "port">): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${clientAddress(served, "127.0.0.1")}\n`);
  renameSync(tmp, file);
}

/** What `healthcheck` checks: --host-port when given, else the address file's, else the configured address. */
export function healthTarget(
  args: readonly string[],
  config: Pick<Config, "host" | "port">,
  file: string | undefined,
): Pick<Config, "host" | "port"> {
  if (!file || args.some((a) => a === "--host-port" || a.startsWith("--host-port="))) return config;
  try {
    const text = readFileSync(file, "utf8");
    // Ours holds one host:port line; anything else is not what we wrote.
    if (text.length > 300) return config;
    return loadConfig(["--host-port", text.trim()], {});
  } catch {
    return config;
  }
}
