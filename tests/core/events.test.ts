import { describe, expect, test } from "bun:test";
import { NullObserver } from "../../src/core/events.ts";
import type { StoredMessage } from "../../src/core/message.ts";
import { SEC, ack, makeSub, makeTopic, nack, publishTexts, pullNow, setup, subName, topicAndSub, setupWithSub } from "../helpers/core.ts";
import { PARENT } from "../helpers/project.ts";

/** Records every event as a short line. */
class Recorder extends NullObserver {
  lines: string[] = [];
  override published(topic: string, m: StoredMessage) {
    this.lines.push(`published ${short(topic)} ${m.id}`);
  }
  override delivered(sub: string, m: StoredMessage, _ackId: string, attempt: number) {
    this.lines.push(`delivered ${short(sub)} ${m.id} #${attempt}`);
  }
  override acked(sub: string, m: StoredMessage) {
    this.lines.push(`acked ${short(sub)} ${m.id}`);
  }
  override nacked(sub: string, m: StoredMessage) {
    this.lines.push(`nacked ${short(sub)} ${m.id}`);
  }
  override expired(sub: string, m: StoredMessage) {
    this.lines.push(`expired ${short(sub)} ${m.id}`);
  }
  override deadLettered(sub: string, m: StoredMessage, dlq: string) {
    this.lines.push(`dead-lettered ${short(sub)} ${m.id} -> ${short(dlq)}`);
  }
  override resourceChanged(kind: string, change: string, name: string) {
    this.lines.push(`${kind} ${change} ${short(name)}`);
  }
}
const short = (name: string) => name.split("/").pop()!.replace(/-\d+$/, "");

describe("broker events", () => {
  test("a message's life: published, delivered, nacked, expired, acked", async () => {
    const { broker, clock, topic, sub } = setupWithSub({ ackDeadlineSeconds: 10 });
    const rec = new Recorder();
    broker.observe(rec);
    const [id] = publishTexts(broker, topic, ["a"]);
    nack(broker, sub, await pullNow(broker, sub));
    await pullNow(broker, sub);
    clock.advance(10 * SEC);
    ack(broker, sub, await pullNow(broker, sub));
    expect(rec.lines).toEqual([
      `published topic ${id}`,
      `delivered sub ${id} #1`,
      `nacked sub ${id}`,
      `delivered sub ${id} #2`,
      `expired sub ${id}`,
      `delivered sub ${id} #3`,
      `acked sub ${id}`,
    ]);
  });

  test("dead-lettering is reported, then the message is published to the dead-letter topic", async () => {
    const { broker } = setup();
    const dlq = makeTopic(broker);
    const { topic, sub } = topicAndSub(broker, { deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 } });
    const rec = new Recorder();
    broker.observe(rec);
    const [id] = publishTexts(broker, topic, ["poison"]);
    for (let i = 0; i < 5; i++) nack(broker, sub, await pullNow(broker, sub));
    // The dead-letter topic stores it as a new message with an id of its own.
    expect(rec.lines.slice(-2)).toEqual([`dead-lettered sub ${id} -> topic`, `published topic ${Number(id) + 1}`]);
  });

  test("resource changes: create, update, the subscriptions of a deleted topic, delete, reset of one project", () => {
    const { broker } = setup();
    const rec = new Recorder();
    broker.observe(rec);
    const topic = makeTopic(broker);
    const sub = makeSub(broker, topic);
    broker.subscriptions.update({ ...broker.subscriptions.get(sub), ackDeadlineSeconds: 30 }, ["ack_deadline_seconds"]);
    broker.topics.delete(topic);
    broker.subscriptions.delete(sub);
    expect(rec.lines).toEqual([
      "topic created topic",
      "subscription created sub",
      "subscription updated sub",
      "subscription updated sub",
      "topic deleted topic",
      "subscription deleted sub",
    ]);
    const other = makeTopic(broker, { name: "projects/other/topics/kept" });
    makeSub(broker, other, { name: subName(undefined, "other") });
    const mine = makeTopic(broker);
    makeSub(broker, mine);
    rec.lines = [];
    expect(broker.reset(PARENT)).toEqual({ topics: 1, subscriptions: 1 });
    expect(rec.lines).toEqual(["subscription deleted sub", "topic deleted topic"]);
    expect(broker.stats()).toMatchObject({ topics: 1, subscriptions: 1 });
  });

  test("two observers both hear; a detached one hears nothing more", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const a = new Recorder();
    const b = new Recorder();
    broker.observe(a);
    const detachB = broker.observe(b);
    publishTexts(broker, topic, ["1"]);
    detachB();
    publishTexts(broker, topic, ["2"]);
    expect(a.lines.length).toBe(2);
    expect(b.lines.length).toBe(1);
  });

  test("snapshots are reported created, updated (labels, their topic deleted) and deleted (by a delete or by expiry)", () => {
    const { broker, clock, topic, sub } = setupWithSub();
    const rec = new Recorder();
    broker.observe(rec);
    const a = broker.createSnapshot(`${PARENT}/snapshots/snap-a`, sub).name;
    broker.updateSnapshot({ name: a, topic: "", expireTime: 0, labels: { k: "v" } }, ["labels"]);
    broker.createSnapshot(`${PARENT}/snapshots/snap-b`, sub);
    broker.deleteSnapshot(a);
    broker.topics.delete(topic);
    clock.advance(8 * 24 * 3600 * SEC);
    expect(rec.lines.filter((l) => l.startsWith("snapshot"))).toEqual([
      "snapshot created snap-a",
      "snapshot updated snap-a",
      "snapshot created snap-b",
      "snapshot deleted snap-a",
      "snapshot updated snap-b",
      "snapshot deleted snap-b",
    ]);
  });

  test("with no observer attached topics and subscriptions hold none", () => {
    const { broker, topic } = setupWithSub();
    const detach = broker.observe(new Recorder());
    detach();
    const { topics, subscriptions } = broker.resources();
    expect([...topics].map((t) => t.observer)).toEqual([null]);
    expect([...subscriptions].map((s) => s.observer)).toEqual([null]);
    expect(publishTexts(broker, topic, ["x"]).length).toBe(1);
  });
});
