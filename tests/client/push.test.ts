/**
 * Push subscriptions end to end: the official client creates them, real HTTP receivers on
 * loopback get the requests. Push requests time out after 300 ms here (--push-timeout-ms) so a
 * hanging receiver costs the test a fraction of a second.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PubSub } from "@google-cloud/pubsub";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { grpcCode, rawClients, within, type RawClients } from "../helpers/raw-clients.ts";
import { receive } from "../helpers/receive.ts";
import { startReceiver, type Receiver, type Responder } from "../helpers/receiver.ts";

const T = 20_000;
const FAILED_PRECONDITION = 9;

let emu: TestEmulator;
let ps: PubSub;
let raw: RawClients;
const receivers: Receiver[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ pushTimeoutMs: 300 });
  ps = emu.client();
  raw = rawClients(emu);
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await raw.close();
  await emu.close();
});

function receiver(respond?: Responder): Receiver {
  const r = startReceiver(respond);
  receivers.push(r);
  return r;
}

async function pushSub(pushConfig: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const [topic] = await ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"), { pushConfig, ...extra });
  return { topic, sub };
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const fromB64 = (s: string) => Buffer.from(s, "base64").toString();

describe("push delivery", () => {
  test("the JSON wrapper carries data, attributes, ids, publish times and the subscription; 200 acks", async () => {
    const r = receiver();
    const { topic, sub } = await pushSub({ pushEndpoint: r.url });
    const id = await topic.publishMessage({ data: Buffer.from("hello"), attributes: { color: "red" } });
    const [hit] = await r.waitFor(1);
    const m = hit.json!.message;
    expect(fromB64(m.data)).toBe("hello");
    expect(m.attributes).toEqual({ color: "red" });
    expect(m.messageId).toBe(id);
    expect(m.message_id).toBe(id);
    expect(m.publishTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(m.publish_time).toBe(m.publishTime);
    expect(hit.json!.subscription).toBe(sub.name);
    expect("deliveryAttempt" in hit.json!).toBe(false);
    expect(hit.headers.get("content-type")).toBe("application/json");
    expect(hit.headers.get("user-agent")).toContain("APIs-Google");
    expect(hit.headers.get("authorization")).toBeNull();
    await Bun.sleep(300); // acked: never sent again
    expect(r.hits.length).toBe(1);
  }, T);

  test("no_wrapper sends the raw data; write_metadata adds attributes and x-goog-pubsub-* headers", async () => {
    const withMeta = receiver();
    const bare = receiver();
    const { topic, sub } = await pushSub({ pushEndpoint: withMeta.url, noWrapper: { writeMetadata: true } });
    const [plain] = await topic.createSubscription(unique("s"), { pushConfig: { pushEndpoint: bare.url, noWrapper: {} } });
    const id = await topic.publishMessage({ data: Buffer.from("raw-bytes"), attributes: { color: "red", "bad key": "x" } });
    const [hit] = await withMeta.waitFor(1);
    expect(text(hit.body)).toBe("raw-bytes");
    expect(hit.headers.get("color")).toBe("red");
    expect(hit.headers.get("x-goog-pubsub-subscription-name")).toBe(sub.name);
    expect(hit.headers.get("x-goog-pubsub-message-id")).toBe(id);
    expect(Date.parse(hit.headers.get("x-goog-pubsub-publish-time")!)).toBeGreaterThan(0);
    const [b] = await bare.waitFor(1);
    expect(text(b.body)).toBe("raw-bytes");
    expect(b.headers.get("x-goog-pubsub-message-id")).toBeNull();
    expect(b.headers.get("color")).toBeNull();
    expect((await plain.getMetadata())[0].pushConfig?.noWrapper).toBeTruthy();
  }, T);

  test("failures are retried with a growing push backoff until a 2xx acks", async () => {
    const r = receiver((_, n) => (n < 3 ? 500 : 200));
    const { topic } = await pushSub({ pushEndpoint: r.url });
    const id = await topic.publishMessage({ data: Buffer.from("retry me") });
    const hits = await r.waitFor(4);
    expect(hits.map((h) => h.json!.message.messageId)).toEqual([id, id, id, id]);
    const gaps = hits.slice(1).map((h, i) => h.at - hits[i].at);
    // 100, 200, 400 ms at least (later is fine: the test only bounds from below).
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    expect(gaps[2]).toBeGreaterThanOrEqual(390);
    await Bun.sleep(300);
    expect(r.hits.length).toBe(4);
  }, T);

  test("a receiver that hangs is abandoned after the push timeout and the message is redelivered", async () => {
    const r = receiver((_, n) => (n === 0 ? "hang" : 200));
    const { topic } = await pushSub({ pushEndpoint: r.url });
    const id = await topic.publishMessage({ data: Buffer.from("slow") });
    const hits = await r.waitFor(2, 5000);
    expect(hits[1].json!.message.messageId).toBe(id);
    expect(hits[1].at - hits[0].at).toBeGreaterThanOrEqual(290);
  }, T);

  test("oidc_token: a Bearer JWT that verifies with the emulator's published keys", async () => {
    const r = receiver();
    const email = "pusher@test-project.iam.gserviceaccount.com";
    const { topic } = await pushSub({ pushEndpoint: r.url, oidcToken: { serviceAccountEmail: email, audience: "my-audience" } });
    const { topic: t2 } = await pushSub({ pushEndpoint: r.url, oidcToken: { serviceAccountEmail: email } });
    await topic.publishMessage({ data: Buffer.from("a") });
    await t2.publishMessage({ data: Buffer.from("b") });
    const hits = await r.waitFor(2);
    const jwks = createRemoteJWKSet(new URL(`http://127.0.0.1:${emu.port}/oauth2/v3/certs`));
    const audiences = [];
    for (const hit of hits) {
      const auth = hit.headers.get("authorization") ?? "";
      expect(auth.startsWith("Bearer ")).toBe(true);
      const { payload, protectedHeader } = await jwtVerify(auth.slice(7), jwks, { issuer: "https://accounts.google.com" });
      expect(protectedHeader.alg).toBe("RS256");
      expect(payload.email).toBe(email);
      expect(payload.email_verified).toBe(true);
      expect(String(payload.sub)).toMatch(/^\d{21}$/);
      expect(payload.exp! - payload.iat!).toBe(3600);
      audiences.push(payload.aud);
    }
    expect(audiences.sort()).toEqual(["my-audience", r.url].sort());
  }, T);

  test("an ordered push subscription delivers each key in publish order, also after a failure", async () => {
    let failedOnce = false;
    const r = receiver(async (hit) => {
      await Bun.sleep(Math.floor(Math.random() * 10));
      const d = fromB64(hit.json!.message.data);
      if (d === "a-3" && !failedOnce) {
        failedOnce = true;
        return 503;
      }
      return 200;
    });
    const [topic] = await ps.createTopic(unique("t"));
    await topic.createSubscription(unique("s"), { pushConfig: { pushEndpoint: r.url }, enableMessageOrdering: true });
    topic.setPublishOptions({ messageOrdering: true });
    const keys = ["a", "b", "c"];
    await Promise.all(keys.flatMap((k) => Array.from({ length: 8 }, (_, i) => topic.publishMessage({ data: Buffer.from(`${k}-${i}`), orderingKey: k }))));
    await r.waitFor(25, 10_000);
    for (const k of keys) {
      const seen = r.hits.map((h) => fromB64(h.json!.message.data)).filter((d) => d.startsWith(`${k}-`));
      const firstAcked = [...new Set(seen)];
      expect(firstAcked).toEqual(Array.from({ length: 8 }, (_, i) => `${k}-${i}`));
      expect(r.hits.filter((h) => h.json!.message.orderingKey === k).length).toBe(k === "a" ? 9 : 8);
    }
  }, T);

  test("after max_delivery_attempts the message goes to the dead-letter topic; attempts are in the wrapper", async () => {
    const r = receiver(() => 500);
    const [dlq] = await ps.createTopic(unique("dlq"));
    const [dlqSub] = await dlq.createSubscription(unique("dlqs"));
    const { topic } = await pushSub({ pushEndpoint: r.url }, { deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 5 } });
    await topic.publishMessage({ data: Buffer.from("poison") });
    const [dead] = await receive(dlqSub, 1, { ms: 10_000 });
    expect(dead.data.toString()).toBe("poison");
    expect(r.hits.map((h) => h.json!.deliveryAttempt)).toEqual([1, 2, 3, 4, 5]);
  }, T);

  test("Pull and StreamingPull on a push subscription are FAILED_PRECONDITION; ModifyPushConfig switches both ways", async () => {
    const r = receiver();
    const { topic, sub } = await pushSub({ pushEndpoint: r.url });
    expect(await grpcCode(raw.subscriber.pull({ subscription: sub.name, maxMessages: 1 }))).toBe(FAILED_PRECONDITION);
    await sub.modifyPushConfig({});
    await topic.publishMessage({ data: Buffer.from("pulled") });
    const [res] = await within(raw.subscriber.pull({ subscription: sub.name, maxMessages: 1 }), 5000, "pull");
    expect(res.receivedMessages?.[0]?.message?.data?.toString()).toBe("pulled");
    expect(r.hits.length).toBe(0);
    await raw.subscriber.acknowledge({ subscription: sub.name, ackIds: [res.receivedMessages![0].ackId!] });
    await sub.modifyPushConfig({ pushEndpoint: r.url });
    await topic.publishMessage({ data: Buffer.from("pushed") });
    const [hit] = await r.waitFor(1);
    expect(fromB64(hit.json!.message.data)).toBe("pushed");
    const [meta] = await sub.getMetadata();
    expect(meta.pushConfig?.attributes).toEqual({ "x-goog-version": "v1" });
  }, T);

  test("an endpoint that refuses connections blocks no other subscription", async () => {
    const down = startReceiver();
    const deadUrl = down.url;
    await down.stop();
    const up = receiver();
    const [topic] = await ps.createTopic(unique("t"));
    await topic.createSubscription(unique("s"), { pushConfig: { pushEndpoint: deadUrl } });
    await topic.createSubscription(unique("s"), { pushConfig: { pushEndpoint: up.url } });
    const [pull] = await topic.createSubscription(unique("s"));
    for (let i = 0; i < 5; i++) await topic.publishMessage({ data: Buffer.from(`m${i}`) });
    await up.waitFor(5, 3000);
    expect((await receive(pull, 5, { ms: 3000 })).length).toBe(5);
  }, T);

  test("an invalid push endpoint is INVALID_ARGUMENT", async () => {
    const [topic] = await ps.createTopic(unique("t"));
    expect(await grpcCode(topic.createSubscription(unique("s"), { pushConfig: { pushEndpoint: "not a url" } }))).toBe(3);
  }, T);
});
