/**
 * How far each import topic has ingested its source, so nothing becomes messages twice: for Cloud
 * Storage, each object's progress (the next message index, or "done"); for Kafka and Kinesis, each
 * partition's or shard's next position. Kept in memory, and with --data-dir in a JSON file of the
 * data dir (written whole, then renamed, after each step), so a restart resumes where it stopped.
 * A step half-published when the server stopped is published again from its start (at most one
 * chunk or fetched batch twice).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Progress = number | string;

export class ImportLedger<P extends Progress = number | "done"> {
  private topics = new Map<string, { key: string; objects: Map<string, P> }>();
  private file: string | null;

  constructor(dataDir: string | null, fileName = "storage-imports.json") {
    this.file = dataDir ? join(dataDir, fileName) : null;
    if (this.file && existsSync(this.file)) {
      try {
        const saved = JSON.parse(readFileSync(this.file, "utf8")) as [string, { key: string; objects: [string, P][] }][];
        for (const [topic, v] of saved) this.topics.set(topic, { key: v.key, objects: new Map(v.objects) });
      } catch {
        // an unreadable ledger starts empty
      }
    }
  }

  /** A topic's import with these settings; other settings (or none before) start from nothing. */
  begin(topic: string, key: string): void {
    if (this.topics.get(topic)?.key !== key) {
      this.topics.set(topic, { key, objects: new Map() });
      this.save();
    }
  }

  forget(topic: string): void {
    if (this.topics.delete(topic)) this.save();
  }

  /** Where `object` (an object, a partition, a shard) stands; undefined when never started. */
  position(topic: string, object: string): P | undefined {
    return this.topics.get(topic)?.objects.get(object);
  }

  progress(topic: string, object: string): P | 0 {
    return this.position(topic, object) ?? 0;
  }

  mark(topic: string, object: string, p: P): void {
    this.topics.get(topic)?.objects.set(object, p);
    this.save();
  }

  private save(): void {
    if (!this.file) return;
    const out = [...this.topics].map(([t, v]) => [t, { key: v.key, objects: [...v.objects] }]);
    const tmp = `${this.file}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(out));
      renameSync(tmp, this.file);
    } catch {
      // A full or read-only disk: the ledger stays in memory and the next save writes it whole.
    }
  }
}
