/** Another program a test talks to (a storage or Bigtable emulator), on a free loopback port. */
import { spawn, type Subprocess } from "bun";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { waitFor } from "./wait.ts";

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export interface Sidecar {
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts `command(port)` on a free port and resolves once `ready(port)` holds, or kills it and
 * rejects after `ms`. `missing` says how to install `command[0]` when it is not there.
 */
export async function startSidecar(
  name: string,
  command: (port: number) => string[],
  ready: (port: number) => Promise<boolean>,
  { ms, missing }: { ms: number; missing: string },
): Promise<Sidecar> {
  const port = await freePort();
  const argv = command(port);
  if (!existsSync(argv[0]!)) throw new Error(`${argv[0]} is missing: ${missing}`);
  const proc: Subprocess = spawn(argv, { stdout: "ignore", stderr: "ignore" });
  const stop = async () => {
    proc.kill();
    await proc.exited;
  };
  try {
    await waitFor(() => ready(port), ms, `${name} to start`, 20);
  } catch (e) {
    await stop();
    throw new Error(`${name} did not start within ${ms / 1000} s`, { cause: e });
  }
  return { port, stop };
}
