/** An import topic on a `--data-dir` server ingests each object once, across a restart. */
import { afterAll, expect, test } from "bun:test";
import { startTestEmulator, unique } from "../helpers/emulator.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";
import { StorageDir } from "../kinds/storage-helpers.ts";
import { importTopic, pullN, pullNothing, putObject, rawClients } from "./helpers.ts";

const gcs = new StorageDir();
afterAll(() => {
  cleanupDataDirs();
  gcs.remove();
});

test("objects ingested before a restart are not ingested again; new ones are", async () => {
  const dataDir = tempDataDir();
  const bucket = unique("b").toLowerCase();
  gcs.createBucket(bucket);
  putObject(gcs.dir, bucket, "a.txt", "before");
  const first = await startTestEmulator({ clock: "manual", storageDir: gcs.dir, dataDir });
  const raw = rawClients(first);
  const { sub } = await importTopic(first.client(), { cloudStorage: { bucket } });
  expect((await pullN(raw, sub.name, 1)).map((m) => m.data)).toEqual(["before"]);
  await raw.close();
  await first.close();

  putObject(gcs.dir, bucket, "b.txt", "after");
  const second = await startTestEmulator({ clock: "manual", storageDir: gcs.dir, dataDir });
  const raw2 = rawClients(second);
  try {
    expect((await pullN(raw2, sub.name, 1)).map((m) => m.data)).toEqual(["after"]);
    await second.advance("30s");
    expect(await pullNothing(raw2, sub.name)).toBe(0);
  } finally {
    await raw2.close();
    await second.close();
  }
});
