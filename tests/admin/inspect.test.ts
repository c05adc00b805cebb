/** Inspection through the official client: a subscription's leases and backlog, peek, a message's history, the dashboard's actions. */
import { describe, expect, test } from "bun:test";
import { clientSuite } from "../helpers/client-suite.ts";
import { PROJECT, unique } from "../helpers/emulator.ts";

const suite = clientSuite({ clock: "manual", messageHistory: 100 });
const id = (name: string) => name.split("/").pop()!;
const subPath = (name: string) => `/emulator/v1/projects/${PROJECT}/subscriptions/${id(name)}`;

describe("inspection", () => {
  test("leases show delivery counts and deadlines; peek shows waiting messages and leases nothing", async () => {
    const { topic, sub } = await suite.topicAndSub({ ackDeadlineSeconds: 10 });
    await topic.publishMessage({ data: Buffer.from("one"), attributes: { k: "v" } });
    await topic.publishMessage({ data: Buffer.from("two"), orderingKey: "" });
    const [res] = await suite.raw.subscriber.pull({ subscription: sub.name, maxMessages: 1, returnImmediately: true });
    const leased = res.receivedMessages![0];

    const { leases, outstanding } = await suite.emu.admin("GET", `${subPath(sub.name)}/leases`);
    expect(outstanding).toBe(1);
    expect(leases).toHaveLength(1);
    expect(leases[0]).toMatchObject({ ackId: leased.ackId, messageId: leased.message!.messageId, deliveryAttempt: 1, secondsLeft: 10, consumer: "pull" });
    const clock = await suite.emu.admin("GET", "/emulator/v1/clock");
    expect(Date.parse(leases[0].deadline)).toBe(clock.timeMs + 10_000);

    for (let i = 0; i < 2; i++) {
      const peeked = await suite.emu.admin("GET", `${subPath(sub.name)}/messages?limit=5`);
      expect(peeked.waiting).toBe(1);
      expect(peeked.messages.map((m: { data: string }) => Buffer.from(m.data, "base64").toString())).toEqual(["two"]);
      expect(peeked.messages[0].deliveryAttempts).toBe(0);
    }
    const summary = await suite.emu.admin("GET", subPath(sub.name));
    expect(summary).toMatchObject({ name: sub.name, backlog: 2, outstanding: 1, delivered: 1, ackDeadlineSeconds: 10 });
    const [again] = await suite.raw.subscriber.pull({ subscription: sub.name, maxMessages: 5, returnImmediately: true });
    expect(again.receivedMessages!.map((r) => r.message!.data!.toString())).toEqual(["two"]);
  });

  test("a message's history: published, delivered, nacked, expired, dead-lettered and its copy", async () => {
    const [dlq] = await suite.ps.createTopic(unique("dlq"));
    const { topic, sub } = await suite.topicAndSub({ ackDeadlineSeconds: 10, deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 5 } });
    const messageId = await topic.publishMessage({ data: Buffer.from("h") });
    const pull = async () => (await suite.raw.subscriber.pull({ subscription: sub.name, maxMessages: 1, returnImmediately: true }))[0].receivedMessages![0];
    const first = await pull();
    await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [first.ackId!], ackDeadlineSeconds: 0 });
    await pull();
    await suite.emu.advance("10s");
    for (let i = 0; i < 3; i++) {
      const m = await pull();
      await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [m.ackId!], ackDeadlineSeconds: 0 });
    }
    const h = await suite.emu.admin("GET", `/emulator/v1/messages/${messageId}`);
    expect(h.topic).toBe(topic.name);
    expect(h.events.map((e: { event: string }) => e.event)).toEqual([
      "published", "delivered", "nacked", "delivered", "expired", "delivered", "nacked", "delivered", "nacked", "delivered", "nacked", "deadLettered",
    ]);
    expect(h.events[1]).toMatchObject({ subscription: sub.name, ackId: first.ackId, deliveryAttempt: 1 });
    expect(h.events.at(-1).deadLetterTopic).toBe(dlq.name);
    const copy = await suite.emu.admin("GET", `/emulator/v1/messages/${h.forwardedAs}`);
    expect(copy).toMatchObject({ topic: dlq.name, forwardedFrom: messageId });
  });

  test("history can be switched off and on; a missing one is a 404 saying why", async () => {
    await suite.emu.admin("POST", "/emulator/v1/history", { capacity: 0 });
    const [topic] = await suite.ps.createTopic(unique("t"));
    const messageId = await topic.publishMessage({ data: Buffer.from("x") });
    await expect(suite.emu.admin("GET", `/emulator/v1/messages/${messageId}`)).rejects.toThrow(/404.*history is off/);
    expect(await suite.emu.admin("POST", "/emulator/v1/history", { capacity: 2 })).toEqual({ capacity: 2, messages: 0 });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await topic.publishMessage({ data: Buffer.from(`m${i}`) }));
    expect((await suite.emu.admin("GET", "/emulator/v1/history")).messages).toBe(2);
    await expect(suite.emu.admin("GET", `/emulator/v1/messages/${ids[0]}`)).rejects.toThrow(/404.*not among the last 2/);
    expect((await suite.emu.admin("GET", `/emulator/v1/messages/${ids[2]}`)).messageId).toBe(ids[2]);
    await suite.emu.admin("POST", "/emulator/v1/history", { capacity: 100 });
  });

  test("an unknown subscription is a 404 naming it; a bad name is a 400", async () => {
    await expect(suite.emu.admin("GET", `/emulator/v1/projects/${PROJECT}/subscriptions/nope/leases`)).rejects.toThrow(/404.*nope/);
    await expect(suite.emu.admin("GET", `/emulator/v1/projects/${PROJECT}/subscriptions/a%2Fb`)).rejects.toThrow(/400/);
  });
});

describe("dashboard actions over HTTP", () => {
  test("create a topic and subscription, publish, pull, nack, ack, delete", async () => {
    const t = unique("t");
    const s = unique("s");
    const topicName = `projects/${PROJECT}/topics/${t}`;
    expect((await suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/topics/${t}`)).name).toBe(topicName);
    await suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/subscriptions/${s}`, { topic: topicName, ackDeadlineSeconds: 20 });
    const [meta] = await suite.ps.subscription(s).getMetadata();
    expect(meta.ackDeadlineSeconds).toBe(20);
    const published = await suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/topics/${t}/publish`, {
      messages: [{ data: Buffer.from("hello").toString("base64"), attributes: { a: "b" } }],
    });
    expect(published.messageIds).toHaveLength(1);
    const pull = () => suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/subscriptions/${s}/pull`, { maxMessages: 5 });
    const first = (await pull()).receivedMessages;
    expect(first.map((r: { message: { data: string } }) => Buffer.from(r.message.data, "base64").toString())).toEqual(["hello"]);
    expect(first[0].message.attributes.a).toBe("b");
    await suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/subscriptions/${s}/modify-ack-deadline`, { ackIds: [first[0].ackId], ackDeadlineSeconds: 0 });
    const second = (await pull()).receivedMessages;
    expect(second[0].message.messageId).toBe(first[0].message.messageId);
    await suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/subscriptions/${s}/acknowledge`, { ackIds: [second[0].ackId] });
    expect((await pull()).receivedMessages).toEqual([]);
    await suite.emu.admin("DELETE", `/emulator/v1/projects/${PROJECT}/subscriptions/${s}`);
    await suite.emu.admin("DELETE", `/emulator/v1/projects/${PROJECT}/topics/${t}`);
    expect((await suite.ps.topic(t).exists())[0]).toBe(false);
  });

  test("the real service's rules apply: a duplicate topic is 409, a bad publish 400", async () => {
    const t = unique("t");
    await suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/topics/${t}`);
    await expect(suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/topics/${t}`)).rejects.toThrow(/409.*already exists/);
    await expect(suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/topics/${t}/publish`, { messages: [] })).rejects.toThrow(/400.*messages/);
    await expect(suite.emu.admin("POST", `/emulator/v1/projects/${PROJECT}/topics/${t}/publish`, { messages: [{}] })).rejects.toThrow(/400/);
  });
});
