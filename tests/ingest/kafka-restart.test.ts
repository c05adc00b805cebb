/**
 * A Kafka import topic ingests each record once: across a restart of the emulator with --data-dir
 * (positions in the ledger), and across a broker that goes away and comes back (the reader backs
 * off, reports UNREACHABLE_BOOTSTRAP_SERVER, and goes on from where it was).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEmulator, waitFor } from "../helpers/emulator.ts";
import { cleanupDataDirs, tempDataDir } from "../helpers/stores.ts";
import { confluent, produce, startKfake } from "./kafka-helpers.ts";
import { importTopic, pullN, pullNothing, rawClients, waitSourceState } from "./helpers.ts";

const logDir = mkdtempSync(join(tmpdir(), "kfake-"));
afterAll(() => {
  cleanupDataDirs();
  rmSync(logDir, { recursive: true, force: true });
});

test("records ingested before a restart with --data-dir are not ingested again; new ones are", async () => {
  const kafka = await startKfake({ topics: ["events:2"] });
  const dataDir = tempDataDir();
  try {
    await produce(kafka.addr, "events", ["a", "b", "c", "d", "e"].map((v) => ({ key: v, value: v })));
    const first = await startTestEmulator({ dataDir });
    const raw = rawClients(first);
    const { topic, sub } = await importTopic(first.client(), confluent(kafka.addr, "events"));
    expect((await pullN(raw, sub.name, 5, 15_000)).map((m) => m.data).sort()).toEqual(["a", "b", "c", "d", "e"]);
    await raw.close();
    await first.close();

    await produce(kafka.addr, "events", ["f", "g", "h"].map((v) => ({ key: v, value: v })));
    const second = await startTestEmulator({ dataDir });
    const raw2 = rawClients(second);
    try {
      expect((await pullN(raw2, sub.name, 3, 15_000)).map((m) => m.data).sort()).toEqual(["f", "g", "h"]);
      await Bun.sleep(1000); // fetches keep coming back empty
      expect(await pullNothing(raw2, sub.name)).toBe(0);
      expect(second.streams.status(topic.name)).toMatchObject({ state: "ACTIVE", messages: 3 });
    } finally {
      await raw2.close();
      await second.close();
    }
  } finally {
    await kafka.stop();
  }
}, 60_000);

test("a broker that goes away and comes back: UNREACHABLE_BOOTSTRAP_SERVER meanwhile, then ACTIVE, nothing twice", async () => {
  let kafka = await startKfake({ topics: ["flaky:1"], dataDir: logDir });
  const port = kafka.port;
  const emu = await startTestEmulator();
  const raw = rawClients(emu);
  const waitState = (name: string, want: string) => waitSourceState(emu.client(), name, "confluentCloud", want, 15_000);
  try {
    await produce(kafka.addr, "flaky", [{ value: "1" }, { value: "2" }, { value: "3" }]);
    const { topic, sub } = await importTopic(emu.client(), confluent(kafka.addr, "flaky"));
    expect((await pullN(raw, sub.name, 3, 15_000)).map((m) => m.data)).toEqual(["1", "2", "3"]);
    await kafka.stop();
    await waitState(topic.name, "UNREACHABLE_BOOTSTRAP_SERVER");
    kafka = await startKfake({ port, topics: ["flaky:1"], dataDir: logDir });
    await produce(kafka.addr, "flaky", [{ value: "4" }, { value: "5" }]);
    expect((await pullN(raw, sub.name, 2, 20_000)).map((m) => m.data)).toEqual(["4", "5"]);
    await waitState(topic.name, "ACTIVE");
    expect(await pullNothing(raw, sub.name)).toBe(0);
  } finally {
    await raw.close();
    await emu.close();
    await kafka.stop();
  }
}, 60_000);

test("the topic deleted on the broker is TOPIC_NOT_FOUND; the import topic deleted stops its reader", async () => {
  const kafka = await startKfake({ topics: ["gone:1"] });
  const emu = await startTestEmulator();
  try {
    const { topic } = await importTopic(emu.client(), confluent(kafka.addr, "gone"));
    await waitFor(() => emu.streams.status(topic.name)?.state === "ACTIVE", 10_000, "the import ACTIVE", 20);
    const { Admin } = await import("@platformatic/kafka");
    const admin = new Admin({ clientId: "t", bootstrapBrokers: [kafka.addr], timeout: 10_000 });
    await admin.deleteTopics({ topics: ["gone"] });
    await admin.close();
    await waitFor(() => emu.streams.status(topic.name)?.state === "TOPIC_NOT_FOUND", 15_000, "TOPIC_NOT_FOUND", 20);
    expect(emu.streams.status(topic.name)?.state).toBe("TOPIC_NOT_FOUND");
    await topic.delete();
    expect(emu.streams.status(topic.name)).toBeNull();
  } finally {
    await emu.close();
    await kafka.stop();
  }
}, 60_000);

test("partitions added to the Kafka topic are read once the metadata is five minutes old (the emulator's clock)", async () => {
  const kafka = await startKfake({ topics: ["grow:1"] });
  const emu = await startTestEmulator({ clock: "manual" });
  const raw = rawClients(emu);
  try {
    await produce(kafka.addr, "grow", [{ value: "p0" }], 0);
    const { sub } = await importTopic(emu.client(), confluent(kafka.addr, "grow"));
    expect((await pullN(raw, sub.name, 1, 15_000)).map((m) => m.data)).toEqual(["p0"]);
    const { Admin } = await import("@platformatic/kafka");
    const admin = new Admin({ clientId: "t", bootstrapBrokers: [kafka.addr], timeout: 10_000 });
    await admin.createPartitions({ topics: [{ name: "grow", count: 2 }] });
    await admin.close();
    await produce(kafka.addr, "grow", [{ value: "p1" }], 1);
    expect(await pullNothing(raw, sub.name)).toBe(0);
    await emu.advance("300s");
    expect((await pullN(raw, sub.name, 1, 15_000)).map((m) => m.data)).toEqual(["p1"]);
  } finally {
    await raw.close();
    await emu.close();
    await kafka.stop();
  }
}, 60_000);
