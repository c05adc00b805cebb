/** Fault injection through the official client: errors with retry info, scopes, delays, dropped acks, ended streams. */
import { afterEach, describe, expect, test } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import type { Message } from "@google-cloud/pubsub";
import { clientSuite } from "../helpers/client-suite.ts";
import { unique, waitFor } from "../helpers/emulator.ts";
import { grpcCode, openStream, subPath } from "../helpers/raw-clients.ts";
import { grpcClients } from "../helpers/raw-grpc.ts";
import { collect } from "../helpers/receive.ts";

const suite = clientSuite({ clock: "manual" });
const addFault = (fault: Record<string, unknown>) => suite.emu.admin("POST", "/emulator/v1/faults", fault);
const listFaults = async () => (await suite.emu.admin("GET", "/emulator/v1/faults")).faults as Record<string, unknown>[];

afterEach(() => suite.emu.admin("DELETE", "/emulator/v1/faults"));

async function pullNow(subscription: string) {
  const [res] = await suite.raw.subscriber.pull({ subscription, maxMessages: 100, returnImmediately: true });
  return res.receivedMessages ?? [];
}

describe("error faults", () => {
  test("the next N publishes fail UNAVAILABLE; the official client retries through them; the fault is used up", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    const fault = await addFault({ method: "Publisher.Publish", resource: topic.name, count: 2, error: { code: "UNAVAILABLE" } });
    expect(fault).toMatchObject({ method: "Publisher.Publish", remaining: 2, hits: 0, error: { code: "UNAVAILABLE" } });
    expect(await topic.publishMessage({ data: Buffer.from("retried") })).toBeTruthy();
    expect(await listFaults()).toEqual([]);
  });

  test("a non-retryable status reaches the caller once, with RetryInfo in the status details", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    await addFault({ method: "Subscriber.CreateSubscription", error: { code: "PERMISSION_DENIED", message: "nope", retryDelay: "2s" } });
    const raw = grpcClients(suite.emu.endpoint);
    try {
      const err = await raw.call(raw.subscriber, "CreateSubscription", { name: subPath(unique("s")), topic: topic.name }).catch((e) => e as grpc.ServiceError);
      expect(err.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(err.details).toBe("nope");
      const details = err.metadata.get("grpc-status-details-bin")[0] as Buffer;
      expect(details.toString("latin1")).toContain("type.googleapis.com/google.rpc.RetryInfo");
    } finally {
      raw.close();
    }
    const [sub] = await topic.createSubscription(unique("s"));
    expect(sub.name).toContain("/subscriptions/");
  });

  test("a fault scoped to one topic or project leaves the others alone", async () => {
    const [a] = await suite.ps.createTopic(unique("a"));
    const [b] = await suite.ps.createTopic(unique("b"));
    await addFault({ resource: a.name, count: 5, error: { code: "FAILED_PRECONDITION" } });
    expect(await grpcCode(a.getMetadata())).toBe(grpc.status.FAILED_PRECONDITION);
    expect((await b.getMetadata())[0].name).toBe(b.name);
    await suite.emu.admin("DELETE", "/emulator/v1/faults");
    await addFault({ method: "Publisher.*", resource: "projects/another-project", error: { code: "INTERNAL" } });
    expect((await a.getMetadata())[0].name).toBe(a.name);
    expect((await listFaults())[0]).toMatchObject({ hits: 0, remaining: 1 });
  });

  test("invalid faults are 400s naming the field", async () => {
    const bad = [
      [{ method: "Publisher.Nope", error: { code: "UNAVAILABLE" } }, /method/],
      [{ method: "constructor.*", error: { code: "UNAVAILABLE" } }, /method/],
      [{ error: { code: "OK" } }, /error.code/],
      [{ delay: "forever" }, /delay/],
      [{ dropAcks: 2 }, /dropAcks/],
      [{ resource: "topics/x", delay: "1s" }, /resource/],
      [{ delay: "1s", dropAcks: 0.5 }, /exactly one/],
    ] as const;
    for (const [body, message] of bad) await expect(addFault(body)).rejects.toThrow(message);
    expect(await listFaults()).toEqual([]);
  });
});

describe("delays, dropped acks, ended streams", () => {
  test("a delayed answer arrives late; the call took effect", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    await addFault({ method: "Publisher.GetTopic", delay: "300ms" });
    const started = performance.now();
    await topic.getMetadata();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect((await listFaults())[0]).toMatchObject({ delay: "0.3s", hits: 1, remaining: null });
  });

  test("dropAcks 0.5 drops every other ack: those messages come back after their deadline", async () => {
    const { topic, sub } = await suite.topicAndSub({ ackDeadlineSeconds: 10 });
    for (let i = 0; i < 4; i++) await topic.publishMessage({ data: Buffer.from(`d${i}`) });
    await addFault({ resource: sub.name, dropAcks: 0.5 });
    const got = await pullNow(sub.name);
    expect(got.length).toBe(4);
    await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds: got.map((r) => r.ackId!) });
    await suite.emu.advance("10s");
    const again = await pullNow(sub.name);
    expect(again.length).toBe(2);
    const ids = (rs: typeof got) => rs.map((r) => r.message!.messageId).sort();
    expect(ids(again)).toEqual(ids([got[1], got[3]]));
  });

  test("dropAcks applies to acks on a StreamingPull stream too", async () => {
    const { topic, sub } = await suite.topicAndSub({ ackDeadlineSeconds: 10 });
    await topic.publishMessage({ data: Buffer.from("s") });
    await addFault({ resource: sub.name, dropAcks: 1 });
    const stream = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 10 });
    await waitFor(() => stream.received.length >= 1, 5000, "the delivery");
    stream.write({ ackIds: [stream.received[0].ackId] });
    await Bun.sleep(100); // the ack reaches the server before the cancel
    stream.cancel();
    await Bun.sleep(100);
    await suite.emu.advance("10s");
    expect((await pullNow(sub.name)).length).toBe(1);
  });

  test("end-streams ends open streams with the status; the official subscriber reconnects and keeps receiving", async () => {
    const { topic, sub } = await suite.topicAndSub();
    const raw = openStream(suite.raw.subscriber, { subscription: sub.name, streamAckDeadlineSeconds: 10 });
    const got: Message[] = [];
    sub.on("message", (m: Message) => (got.push(m), m.ack()));
    await waitFor(() => suite.emu.broker.subscriptions.lookup(sub.name).view().consumers.length >= 2, 5000, "two open streams");
    const res = await suite.emu.admin("POST", "/emulator/v1/faults/end-streams", { resource: sub.name, error: { code: "UNAVAILABLE" } });
    expect(res.ended).toBeGreaterThanOrEqual(2);
    await waitFor(() => raw.error !== null, 5000, "the raw stream's end");
    expect(raw.error!.code).toBe(grpc.status.UNAVAILABLE);
    await topic.publishMessage({ data: Buffer.from("after") });
    await waitFor(() => got.length >= 1, 10_000, "a delivery after the reconnect");
    await sub.close();
  }, 20_000);
});

describe("transient exactly-once ack failures", () => {
  test("a unary Acknowledge fails TRANSIENT_* per ack id, applies none of them; a retry acks them", async () => {
    const { topic, sub } = await suite.topicAndSub({ enableExactlyOnceDelivery: true, ackDeadlineSeconds: 60 });
    for (const d of ["a", "b"]) await topic.publishMessage({ data: Buffer.from(d) });
    const got = await pullNow(sub.name);
    expect(got.length).toBe(2);
    const ackIds = got.map((r) => r.ackId!);
    const fault = await addFault({ method: "Subscriber.Acknowledge", resource: sub.name, transientAckFailure: true });
    expect(fault).toMatchObject({ transientAckFailure: "TRANSIENT_FAILURE_UNORDERED_ACK_ID", remaining: 1 });
    const err = (await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds }).catch((e) => e)) as {
      code: number;
      errorInfoMetadata?: Record<string, string>;
      reason?: string;
    };
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.reason).toBe("EXACTLY_ONCE_ACKID_FAILURE");
    expect(err.errorInfoMetadata).toEqual({ [ackIds[0]]: "TRANSIENT_FAILURE_UNORDERED_ACK_ID", [ackIds[1]]: "TRANSIENT_FAILURE_UNORDERED_ACK_ID" });
    expect(await listFaults()).toEqual([]);
    // Not applied: the same ids are still valid leases, so the retry acks them (a used id would be invalid).
    await suite.raw.subscriber.acknowledge({ subscription: sub.name, ackIds });
    await suite.emu.advance("60s");
    expect(await pullNow(sub.name)).toEqual([]);
  });

  test("the official subscriber retries a transient ack failure by itself: ackWithResponse ends SUCCESS, no redelivery", async () => {
    const { topic, sub } = await suite.topicAndSub({ enableExactlyOnceDelivery: true });
    const got = collect(sub);
    await topic.publishMessage({ data: Buffer.from("retried ack") });
    await waitFor(() => got.length >= 1, 5000, "the delivery");
    await addFault({ method: "Subscriber.Acknowledge", resource: sub.name, transientAckFailure: "TRANSIENT_FAILURE_TEST", count: 2 });
    expect(await got[0].ackWithResponse()).toBe("SUCCESS");
    expect(await listFaults()).toEqual([]);
    expect(got.length).toBe(1);
    await sub.close();
  }, 30_000);

  test("invalid transientAckFailure values are 400s naming the field", async () => {
    for (const v of ["PERMANENT_X", "transient_lower", 3, {}]) await expect(addFault({ transientAckFailure: v })).rejects.toThrow(/transientAckFailure/);
    expect(await listFaults()).toEqual([]);
  });
});
