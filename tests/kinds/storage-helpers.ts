/** Cloud Storage buckets as folders of a `--storage-dir`, and Avro objects read back with avsc. */
import avro from "avsc";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Readable } from "node:stream";
import type { Subscription } from "@google-cloud/pubsub";
import { afterAll, beforeAll } from "bun:test";
import { startTestEmulator, waitFor, type TestEmulator } from "../helpers/emulator.ts";

export class StorageDir {
  readonly dir = mkdtempSync(join(tmpdir(), "gcs-"));

  createBucket(bucket: string): void {
    mkdirSync(join(this.dir, bucket), { recursive: true });
  }

  removeBucket(bucket: string): void {
    rmSync(join(this.dir, bucket), { recursive: true, force: true });
  }

  /** Object names in the bucket (relative paths), sorted. */
  objects(bucket: string): string[] {
    const root = join(this.dir, bucket);
    const out: string[] = [];
    const walk = (d: string) => {
      let entries: string[];
      try {
        entries = readdirSync(d);
      } catch {
        return;
      }
      for (const e of entries) {
        const p = join(d, e);
        if (statSync(p).isDirectory()) walk(p);
        else out.push(relative(root, p));
      }
    };
    walk(root);
    return out.sort();
  }

  read(bucket: string, name: string): Buffer {
    return readFileSync(join(this.dir, bucket, name));
  }

  async waitObjects(bucket: string, n: number, ms = 5000): Promise<string[]> {
    await waitFor(() => this.objects(bucket).length >= n, ms, `${n} objects in ${bucket}`);
    return this.objects(bucket);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Every record of an Avro object container file, and the schema in its header, read by avsc. */
export async function readAvro(bytes: Buffer): Promise<{ schema: unknown; records: Record<string, unknown>[] }> {
  return await new Promise((resolve, reject) => {
    const records: Record<string, unknown>[] = [];
    let schema: unknown;
    Readable.from([bytes])
      .pipe(new avro.streams.BlockDecoder({ parseHook: (s) => ((schema = s), avro.Type.forSchema(s as avro.Schema)) }))
      .on("data", (r: Record<string, unknown>) => records.push(r))
      .on("error", reject)
      .on("end", () => resolve({ schema, records }));
  });
}

export async function storageState(sub: Subscription): Promise<string> {
  const [meta] = await sub.getMetadata();
  return String((meta.cloudStorageConfig as { state?: unknown } | null)?.state);
}

/** A manual-clock emulator on a fresh `--storage-dir` for the calling test file; `emu` is set before its tests run. */
export function storageEmulator(): { readonly emu: TestEmulator; gcs: StorageDir } {
  const gcs = new StorageDir();
  let emu: TestEmulator | undefined;
  beforeAll(async () => {
    emu = await startTestEmulator({ clock: "manual", storageDir: gcs.dir });
  });
  afterAll(async () => {
    await emu?.close();
    gcs.remove();
  });
  return {
    gcs,
    get emu() {
      if (!emu) throw new Error("the emulator starts in beforeAll");
      return emu;
    },
  };
}
