/**
 * The `--bigquery-dir` target: a table `{project}.{dataset}.{table}` is the file
 * `DIR/{project}/{dataset}/{table}.schema.json` (its schema as `bq show --schema` prints it), and
 * its rows are appended as newline-delimited JSON to `DIR/{project}/{dataset}/{table}.jsonl`.
 * A batch is one write of whole lines on an O_APPEND descriptor followed by fdatasync, and writes
 * to one file are queued, so a reader never sees half a row and an acked row is on disk.
 */
import { closeSync, openSync, readFileSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { fileName } from "../../runtime/file-names.ts";
import { parseTable } from "../../core/kinds/bigquery/config.ts";
import { parseTableSchema, type BqTable } from "../../core/kinds/bigquery/table-schema.ts";

export type TableLookup = { ok: true; table: BqTable } | { ok: false; state: "NOT_FOUND" | "SCHEMA_MISMATCH"; why: string };

const MAX_SCHEMA_BYTES = 16 << 20;

export class DirTables {
  private cache = new Map<string, { stamp: string; lookup: TableLookup }>();
  private queues = new Map<string, Promise<unknown>>();

  constructor(readonly dir: string | undefined) {}

  paths(tableName: string): { schema: string; rows: string } | null {
    const ref = parseTable(tableName);
    if (!ref || !this.dir) return null;
    // A domain-scoped project (`example.com:proj`) is `example.com%3Aproj` on Windows (runtime/file-names.ts).
    const base = join(this.dir, fileName(ref.project), ref.dataset, fileName(ref.table));
    return { schema: `${base}.schema.json`, rows: `${base}.jsonl` };
  }

  /** The table's schema (re-read when the file changes), or why there is none. */
  lookup(tableName: string): TableLookup {
    const paths = this.paths(tableName);
    if (!paths) return { ok: false, state: "NOT_FOUND", why: this.dir ? "bad table name" : "no --bigquery-dir is set" };
    let stamp: string;
    try {
      const st = statSync(paths.schema);
      if (!st.isFile() || st.size > MAX_SCHEMA_BYTES) return { ok: false, state: "NOT_FOUND", why: "the schema is not a file" };
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      this.cache.delete(paths.schema);
      return { ok: false, state: "NOT_FOUND", why: `${paths.schema} does not exist` };
    }
    const hit = this.cache.get(paths.schema);
    if (hit?.stamp === stamp) return hit.lookup;
    let lookup: TableLookup;
    try {
      const parsed = parseTableSchema(JSON.parse(readFileSync(paths.schema, "utf8")));
      lookup = typeof parsed === "string" ? { ok: false, state: "SCHEMA_MISMATCH", why: parsed } : { ok: true, table: parsed };
    } catch {
      lookup = { ok: false, state: "SCHEMA_MISMATCH", why: "the schema file is not JSON" };
    }
    this.cache.set(paths.schema, { stamp, lookup });
    return lookup;
  }

  /** Appends rows (one JSON object per line) and resolves once they are on disk. */
  append(tableName: string, rows: readonly unknown[]): Promise<void> {
    const paths = this.paths(tableName);
    if (!paths) return Promise.reject(new Error("no table"));
    const text = rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
    const prev = this.queues.get(paths.rows) ?? Promise.resolve();
    const next = prev.then(async () => {
      const fh = await open(paths.rows, "a");
      try {
        await fh.write(text);
        await fh.datasync();
      } finally {
        await fh.close();
      }
    });
    const tail = next.catch(() => {});
    this.queues.set(paths.rows, tail);
    tail.then(() => {
      if (this.queues.get(paths.rows) === tail) this.queues.delete(paths.rows);
    });
    return next;
  }

  /** For tests and the dashboard: the rows file exists. */
  hasRows(tableName: string): boolean {
    const p = this.paths(tableName);
    if (!p) return false;
    try {
      closeSync(openSync(p.rows, "r"));
      return true;
    } catch {
      return false;
    }
  }
}
