/** BigQuery directory tables for the export-kind tests: declare a table, read its rows back. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subscription } from "@google-cloud/pubsub";
import { afterAll, beforeAll } from "bun:test";
import { PROJECT, startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";

export class BqDir {
  readonly dir = mkdtempSync(join(tmpdir(), "bq-"));

  /** Declares `proj.dataset.table` by its `bq show --schema` JSON. */
  declare(table: string, schema: unknown[]): void {
    const [project, dataset, id] = table.split(".");
    mkdirSync(join(this.dir, project, dataset), { recursive: true });
    writeFileSync(join(this.dir, project, dataset, `${id}.schema.json`), JSON.stringify(schema));
  }

  /** Drops the table's declaration, as `bq rm` would (its rows stay for reading). */
  undeclare(table: string): void {
    const [project, dataset, id] = table.split(".");
    rmSync(join(this.dir, project, dataset, `${id}.schema.json`), { force: true });
  }

  rows(table: string): Record<string, unknown>[] {
    const [project, dataset, id] = table.split(".");
    try {
      const text = readFileSync(join(this.dir, project, dataset, `${id}.jsonl`), "utf8");
      return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    } catch {
      return [];
    }
  }

  async waitRows(table: string, n: number): Promise<Record<string, unknown>[]> {
    await waitFor(() => this.rows(table).length >= n, 5000, `${n} rows in ${table}`);
    return this.rows(table);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** This file's emulator, on the manual clock, writing BigQuery tables under a fresh directory (both gone after the file). */
export function bigQueryFile() {
  const bq = new BqDir();
  const file = {
    bq,
    emu: undefined as unknown as TestEmulator,
    /** A fresh `project.dataset.table` name. */
    tableName: () => `${PROJECT}.ds.${unique("t").replace(/-/g, "_")}`,
  };
  beforeAll(async () => {
    file.emu = await startTestEmulator({ clock: "manual", bigqueryDir: bq.dir });
  });
  afterAll(async () => {
    await file.emu?.close();
    bq.remove();
  });
  return file;
}

export async function stateOf(sub: Subscription, field: "bigqueryConfig" | "bigtableConfig"): Promise<string> {
  const [meta] = await sub.getMetadata();
  return String((meta[field] as { state?: unknown } | null)?.state);
}

/** Resolves once the kind's state is `state` (bounded: 5 s). */
export async function waitForState(sub: Subscription, field: "bigqueryConfig" | "bigtableConfig", state: string): Promise<void> {
  await waitFor(async () => (await stateOf(sub, field)) === state, 5000, `${field}.state ${state}`, 20);
}

/** The subscription's own state (ACTIVE or RESOURCE_ERROR), beside its kind's. */
export async function subscriptionState(sub: Subscription): Promise<string> {
  const [meta] = await sub.getMetadata();
  return String(meta.state);
}

export const col = (name: string, type: string, mode = "NULLABLE", fields?: unknown[]) => ({ name, type, mode, ...(fields ? { fields } : {}) });
export const METADATA = [col("subscription_name", "STRING"), col("message_id", "STRING"), col("publish_time", "TIMESTAMP"), col("attributes", "JSON")];
