/** Google's Cloud Bigtable emulator (Debian package google-cloud-cli-bigtable-emulator), started per test file. */
import { spawn, type Subprocess } from "bun";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

export const CBT_EMULATOR = "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator";

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export interface BigtableEmulator {
  host: string;
  stop(): Promise<void>;
}

/** Starts the emulator and resolves once it accepts connections (bounded: 10 s). */
export async function startBigtableEmulator(): Promise<BigtableEmulator> {
  if (!existsSync(CBT_EMULATOR)) throw new Error(`${CBT_EMULATOR} is missing: apt-get install google-cloud-cli-bigtable-emulator`);
  const port = await freePort();
  const proc: Subprocess = spawn([CBT_EMULATOR, "--host=127.0.0.1", `--port=${port}`], { stdout: "pipe", stderr: "pipe" });
  const until = Date.now() + 10_000;
  for (;;) {
    const ok = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) {
      proc.kill();
      throw new Error("the Bigtable emulator did not start within 10 s");
    }
    await Bun.sleep(20);
  }
  return {
    host: `127.0.0.1:${port}`,
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}
