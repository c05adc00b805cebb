/**
 * Which objects each import topic has ingested, so an object becomes messages once. Kept in
 * memory, and with --data-dir in DATA_DIR/storage-imports.json (written whole, then renamed, after
 * each object), so a restart does not ingest an object again. An object half-published when the
 * server stopped resumes from the last chunk recorded (at most one chunk is published twice).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Progress = number | "done";

export class ImportLedger {
  private topics = new Map<string, { key: string; objects: Map<string, Progress> }>();
  private file: string | null;

  constructor(dataDir: string | null) {
    this.file = dataDir ? join(dataDir, "storage-imports.json") : null;
    if (this.file && existsSync(this.file)) {
      try {
        const saved = JSON.parse(readFileSync(this.file, "utf8")) as [string, { key: string; objects: [string, Progress][] }][];
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

  progress(topic: string, object: string): Progress {
    return this.topics.get(topic)?.objects.get(object) ?? 0;
  }

  mark(topic: string, object: string, p: Progress): void {
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
