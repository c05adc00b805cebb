/** GET /metrics in Prometheus text format, JSON for the bench, label escaping and the cardinality cap. */
import { describe, expect, test } from "bun:test";
import { Counters } from "../../src/admin/counters.ts";
import { MAX_LABELLED, escapeLabel, prometheus } from "../../src/admin/metrics.ts";
import { clientSuite } from "../helpers/client-suite.ts";
import { makeSub, makeTopic, setup } from "../helpers/core.ts";

const suite = clientSuite({ clock: "manual" });

/** The value of one sample line, found by metric name and a label substring. */
function sample(text: string, name: string, label: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(name + "{") && l.includes(label));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("GET /metrics", () => {
  test("per-topic and per-subscription counters and gauges follow what the official client did", async () => {
    const { topic, sub } = await suite.topicAndSub({ ackDeadlineSeconds: 10 });
    for (let i = 0; i < 3; i++) await topic.publishMessage({ data: Buffer.from(`m${i}`) });
    const [res] = await suite.raw.subscriber.pull({ subscription: sub.name, maxMessages: 3, returnImmediately: true });
    const ackIds = (res.receivedMessages ?? []).map((r) => r.ackId!);
    expect(ackIds.length).toBe(3);
    await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds: [ackIds[0]] });
    await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [ackIds[1]], ackDeadlineSeconds: 0 });
    await suite.emu.advance("30s");
    const http = await fetch(`http://${suite.emu.endpoint}/metrics`);
    expect(http.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await http.text();
    const t = `topic="${topic.name.split("/").pop()}"`;
    const s = `subscription="${sub.name.split("/").pop()}"`;
    expect(sample(text, "pubsub_emulator_published_messages_total", t)).toBe(3);
    // Nothing pulled again: the nacked and the expired one wait in the backlog.
    expect(sample(text, "pubsub_emulator_delivered_messages_total", s)).toBe(3);
    expect(sample(text, "pubsub_emulator_acked_messages_total", s)).toBe(1);
    expect(sample(text, "pubsub_emulator_nacked_messages_total", s)).toBe(1);
    expect(sample(text, "pubsub_emulator_expired_messages_total", s)).toBe(1);
    expect(sample(text, "pubsub_emulator_backlog_messages", s)).toBe(2);
    expect(sample(text, "pubsub_emulator_outstanding_messages", s)).toBe(0);
    expect(sample(text, "pubsub_emulator_oldest_unacked_message_age_seconds", s)).toBe(30);
    expect(sample(text, "pubsub_emulator_open_streams", s)).toBe(0);
    expect(text).toContain('project="test-project"');
    expect(text).toMatch(/^# TYPE pubsub_emulator_acked_messages_total counter$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  test("JSON stays available for the bench: Accept: application/json and /metrics.json", async () => {
    for (const res of [
      await fetch(`http://${suite.emu.endpoint}/metrics`, { headers: { accept: "application/json" } }),
      await fetch(`http://${suite.emu.endpoint}/metrics.json`),
    ]) {
      const j = await res.json();
      expect(j.rssBytes).toBeGreaterThan(0);
      expect(typeof j.heapUsedBytes).toBe("number");
      expect(typeof j.topics).toBe("number");
    }
  });
});

describe("text format", () => {
  test("label values escape backslash, double quote and newline", () => {
    expect(escapeLabel('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
  });

  test(`past ${MAX_LABELLED} subscriptions the rest are summed under "_other"`, () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    for (let i = 0; i < MAX_LABELLED + 3; i++) makeSub(broker, topic);
    const text = prometheus({ broker, counters: new Counters() });
    const lines = text.split("\n").filter((l) => l.startsWith("pubsub_emulator_backlog_messages{"));
    expect(lines.length).toBe(MAX_LABELLED + 1);
    expect(lines.at(-1)).toContain('subscription="_other"');
  });

  test("the memory budget is reported when the hook is given", () => {
    const { broker } = setup();
    const text = prometheus({ broker, counters: new Counters(), memoryBudget: () => ({ limitBytes: 1000, usedBytes: 250, heldLimitBytes: 500, publishesRefused: 3 }) });
    expect(text).toMatch(/^pubsub_emulator_memory_budget_bytes 1000$/m);
    expect(text).toMatch(/^pubsub_emulator_memory_budget_used_bytes 250$/m);
    expect(text).toMatch(/^pubsub_emulator_memory_budget_held_limit_bytes 500$/m);
    expect(text).toMatch(/^pubsub_emulator_publishes_refused_total 3$/m);
  });
});
