/** A BigQuery subscription on --data-dir: messages waiting for a missing table survive a restart and are written after it. */
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT, startTestEmulator, unique } from "../helpers/emulator.ts";
import { BqDir, col, stateOf } from "./helpers.ts";
import { topicAndSub } from "../helpers/client-suite.ts";

test("waiting messages survive a restart and land in the table once it exists", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bq-data-"));
  const bq = new BqDir();
  const table = `${PROJECT}.ds.${unique("t").replace(/-/g, "_")}`;
  try {
    let emu = await startTestEmulator({ dataDir, bigqueryDir: bq.dir, clock: "manual" });
    const pubsub = emu.client();
    const { topic, sub } = await topicAndSub(pubsub, { bigqueryConfig: { table } });
    expect(await stateOf(sub, "bigqueryConfig")).toBe("NOT_FOUND");
    await topic.publishMessage({ data: Buffer.from("one") });
    await topic.publishMessage({ data: Buffer.from("two") });
    await emu.close();

    bq.declare(table, [col("data", "STRING"), col("message_id", "STRING"), col("subscription_name", "STRING"), col("publish_time", "TIMESTAMP"), col("attributes", "STRING")]);
    emu = await startTestEmulator({ dataDir, bigqueryDir: bq.dir, clock: "manual" });
    try {
      const rows = await bq.waitRows(table, 2);
      expect(rows.map((r) => r.data).sort()).toEqual(["one", "two"]);
      const again = emu.client().subscription(sub.name);
      expect(await stateOf(again, "bigqueryConfig")).toBe("ACTIVE");
      // write_metadata turned on by an update is kept across the restart's config too.
      await again.setMetadata({ bigqueryConfig: { table, writeMetadata: true } });
      const [topic2] = await emu.client().topic(topic.name).get();
      const id = await topic2.publishMessage({ data: Buffer.from("three"), attributes: { a: "1" } });
      const [, , third] = await bq.waitRows(table, 3);
      expect(third).toMatchObject({ data: "three", message_id: id, subscription_name: sub.name, attributes: '{"a":"1"}' });
    } finally {
      await emu.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    bq.remove();
  }
});
