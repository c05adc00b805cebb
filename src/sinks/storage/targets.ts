/**
 * Where Cloud Storage subscriptions write (and import topics read): a local directory
 * (`--storage-dir`, one folder per bucket) or a Cloud Storage emulator's JSON API
 * (STORAGE_EMULATOR_HOST, the variable Google's storage clients honour). A failure rejects with
 * the state it means: NOT_FOUND (no bucket), PERMISSION_DENIED (the write was refused), or ACTIVE
 * (anything else: the write is retried).
 */
import { mkdirSync, statSync, watch } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ObjectBody } from "./encode.ts";
import { fileName } from "../../runtime/file-names.ts";
import { syncPath } from "../../runtime/sync-path.ts";

export interface StorageObjectInfo {
  name: string;
  size: number;
  /** Creation time, ms since the epoch. */
  created: number;
}

export interface StorageTarget {
  readonly kind: "dir" | "http";
  bucketState(bucket: string): Promise<string>;
  /** Writes the object whole or not at all; resolves with its size. */
  put(bucket: string, name: string, body: ObjectBody): Promise<number>;
  list(bucket: string): Promise<StorageObjectInfo[]>;
  get(bucket: string, name: string): Promise<Uint8Array>;
  /** Calls `onBucket` when something in a bucket may have changed; returns the unwatch. */
  watch?(onBucket: (bucket: string) => void): () => void;
}

const stateOfError = (e: unknown): string => {
  const code = (e as { code?: string }).code;
  if (code === "ENOENT" || code === "ENOTDIR") return "NOT_FOUND";
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") return "PERMISSION_DENIED";
  return "ACTIVE";
};

/**
 * An object name as a relative path inside its bucket folder: `/` separates folders; a segment a
 * file system cannot hold as itself (empty, `.`, `..`, or holding `%` or NUL) is percent-encoded,
 * and on Windows also one holding a character Windows forbids (the `:` of an RFC 3339 time, `\`,
 * `*`, `?`…: runtime/file-names.ts), so a Windows user sees `2023-09-25T04%3A10%3A00+00%3A00_…`.
 */
export function objectPath(name: string, platform: NodeJS.Platform = process.platform): string {
  return name
    .split("/")
    .map((seg) => {
      if (seg === "" || seg === "." || seg === ".." || /[%\0]/.test(seg)) {
        const encoded = encodeURIComponent(seg).replace(/\./g, "%2E") || "%00";
        // encodeURIComponent leaves `*`, which Windows forbids.
        return platform === "win32" ? encoded.replace(/\*/g, "%2A") : encoded;
      }
      return fileName(seg, platform);
    })
    .join("/");
}

export const TMP_DIR = ".pubsub-emulator-tmp";

export class DirTarget implements StorageTarget {
  readonly kind = "dir";
  constructor(readonly dir: string) {}

  async bucketState(bucket: string): Promise<string> {
    try {
      return statSync(join(this.dir, bucket)).isDirectory() ? "ACTIVE" : "NOT_FOUND";
    } catch (e) {
      return stateOfError(e);
    }
  }

  /** Written chunk by chunk to a temporary file, synced, renamed into place, and the folder synced. */
  async put(bucket: string, name: string, body: ObjectBody): Promise<number> {
    const state = await this.bucketState(bucket);
    if (state !== "ACTIVE") throw state;
    const final = join(this.dir, bucket, objectPath(name));
    const tmpDir = join(this.dir, TMP_DIR);
    const tmp = join(tmpDir, crypto.randomUUID());
    try {
      await mkdir(tmpDir, { recursive: true });
      let size = 0;
      const fh = await open(tmp, "wx");
      try {
        for await (const chunk of body.chunks) {
          await fh.write(chunk);
          size += chunk.length;
        }
        await fh.datasync();
      } finally {
        await fh.close();
      }
      await mkdir(dirname(final), { recursive: true });
      await rename(tmp, final);
      // The rename is atomic whether or not the directory's fsync is allowed.
      syncPath(dirname(final));
      return size;
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => {});
      throw typeof e === "string" ? e : stateOfError(e);
    }
  }

  async list(bucket: string): Promise<StorageObjectInfo[]> {
    const root = join(this.dir, bucket);
    const out: StorageObjectInfo[] = [];
    const glob = new Bun.Glob("**/*");
    for await (const rel of glob.scan({ cwd: root, onlyFiles: true, dot: true })) {
      try {
        const st = statSync(join(root, rel));
        out.push({ name: decodePath(rel), size: st.size, created: st.mtimeMs });
      } catch {
        // gone between the listing and the stat
      }
    }
    return out;
  }

  async get(bucket: string, name: string): Promise<Uint8Array> {
    return new Uint8Array(await Bun.file(join(this.dir, bucket, objectPath(name))).arrayBuffer());
  }

  /** One recursive watcher on the directory; a bucket's events are folded into one call per 50 ms. */
  watch(onBucket: (bucket: string) => void): () => void {
    const pending = new Map<string, ReturnType<typeof setTimeout>>();
    let w: ReturnType<typeof watch> | null = null;
    try {
      w = watch(this.dir, { recursive: true }, (_event, file) => {
        // A bucket's name holds neither separator, so `\\` (Windows) splits as well as `/`.
        const bucket = String(file ?? "").split(/[\\/]/)[0];
        if (!bucket || bucket === TMP_DIR || pending.has(bucket)) return;
        pending.set(bucket, setTimeout(() => (pending.delete(bucket), onBucket(bucket)), 50));
      });
      w.on("error", () => {});
    } catch {
      // no watcher: the periodic scan still finds new objects
    }
    return () => {
      w?.close();
      for (const t of pending.values()) clearTimeout(t);
    };
  }
}

/** An object's name from its path under the bucket folder (Windows lists it with `\\`). */
export const decodePath = (rel: string, platform: NodeJS.Platform = process.platform) =>
  rel
    .split(platform === "win32" ? /[\\/]/ : "/")
    .map((seg) => (seg.includes("%") ? safeDecode(seg) : seg))
    .join("/");
const safeDecode = (s: string) => {
  try {
    return s === "%00" ? "" : decodeURIComponent(s);
  } catch {
    return s;
  }
};


/** The JSON API of a Cloud Storage emulator (fake-gcs-server and the like). */
export class HttpTarget implements StorageTarget {
  readonly kind = "http";
  readonly base: string;

  constructor(host: string) {
    this.base = (/^https?:\/\//.test(host) ? host : `http://${host}`).replace(/\/+$/, "");
  }

  private async call(url: string, init?: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    } catch {
      throw "ACTIVE";
    }
    if (res.ok) return res;
    await res.body?.cancel();
    if (res.status === 404) throw "NOT_FOUND";
    if (res.status === 401 || res.status === 403) throw "PERMISSION_DENIED";
    throw "ACTIVE";
  }

  async bucketState(bucket: string): Promise<string> {
    try {
      const res = await this.call(`${this.base}/storage/v1/b/${encodeURIComponent(bucket)}`);
      await res.body?.cancel();
      return "ACTIVE";
    } catch (state) {
      return typeof state === "string" && state !== "ACTIVE" ? state : "NOT_FOUND";
    }
  }

  /** One upload (uploadType=media) of the whole object, which a storage emulator holds in memory anyway. */
  async put(bucket: string, name: string, body: ObjectBody): Promise<number> {
    const parts: Uint8Array[] = [];
    for await (const c of body.chunks) parts.push(c);
    const bytes = Buffer.concat(parts);
    const contentType = body.contentType;
    const url = `${this.base}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=media&name=${encodeURIComponent(name)}`;
    const res = await this.call(url, { method: "POST", body: bytes as unknown as BodyInit, headers: { "content-type": contentType } });
    await res.body?.cancel();
    return bytes.length;
  }

  async list(bucket: string): Promise<StorageObjectInfo[]> {
    const out: StorageObjectInfo[] = [];
    let token = "";
    for (let page = 0; page < 10_000; page++) {
      const q = token ? `?pageToken=${encodeURIComponent(token)}` : "";
      const res = await this.call(`${this.base}/storage/v1/b/${encodeURIComponent(bucket)}/o${q}`);
      const body = (await res.json()) as { items?: Array<{ name: string; size: string; timeCreated?: string }>; nextPageToken?: string };
      for (const it of body.items ?? []) out.push({ name: it.name, size: Number(it.size), created: Date.parse(it.timeCreated ?? "") || 0 });
      if (!body.nextPageToken) break;
      token = body.nextPageToken;
    }
    return out;
  }

  async get(bucket: string, name: string): Promise<Uint8Array> {
    const res = await this.call(`${this.base}/storage/v1/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(name)}?alt=media`);
    return new Uint8Array(await res.arrayBuffer());
  }
}

export function storageTarget(dir: string, host: string): StorageTarget | null {
  if (dir) {
    mkdirSync(dir, { recursive: true });
    return new DirTarget(dir);
  }
  return host ? new HttpTarget(host) : null;
}
