/**
 * Seeded fuzzing of the REST/JSON surface: every route, with valid, poisoned and malformed JSON
 * bodies (prototype keys, deep nesting, lone surrogates, wrong types, huge numbers) and hostile
 * path segments. Every request must be answered within a bound, never with a 500, no error may
 * reach the INTERNAL mapper, no prototype may change, and the server serves normally afterwards.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ROUTES, type Route } from "../../src/rest/routes.ts";
import { startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { HOSTILE_STRINGS, poison, rng, templates, type Rng, internalErrorsSinceStart, fuzzSeed, FUZZ_CASES } from "./generators.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

const SEED = fuzzSeed(20261122);
const CASES = FUZZ_CASES / 4;
const CALL_MS = 5000;
const PARALLEL = 16;

forEachGrpcServer((grpcServer) => {
  /** Other test files in this process may have counted theirs: only this file's count matters. */
  const newInternalErrors = internalErrorsSinceStart();

  const RAW_BODIES = [
    '{"__proto__": {"polluted": 1}}',
    '{"constructor": {"prototype": {"polluted": 1}}}',
    '{"labels": {"__proto__": "x"}, "topic": {"labels": {"constructor": "y"}}}',
    '{"messages": [{"attributes": {"__proto__": "p"}, "data": "YQ=="}]}',
    '{"messages": [{"data": "!!!not base64"}]}',
    '{"messages": [{"attributes": {"k": "\\ud800"}}]}',
    '{"maxMessages": 1e400, "ackDeadlineSeconds": -1e400}',
    '{"ackIds": [{"nested": true}], "ackDeadlineSeconds": "ten"}',
    '{"updateMask": "constructor,__proto__.polluted,labels.toString"}',
    "[".repeat(100_000) + "]".repeat(100_000),
    '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000),
    "{", "null", "[]", '"str"', "\u0000", "{\"name\": \"\u0000\"}",
  ];

  let emu: TestEmulator;
  let topic: string;
  let sub: string;
  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer, pullWaitMs: 50 });
    const [t] = await emu.client().createTopic(unique("rest-fuzz"));
    const [s] = await t.createSubscription(unique("rest-fuzz"));
    topic = t.name;
    sub = s.name;
  });
  afterAll(() => emu.close());

  /** A path for the route: its variables filled with our resources, or hostile segments. */
  function path(r: Rng, route: Route, hostile: boolean): string {
    const t = route.template;
    const ids = topic.split("/");
    const parts = t.segments.map((seg, i) => {
      if (seg.kind === "literal") return seg.text;
      if (hostile && r.int(2)) return encodeURIComponent(r.pick(HOSTILE_STRINGS).slice(0, 2000));
      if (seg.kind === "rest") return `${ids[0]}/${ids[1]}/topics/${ids[3]}`;
      const before = i > 0 && t.segments[i - 1].kind === "literal" ? (t.segments[i - 1] as { text: string }).text : "";
      return before === "projects" ? ids[1] : before === "subscriptions" ? sub.split("/")[3] : ids[3];
    });
    return `/${parts.join("/")}${t.verb ? `:${t.verb}` : ""}`;
  }

  function body(r: Rng, route: Route, template: () => Record<string, unknown>): string | undefined {
    if (route.httpMethod === "GET" || route.httpMethod === "DELETE") return undefined;
    const toJson = (o: unknown) => JSON.stringify(o, (_, v) => (v && v.type === "Buffer" && Array.isArray(v.data) ? Buffer.from(v.data).toString("base64") : v));
    switch (r.int(3)) {
      case 0:
        return r.pick(RAW_BODIES);
      case 1: {
        const req = template();
        poison(r, req);
        return toJson(req);
      }
      default:
        return toJson(template());
    }
  }

  test(`every REST route answers hostile requests within ${CALL_MS} ms, never 500 (seed ${SEED})`, async () => {
    const r = rng(SEED);
    let n = 0;
    const t = templates(topic, sub, () => `rf-${++n}`);
    const counts: Record<string, number> = {};
    const failures: string[] = [];
    const jobs = ROUTES.flatMap((route) =>
      Array.from({ length: CASES }, (_, i) => {
        const method = route.key.split(".")[1];
        const url = `http://${emu.endpoint}${path(r, route, i % 3 === 2)}${i % 5 === 4 ? `?pageToken=${encodeURIComponent(r.pick(HOSTILE_STRINGS).slice(0, 500))}&pageSize=-1` : ""}`;
        const b = body(r, route, t[method] ?? (() => ({})));
        return async () => {
          let status: number;
          try {
            const res = await fetch(url, { method: route.httpMethod, body: b, headers: b ? { "content-type": "application/json" } : {}, signal: AbortSignal.timeout(CALL_MS) });
            status = res.status;
            await res.arrayBuffer();
          } catch (e) {
            status = -1;
            failures.push(`${route.httpMethod} ${url.slice(0, 200)}: no answer (${(e as Error).message})`);
          }
          counts[status] = (counts[status] ?? 0) + 1;
          if (status === 500) failures.push(`${route.httpMethod} ${url.slice(0, 200)}: 500 for ${String(b).slice(0, 200)}`);
        };
      }),
    );
    for (let i = 0; i < jobs.length; i += PARALLEL) await Promise.all(jobs.slice(i, i + PARALLEL).map((j) => j()));
    console.log(`rest fuzz (seed ${SEED}): ${jobs.length} requests over ${ROUTES.length} routes; answers by HTTP status ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(newInternalErrors()).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);

  test("afterwards REST publishes and pulls as usual", async () => {
    const post = (p: string, b: unknown) =>
      fetch(`http://${emu.endpoint}/v1/${p}`, { method: "POST", body: JSON.stringify(b), headers: { "content-type": "application/json" }, signal: AbortSignal.timeout(CALL_MS) }).then((res) => res.json());
    const [t] = await emu.client().createTopic(unique("after"));
    const [s] = await t.createSubscription(unique("after"));
    await post(`${t.name}:publish`, { messages: [{ data: Buffer.from("after").toString("base64") }] });
    const pulled = await post(`${s.name}:pull`, { maxMessages: 1, returnImmediately: true });
    expect(Buffer.from(pulled.receivedMessages[0].message.data, "base64").toString()).toBe("after");
  });

  test("over REST, an attribute named __proto__ round-trips and a label key __proto__ is refused naming it", async () => {
    const send = (method: string, p: string, text: string) =>
      fetch(`http://${emu.endpoint}/v1/${p}`, { method, body: text, headers: { "content-type": "application/json" }, signal: AbortSignal.timeout(CALL_MS) });
    const [t] = await emu.client().createTopic(unique("proto"));
    const [s] = await t.createSubscription(unique("proto"));
    expect((await send("POST", `${t.name}:publish`, '{"messages": [{"attributes": {"__proto__": "p"}}]}')).status).toBe(200);
    const pulled = await (await send("POST", `${s.name}:pull`, '{"maxMessages": 1, "returnImmediately": true}')).json();
    expect(Object.entries(pulled.receivedMessages[0].message.attributes)).toEqual([["__proto__", "p"]]);
    const refused = await send("PUT", `${t.name.replace(/[^/]+$/, unique("labels"))}`, '{"labels": {"__proto__": "x"}}');
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toContain('"__proto__"');
  });
});
