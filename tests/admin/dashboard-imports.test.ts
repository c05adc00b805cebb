/** The dashboard's feed carries each import topic's source state and figures, as /metrics and inspection do. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { msk } from "../ingest/kafka-helpers.ts";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
});

interface FeedTopic {
  name: string;
  ingestion: { state: string; messages: number; failed: number } | null;
}

/** The first snapshot of the dashboard's event feed (bounded: the feed sends one at once). */
async function firstSnapshot(): Promise<{ topics: FeedTopic[] }> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), 5000);
  try {
    const res = await fetch(`http://${emu.endpoint}/emulator/v1/events`, { signal: ac.signal });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    return JSON.parse(text.split("\n").find((l) => l.startsWith("data: "))!.slice(6));
  } finally {
    clearTimeout(timer);
    ac.abort();
  }
}

test("an import topic shows its source's state and counts; a plain topic shows none", async () => {
  const pubsub = emu.client();
  const [plain] = await pubsub.createTopic(unique("plain"));
  const [imported] = await pubsub.createTopic({
    name: unique("msk"),
    ingestionDataSourceSettings: msk("arn:aws:kafka:us-east-1:111111111111:cluster/unmapped/x-1", "orders"),
  });
  const { topics } = await firstSnapshot();
  expect(topics.find((t) => t.name === plain.name)?.ingestion).toBeNull();
  expect(topics.find((t) => t.name === imported.name)?.ingestion).toMatchObject({ state: "CLUSTER_NOT_FOUND", messages: 0, failed: 0 });
});
