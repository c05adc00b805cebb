/** fake-gcs-server (built by .ci/fake-gcs-server from the Go module proxy, pinned), started per test file. */
import { spawn, type Subprocess } from "bun";
import { existsSync } from "node:fs";
import { createServer } from "node:net";

export const FAKE_GCS = process.env.FAKE_GCS_SERVER ?? "/opt/fake-gcs-server/v1.56.1/fake-gcs-server";

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

export interface FakeGcs {
  /** http://127.0.0.1:PORT, what STORAGE_EMULATOR_HOST holds. */
  url: string;
  createBucket(name: string): Promise<void>;
  upload(bucket: string, name: string, body: Uint8Array | string): Promise<void>;
  list(bucket: string): Promise<string[]>;
  download(bucket: string, name: string): Promise<Buffer>;
  stop(): Promise<void>;
}

const ok = async (r: Response) => {
  if (!r.ok) throw new Error(`fake-gcs-server: ${r.status} ${await r.text()}`);
  return r;
};

/** Starts it (memory backend) and resolves once it answers (bounded: 15 s). */
export async function startFakeGcs(): Promise<FakeGcs> {
  if (!existsSync(FAKE_GCS)) throw new Error(`${FAKE_GCS} is missing: run bash .ci/fake-gcs-server`);
  const port = await freePort();
  const proc: Subprocess = spawn([FAKE_GCS, "-scheme", "http", "-host", "127.0.0.1", "-port", String(port), "-backend", "memory", "-log-level", "error"], {
    stdout: "ignore",
    stderr: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 15_000;
  for (;;) {
    const up = await fetch(`${url}/storage/v1/b`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > until) {
      proc.kill();
      throw new Error("fake-gcs-server did not start within 15 s");
    }
    await Bun.sleep(30);
  }
  const t = () => AbortSignal.timeout(10_000);
  return {
    url,
    async createBucket(name) {
      await ok(await fetch(`${url}/storage/v1/b?project=test-project`, { method: "POST", body: JSON.stringify({ name }), headers: { "content-type": "application/json" }, signal: t() }));
    },
    async upload(bucket, name, body) {
      const q = `uploadType=media&name=${encodeURIComponent(name)}`;
      await ok(await fetch(`${url}/upload/storage/v1/b/${bucket}/o?${q}`, { method: "POST", body: body as BodyInit, signal: t() }));
    },
    async list(bucket) {
      const r = await ok(await fetch(`${url}/storage/v1/b/${bucket}/o`, { signal: t() }));
      const body = (await r.json()) as { items?: { name: string }[] };
      return (body.items ?? []).map((i) => i.name).sort();
    },
    async download(bucket, name) {
      const r = await ok(await fetch(`${url}/storage/v1/b/${bucket}/o/${encodeURIComponent(name)}?alt=media`, { signal: t() }));
      return Buffer.from(await r.arrayBuffer());
    },
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}
