/** fake-gcs-server (built by .ci/fake-gcs-server from the Go module proxy, pinned), started per test file. */
import { startSidecar } from "../helpers/sidecar.ts";

export const FAKE_GCS = process.env.FAKE_GCS_SERVER ?? "/opt/fake-gcs-server/v1.56.1/fake-gcs-server";

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
  const up = (port: number) =>
    fetch(`http://127.0.0.1:${port}/storage/v1/b`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
  const { port, stop } = await startSidecar(
    "fake-gcs-server",
    (port) => [FAKE_GCS, "-scheme", "http", "-host", "127.0.0.1", "-port", String(port), "-backend", "memory", "-log-level", "error"],
    up,
    { ms: 15_000, missing: "run bash .ci/fake-gcs-server" },
  );
  const url = `http://127.0.0.1:${port}`;
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
    stop,
  };
}
