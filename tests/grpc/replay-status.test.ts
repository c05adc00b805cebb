/**
 * Status codes of snapshots, Seek and exactly-once acks through a raw grpc-js client: one row per
 * rule, each naming the field or resource in its message.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { rawClients, statusOf, type RawClients } from "../helpers/raw-grpc.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const S = grpc.status;
const topicPath = (id = unique("t")) => `projects/${PROJECT}/topics/${id}`;
const subPath = (id = unique("s")) => `projects/${PROJECT}/subscriptions/${id}`;
const snapPath = (id = unique("snap")) => `projects/${PROJECT}/snapshots/${id}`;
const DAY_S = 24 * 3600;

let emu: TestEmulator;
let c: RawClients;
let topic: string;
let sub: string;
let otherSub: string;
let detached: string;
let snapshot: string;
let eodSub: string;

const pub = (method: string, req: Obj) => c.call(c.publisher, method, req);
const subr = (method: string, req: Obj) => c.call(c.subscriber, method, req);

beforeAll(async () => {
  emu = await startTestEmulator();
  c = rawClients(emu.endpoint);
  topic = topicPath();
  sub = subPath();
  detached = subPath();
  eodSub = subPath();
  snapshot = snapPath();
  const other = topicPath();
  otherSub = subPath();
  await pub("CreateTopic", { name: topic });
  await pub("CreateTopic", { name: other });
  await subr("CreateSubscription", { name: sub, topic });
  await subr("CreateSubscription", { name: otherSub, topic: other });
  await subr("CreateSubscription", { name: detached, topic });
  await subr("CreateSubscription", { name: eodSub, topic, enableExactlyOnceDelivery: true });
  await pub("DetachSubscription", { subscription: detached });
  await subr("CreateSnapshot", { name: snapshot, subscription: sub });
});

afterAll(async () => {
  c?.close();
  await emu?.close();
});

interface Row {
  name: string;
  run: () => Promise<unknown>;
  code: grpc.status;
  mentions: string | (() => string);
}

const rows: Row[] = [
  // CreateSnapshot
  { name: "CreateSnapshot with a malformed name → INVALID_ARGUMENT", run: () => subr("CreateSnapshot", { name: "projects/p/topics/x", subscription: sub }), code: S.INVALID_ARGUMENT, mentions: "name" },
  { name: "CreateSnapshot without a subscription → INVALID_ARGUMENT", run: () => subr("CreateSnapshot", { name: snapPath() }), code: S.INVALID_ARGUMENT, mentions: "subscription" },
  { name: "CreateSnapshot of a missing subscription → NOT_FOUND", run: () => subr("CreateSnapshot", { name: snapPath(), subscription: subPath("missing-cs") }), code: S.NOT_FOUND, mentions: "missing-cs" },
  { name: "CreateSnapshot of an existing name → ALREADY_EXISTS", run: () => subr("CreateSnapshot", { name: snapshot, subscription: sub }), code: S.ALREADY_EXISTS, mentions: () => snapshot },
  { name: "CreateSnapshot with an invalid label key → INVALID_ARGUMENT", run: () => subr("CreateSnapshot", { name: snapPath(), subscription: sub, labels: { "Bad-Key": "v" } }), code: S.INVALID_ARGUMENT, mentions: "label" },
  // Get, List, Delete
  { name: "GetSnapshot of a missing snapshot → NOT_FOUND", run: () => subr("GetSnapshot", { snapshot: snapPath("missing-get") }), code: S.NOT_FOUND, mentions: "missing-get" },
  { name: "GetSnapshot of a malformed name → INVALID_ARGUMENT", run: () => subr("GetSnapshot", { snapshot: "projects/p/snapshots/1x" }), code: S.INVALID_ARGUMENT, mentions: "snapshot" },
  { name: "DeleteSnapshot of a missing snapshot → NOT_FOUND", run: () => subr("DeleteSnapshot", { snapshot: snapPath("missing-del") }), code: S.NOT_FOUND, mentions: "missing-del" },
  { name: "ListSnapshots of a malformed project → INVALID_ARGUMENT", run: () => subr("ListSnapshots", { project: "project/x" }), code: S.INVALID_ARGUMENT, mentions: "project" },
  { name: "ListSnapshots with a negative page size → INVALID_ARGUMENT", run: () => subr("ListSnapshots", { project: `projects/${PROJECT}`, pageSize: -1 }), code: S.INVALID_ARGUMENT, mentions: "page_size" },
  { name: "ListTopicSnapshots of a missing topic → NOT_FOUND", run: () => pub("ListTopicSnapshots", { topic: topicPath("missing-lts") }), code: S.NOT_FOUND, mentions: "missing-lts" },
  // UpdateSnapshot
  { name: "UpdateSnapshot with an empty mask → INVALID_ARGUMENT", run: () => subr("UpdateSnapshot", { snapshot: { name: snapshot, labels: { a: "b" } }, updateMask: { paths: [] } }), code: S.INVALID_ARGUMENT, mentions: "update_mask" },
  { name: "UpdateSnapshot of the immutable topic → INVALID_ARGUMENT", run: () => subr("UpdateSnapshot", { snapshot: { name: snapshot, topic }, updateMask: { paths: ["topic"] } }), code: S.INVALID_ARGUMENT, mentions: "topic" },
  { name: "UpdateSnapshot with an unknown path → INVALID_ARGUMENT", run: () => subr("UpdateSnapshot", { snapshot: { name: snapshot }, updateMask: { paths: ["ttl"] } }), code: S.INVALID_ARGUMENT, mentions: "ttl" },
  {
    name: "UpdateSnapshot expire_time past the snapshot's lifetime → INVALID_ARGUMENT",
    run: () => subr("UpdateSnapshot", { snapshot: { name: snapshot, expireTime: { seconds: Math.floor(Date.now() / 1000) + 8 * DAY_S } }, updateMask: { paths: ["expire_time"] } }),
    code: S.INVALID_ARGUMENT,
    mentions: "expire_time",
  },
  { name: "UpdateSnapshot of a missing snapshot → NOT_FOUND", run: () => subr("UpdateSnapshot", { snapshot: { name: snapPath("missing-up") }, updateMask: { paths: ["labels"] } }), code: S.NOT_FOUND, mentions: "missing-up" },
  // Seek
  { name: "Seek without a target → INVALID_ARGUMENT", run: () => subr("Seek", { subscription: sub }), code: S.INVALID_ARGUMENT, mentions: "snapshot" },
  { name: "Seek on a missing subscription → NOT_FOUND", run: () => subr("Seek", { subscription: subPath("missing-seek"), time: { seconds: 1 } }), code: S.NOT_FOUND, mentions: "missing-seek" },
  { name: "Seek to a missing snapshot → NOT_FOUND", run: () => subr("Seek", { subscription: sub, snapshot: snapPath("missing-snap") }), code: S.NOT_FOUND, mentions: "missing-snap" },
  { name: "Seek to a malformed snapshot name → INVALID_ARGUMENT", run: () => subr("Seek", { subscription: sub, snapshot: "snap" }), code: S.INVALID_ARGUMENT, mentions: "snapshot" },
  { name: "Seek to a snapshot of another topic → FAILED_PRECONDITION", run: () => subr("Seek", { subscription: otherSub, snapshot }), code: S.FAILED_PRECONDITION, mentions: () => snapshot },
  { name: "Seek on a detached subscription → FAILED_PRECONDITION", run: () => subr("Seek", { subscription: detached, time: { seconds: 1 } }), code: S.FAILED_PRECONDITION, mentions: "detached" },
  // exactly-once
  { name: "Acknowledge of an unknown ack id on an exactly-once subscription → INVALID_ARGUMENT", run: () => subr("Acknowledge", { subscription: eodSub, ackIds: ["stale-1"] }), code: S.INVALID_ARGUMENT, mentions: "acknowledgement ids" },
  { name: "ModifyAckDeadline of an unknown ack id on an exactly-once subscription → INVALID_ARGUMENT", run: () => subr("ModifyAckDeadline", { subscription: eodSub, ackIds: ["stale-2"], ackDeadlineSeconds: 30 }), code: S.INVALID_ARGUMENT, mentions: "acknowledgement ids" },
];

describe("replay and exactly-once status codes through a raw grpc client", () => {
  for (const row of rows) {
    test(row.name, async () => {
      const s = await statusOf(row.run());
      expect(S[s.code]).toBe(S[row.code]);
      const mentions = typeof row.mentions === "function" ? row.mentions() : row.mentions;
      expect(s.details).toContain(mentions);
    });
  }

  test("the valid forms succeed (the rows are not failing for a shared reason)", async () => {
    const got = await subr("GetSnapshot", { snapshot });
    expect(got.topic).toBe(topic);
    expect(Number(got.expireTime.seconds)).toBeGreaterThan(Date.now() / 1000 + 6 * DAY_S);
    expect(await subr("Seek", { subscription: sub, snapshot })).toEqual({});
    expect(await subr("Seek", { subscription: sub, time: { seconds: 0 } })).toEqual({});
    const named = await subr("CreateSnapshot", { subscription: sub });
    expect(named.name).toStartWith(`projects/${PROJECT}/snapshots/`);
    const up = await subr("UpdateSnapshot", { snapshot: { name: snapshot, labels: { k: "v" } }, updateMask: { paths: ["labels"] } });
    expect(up.labels).toEqual({ k: "v" });
  });

  test("an exactly-once failure carries the ErrorInfo in grpc-status-details-bin", async () => {
    const err = await subr("Acknowledge", { subscription: eodSub, ackIds: ["stale-3"] }).catch((e: grpc.ServiceError) => e);
    const bin = (err as grpc.ServiceError).metadata.get("grpc-status-details-bin")[0] as Buffer;
    const text = bin.toString("latin1");
    expect(text).toContain("type.googleapis.com/google.rpc.ErrorInfo");
    expect(text).toContain("EXACTLY_ONCE_ACKID_FAILURE");
    expect(text).toContain("stale-3");
    expect(text).toContain("PERMANENT_FAILURE_INVALID_ACK_ID");
  });
});
