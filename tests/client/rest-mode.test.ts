/**
 * The official Node client in its REST mode (`fallback: true`, gax's HTTP/1.1 JSON transport) with
 * `protocol: "http"` against the emulator. It asks for numeric enums ($alt=json;enum-encoding=int).
 * StreamingPull has no REST binding, so messages are pulled with the GAPIC SubscriberClient.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PubSub, v1 } from "@google-cloud/pubsub";
import { PassThroughClient } from "google-auth-library";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";

let emu: TestEmulator;
let ps: PubSub;
let subscriber: v1.SubscriberClient;

/** The REST-mode options: no credentials are fetched, plain http to the emulator's port. */
const restOptions = () => ({
  projectId: PROJECT,
  apiEndpoint: "127.0.0.1",
  port: emu.port,
  fallback: true,
  protocol: "http",
  authClient: new PassThroughClient(),
});

beforeAll(async () => {
  emu = await startTestEmulator();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ps = emu.client({ ...restOptions(), apiEndpoint: emu.endpoint } as any);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  subscriber = new v1.SubscriberClient(restOptions() as any);
});
afterAll(async () => {
  await subscriber?.close();
  await emu?.close();
});

describe("@google-cloud/pubsub over REST", () => {
  test("topics and subscriptions: create, get, update, list, delete", async () => {
    const [topic] = await ps.createTopic({ name: unique("rt"), labels: { team: "a" }, messageRetentionDuration: { seconds: 3600 } });
    const [meta] = await topic.getMetadata();
    expect(meta.labels).toEqual({ team: "a" });
    expect(Number(meta.messageRetentionDuration?.seconds)).toBe(3600);

    const [sub] = await topic.createSubscription(unique("rs"), {
      ackDeadlineSeconds: 30,
      retryPolicy: { minimumBackoff: { seconds: 2, nanos: 500_000_000 } },
      expirationPolicy: {},
    });
    const [smeta] = await sub.getMetadata();
    expect(smeta.ackDeadlineSeconds).toBe(30);
    expect(smeta.retryPolicy?.minimumBackoff).toMatchObject({ nanos: 500_000_000 });
    expect(smeta.expirationPolicy?.ttl ?? null).toBeNull();
    expect(smeta.state === "ACTIVE" || smeta.state === 1).toBe(true);

    await sub.setMetadata({ ackDeadlineSeconds: 45, labels: { env: "test" } });
    expect((await sub.getMetadata())[0]).toMatchObject({ ackDeadlineSeconds: 45, labels: { env: "test" } });

    const [subs] = await topic.getSubscriptions();
    expect(subs.map((s) => s.name)).toEqual([sub.name]);
    const [topics] = await ps.getTopics();
    expect(topics.map((t) => t.name)).toContain(topic.name);

    await sub.delete();
    await topic.delete();
    const [exists] = await topic.exists();
    expect(exists).toBe(false);
  });

  test("publish through the batching publisher, then pull, modify and acknowledge", async () => {
    const [topic] = await ps.createTopic(unique("rt"));
    const [sub] = await topic.createSubscription(unique("rs"));
    const ids = await Promise.all([
      topic.publishMessage({ data: Buffer.from([0, 255, 1]), attributes: { k: "v" } }),
      topic.publishMessage({ data: Buffer.from("two") }),
    ]);
    expect(ids).toHaveLength(2);

    const [res] = await subscriber.pull({ subscription: sub.name, maxMessages: 10 });
    const got = res.receivedMessages ?? [];
    expect(got.map((r) => r.message?.messageId).sort()).toEqual([...ids].sort());
    const first = got.find((r) => r.message?.messageId === ids[0])!;
    expect(Buffer.from(first.message!.data as Uint8Array)).toEqual(Buffer.from([0, 255, 1]));
    expect(first.message!.attributes).toEqual({ k: "v" });
    expect(Number(first.message!.publishTime?.seconds)).toBeGreaterThan(0);

    await subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [first.ackId!], ackDeadlineSeconds: 60 });
    await subscriber.acknowledge({ subscription: sub.name, ackIds: got.map((r) => r.ackId!) });
    const [empty] = await subscriber.pull({ subscription: sub.name, maxMessages: 10, returnImmediately: true });
    expect(empty.receivedMessages ?? []).toEqual([]);
  });

  test("errors arrive with their gRPC code and details", async () => {
    const missing = ps.topic(unique("missing"));
    await expect(missing.getMetadata()).rejects.toMatchObject({ code: 5 });
    const [topic] = await ps.createTopic(unique("rt"));
    const [sub] = await topic.createSubscription(unique("rs"));
    const err = await subscriber
      .modifyAckDeadline({ subscription: sub.name, ackIds: ["x"], ackDeadlineSeconds: 601 })
      .then(() => null, (e: { code: number; message: string; statusDetails?: unknown[] }) => e);
    expect(err?.code).toBe(3);
    expect(err?.message).toContain("ack_deadline_seconds");
    expect(JSON.stringify(err?.statusDetails)).toContain("ack_deadline_seconds");
  });
});
