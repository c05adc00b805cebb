/** Google's Cloud Bigtable emulator (Debian package google-cloud-cli-bigtable-emulator), started per test file. */
import { startSidecar } from "../helpers/sidecar.ts";

export const CBT_EMULATOR = "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator";

export interface BigtableEmulator {
  host: string;
  stop(): Promise<void>;
}

const accepts = (port: number) =>
  Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
    (s) => (s.end(), true),
    () => false,
  );

/** Starts the emulator and resolves once it accepts connections (bounded: 10 s). */
export async function startBigtableEmulator(): Promise<BigtableEmulator> {
  const { port, stop } = await startSidecar("the Bigtable emulator", (port) => [CBT_EMULATOR, "--host=127.0.0.1", `--port=${port}`], accepts, {
    ms: 10_000,
    missing: "apt-get install google-cloud-cli-bigtable-emulator",
  });
  return { host: `127.0.0.1:${port}`, stop };
}
