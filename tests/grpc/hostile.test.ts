/**
 * The hostile requests that once broke the server, one by one: prototype paths in masks, long
 * input echoed into errors, bad filter strings, `__proto__` keys, invalid UTF-8. Each gets its
 * real-service status, and the server keeps serving every client afterwards.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { method, rawChannel, withBytes } from "../helpers/raw-bytes.ts";
import { grpcClients, statusOf, type GrpcClients } from "../helpers/raw-grpc.ts";
import { subPath, topicPath } from "../helpers/project.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
const S = grpc.status;
const LONG = "a".repeat(70_000);
/** What a status message may take; the transport's limit is several times more. */
const MAX_DETAILS = 2048;

forEachGrpcServer((grpcServer) => {
  let emu: TestEmulator;
  let c: GrpcClients;
  let topic: string;
  let sub: string;
  const pub = (m: string, req: Obj) => statusOf(c.call(c.publisher, m, req));
  const subr = (m: string, req: Obj) => statusOf(c.call(c.subscriber, m, req));

  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer });
    c = grpcClients(emu.endpoint);
    topic = topicPath();
    sub = subPath();
    await c.call(c.publisher, "CreateTopic", { name: topic });
    await c.call(c.subscriber, "CreateSubscription", { name: sub, topic });
  });
  afterAll(async () => {
    c.close();
    await emu.close();
  });

  /** Publishes `messages` to a new subscription of `topic` (with `filter` if given); the attributes of what a Pull then gets. */
  async function pulledAttributes(messages: Obj[], filter?: string): Promise<Obj[]> {
    const s = subPath();
    await c.call(c.subscriber, "CreateSubscription", { name: s, topic, filter });
    expect((await pub("Publish", { topic, messages })).code).toBe(S.OK);
    const res = await c.call(c.subscriber, "Pull", { subscription: s, maxMessages: 10, returnImmediately: true });
    return res.receivedMessages.map((m: Obj) => m.message.attributes);
  }

  /** The server still creates with labels, updates, publishes and pulls, on this same connection. */
  async function stillServes(): Promise<void> {
    const t = topicPath();
    expect((await pub("CreateTopic", { name: t, labels: { env: "test" } })).code).toBe(S.OK);
    const s = subPath();
    expect((await subr("CreateSubscription", { name: s, topic: t, labels: { a: "b" } })).code).toBe(S.OK);
    const upd = await c.call(c.subscriber, "UpdateSubscription", { subscription: { name: s, ackDeadlineSeconds: 30 }, updateMask: { paths: ["ack_deadline_seconds"] } });
    expect(upd.ackDeadlineSeconds).toBe(30);
    await c.call(c.publisher, "Publish", { topic: t, messages: [{ data: Buffer.from("ok") }] });
    const res = await c.call(c.subscriber, "Pull", { subscription: s, maxMessages: 1, returnImmediately: true });
    expect(res.receivedMessages[0].message.data.toString()).toBe("ok");
    expect(({} as Obj).polluted).toBeUndefined();
  }

  describe("field masks never reach prototypes", () => {
    const paths = [
      "constructor", "__proto__", "toString", "hasOwnProperty", "prototype",
      "labels.constructor", "labels.__proto__", "labels.toString", "labels.constructor.prototype.polluted",
      "push_config.__proto__.polluted", "retry_policy.constructor", "dead_letter_policy.valueOf",
      "labels.env", "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p",
    ];
    for (const path of paths) {
      test(`UpdateTopic and UpdateSubscription with "${path}" are INVALID_ARGUMENT naming it`, async () => {
        const t = await pub("UpdateTopic", { topic: { name: topic, labels: { x: "y" } }, updateMask: { paths: [path] } });
        expect(t.code).toBe(S.INVALID_ARGUMENT);
        expect(t.details).toContain(path);
        const s = await subr("UpdateSubscription", { subscription: { name: sub, labels: { x: "y" } }, updateMask: { paths: [path] } });
        expect(s.code).toBe(S.INVALID_ARGUMENT);
        expect(s.details).toContain(path);
      });
    }
    test("known nested paths still update", async () => {
      const s = subPath();
      await c.call(c.subscriber, "CreateSubscription", { name: s, topic });
      const r = await c.call(c.subscriber, "UpdateSubscription", {
        subscription: { name: s, retryPolicy: { minimumBackoff: { seconds: 20 } } },
        updateMask: { paths: ["retry_policy.minimum_backoff"] },
      });
      expect(Number(r.retryPolicy.minimumBackoff.seconds)).toBe(20);
    });
    test("afterwards the server still serves", stillServes);
  });

  describe("long input is echoed bounded, and the connection goes on", () => {
    const cases: [string, () => Promise<{ code: number; details: string }>, number][] = [
      ["a 70,000-character resource name", () => pub("GetTopic", { topic: topicPath(LONG) }), S.INVALID_ARGUMENT],
      ["a 70,000-character project", () => pub("GetTopic", { topic: `projects/${LONG}/topics/abc` }), S.NOT_FOUND],
      ["a 70,000-character attribute key", () => pub("Publish", { topic, messages: [{ attributes: { [LONG]: "v" } }] }), S.INVALID_ARGUMENT],
      ["a 70,000-character label key", () => pub("CreateTopic", { name: topicPath(), labels: { [LONG]: "v" } }), S.INVALID_ARGUMENT],
      ["a 70,000-character mask path", () => pub("UpdateTopic", { topic: { name: topic }, updateMask: { paths: [LONG] } }), S.INVALID_ARGUMENT],
      ["a 70,000-character multi-byte name", () => pub("GetTopic", { topic: topicPath("é".repeat(70_000)) }), S.INVALID_ARGUMENT],
    ];
    for (const [what, call, code] of cases) {
      test(what, async () => {
        const s = await call();
        expect(s.code).toBe(code);
        expect(Buffer.byteLength(encodeURI(s.details))).toBeLessThanOrEqual(MAX_DETAILS);
        expect(s.details).toContain("more characters");
      });
    }
    test("afterwards the server still serves", stillServes);
  });

  describe("filters that do not parse are INVALID_ARGUMENT", () => {
    for (const filter of ['attributes.a = "\\q"', 'attributes.a = "\u0000"', 'attributes.a = "a\nb"', 'attributes.a = "\\u12"', 'attributes."\\x" = "a"', 'hasPrefix(attributes.a, "\u0007")']) {
      test(JSON.stringify(filter), async () => {
        const s = await subr("CreateSubscription", { name: subPath(), topic, filter });
        expect(s.code).toBe(S.INVALID_ARGUMENT);
        expect(s.details).toContain("filter");
      });
    }
    test("escapes that parse still match", async () => {
      const got = await pulledAttributes([{ attributes: { q: 'say "hi"\n' } }, { attributes: { q: "other" } }], 'attributes.q = "say \\"hi\\"\\n"');
      expect(got.map((a) => a.q)).toEqual(['say "hi"\n']);
    });
  });

  describe("prototype keys are data", () => {
    test("a message whose only attribute is __proto__ is published and delivered with it", async () => {
      const attributes = JSON.parse('{"__proto__":"p","constructor":"c"}');
      const got = (await pulledAttributes([{ attributes: JSON.parse('{"__proto__":"p"}') }, { attributes }])).map((a) => Object.entries(a));
      expect(got).toEqual([[["__proto__", "p"]], [["__proto__", "p"], ["constructor", "c"]]]);
    });

    test("a filter on an attribute named constructor only matches a message that has it", async () => {
      const got = await pulledAttributes([{ attributes: { a: "1" } }, { attributes: { constructor: "2" } }], "attributes:constructor");
      expect(got.map((a) => a.constructor as unknown)).toEqual(["2"]);
    });

    test("a label key __proto__ is INVALID_ARGUMENT naming it; constructor is a valid key and round-trips", async () => {
      const bad = await pub("CreateTopic", { name: topicPath(), labels: JSON.parse('{"__proto__":"x"}') });
      expect(bad.code).toBe(S.INVALID_ARGUMENT);
      expect(bad.details).toContain('"__proto__"');
      const name = topicPath();
      expect((await pub("CreateTopic", { name, labels: { constructor: "x", tostring: "y" } })).code).toBe(S.OK);
      const got = await c.call(c.publisher, "GetTopic", { topic: name });
      expect(Object.entries(got.labels).sort()).toEqual([["constructor", "x"], ["tostring", "y"]]);
    });
    test("push attributes keep a __proto__ key as data through create, update and get", async () => {
      const name = subPath();
      const attributes = JSON.parse('{"__proto__":"p","x-goog-version":"v1"}');
      await c.call(c.subscriber, "CreateSubscription", { name, topic, pushConfig: { pushEndpoint: "https://example.com/p", attributes } });
      await c.call(c.subscriber, "UpdateSubscription", {
        subscription: { name, pushConfig: { pushEndpoint: "https://example.com/q", attributes } },
        updateMask: { paths: ["push_config"] },
      });
      const got = await c.call(c.subscriber, "GetSubscription", { subscription: name });
      expect(got.pushConfig.pushEndpoint).toBe("https://example.com/q");
      expect(Object.entries(got.pushConfig.attributes).sort()).toEqual([["__proto__", "p"], ["x-goog-version", "v1"]]);
    });
    test("afterwards the server still serves", stillServes);
  });

  describe("string fields must be UTF-8", () => {
    const BAD = [0x61, 0xed, 0xa0, 0x80, 0xff, 0xc0, 0x62];
    const MARK = "~~BAD~~";
    const cases: [string, "Publisher" | "Subscriber", string, Obj, string][] = [
      ["Publish topic (hand codec)", "Publisher", "Publish", { topic: `projects/p/topics/${MARK}`, messages: [{ data: Buffer.from("x") }] }, "topic"],
      ["Publish attribute value", "Publisher", "Publish", { topic: "T", messages: [{ attributes: { k: MARK } }] }, "messages.attributes"],
      ["Publish ordering key", "Publisher", "Publish", { topic: "T", messages: [{ data: Buffer.from("x"), orderingKey: MARK }] }, "messages.ordering_key"],
      ["Acknowledge ack id", "Subscriber", "Acknowledge", { subscription: "S", ackIds: [MARK] }, "ack_ids"],
      ["CreateTopic label value (protobufjs)", "Publisher", "CreateTopic", { name: "T", labels: { k: MARK } }, "labels"],
      ["CreateTopic name", "Publisher", "CreateTopic", { name: `projects/p/topics/${MARK}` }, "name"],
      ["CreateSubscription filter", "Subscriber", "CreateSubscription", { name: "S", topic: "T", filter: `attributes.a = "${MARK}"` }, "filter"],
      ["UpdateSubscription push attributes", "Subscriber", "UpdateSubscription", { subscription: { name: "S", pushConfig: { attributes: { [MARK]: "v" } } }, updateMask: { paths: ["push_config"] } }, "subscription.push_config.attributes"],
      ["UpdateTopic mask path", "Publisher", "UpdateTopic", { topic: { name: "T" }, updateMask: { paths: [MARK] } }, "update_mask.paths"],
    ];
    for (const [what, service, name, req, field] of cases) {
      test(`${what} → INVALID_ARGUMENT naming ${field}`, async () => {
        const m = method(service, name);
        const fill = (o: Obj): Obj => JSON.parse(JSON.stringify(o).replaceAll('"T"', JSON.stringify(topic)).replaceAll('"S"', JSON.stringify(sub)));
        const body = withBytes(m.encode({ ...fill(req), ...("messages" in req ? { messages: req.messages } : {}) }), MARK, BAD);
        const raw = rawChannel(emu.endpoint);
        const s = await raw.send(m, body);
        raw.close();
        expect(s.code).toBe(S.INVALID_ARGUMENT);
        expect(s.details).toContain(`the ${field} field`);
      });
    }
    test("U+FFFD encoded as UTF-8 is a valid character", async () => {
      const s = await pub("CreateTopic", { name: topicPath(), labels: { k: "\uFFFD" } });
      expect(s.code).toBe(S.INVALID_ARGUMENT); // not a valid label value, but not a UTF-8 error
      expect(s.details).not.toContain("UTF-8");
    });
  });
});
