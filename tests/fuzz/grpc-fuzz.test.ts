/**
 * Seeded fuzzing of every RPC: random bytes, truncated and mutated protobuf, and valid requests
 * with hostile values (prototype keys, huge strings, control characters, invalid UTF-8, deep
 * masks). Every call must answer within a bound, never INTERNAL or UNKNOWN, with a bounded
 * message; no error may reach the INTERNAL mapper; and a normal client is served afterwards.
 * FUZZ_SEED and FUZZ_CASES (per RPC) change the run; a failure prints its seed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import { startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { methods, rawChannel, withBytes, type Method } from "../helpers/raw-bytes.ts";
import type { CallStatus } from "../helpers/raw-grpc.ts";
import { BAD_UTF8, BAD_UTF8_MARKER, markOneString, mutate, poison, rng, templates, type Rng, internalErrorsSinceStart, fuzzSeed, FUZZ_CASES, CALL_MS, STREAM_MS, PARALLEL_CALLS, MAX_DETAILS } from "./generators.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";
import { topicAndSub } from "../helpers/client-suite.ts";
import { collectTexts } from "../helpers/receive.ts";

const SEED = fuzzSeed(20261122);
const CASES = FUZZ_CASES;

forEachGrpcServer((grpcServer) => {
  /** Other test files in this process may have counted theirs: only this file's count matters. */
  const newInternalErrors = internalErrorsSinceStart();

  let emu: TestEmulator;
  let topic: string;
  let sub: string;
  const project = `projects/fuzz-${process.pid}`;

  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer, pullWaitMs: 50 });
    const ch = rawChannel(emu.endpoint);
    topic = `${project}/topics/${unique("fuzz")}`;
    sub = `${project}/subscriptions/${unique("fuzz")}`;
    const create = methods().find((m) => m.name === "CreateTopic")!;
    const createSub = methods().find((m) => m.name === "CreateSubscription")!;
    expect((await ch.send(create, create.encode({ name: topic }))).code).toBe(0);
    expect((await ch.send(createSub, createSub.encode({ name: sub, topic }))).code).toBe(0);
    ch.close();
  });
  afterAll(() => emu.close());

  type Kind = "random" | "mutated" | "hostile" | "invalid-utf8";
  const KINDS: Kind[] = ["random", "mutated", "hostile", "invalid-utf8"];

  function body(r: Rng, m: Method, kind: Kind, template: () => Record<string, unknown>): Buffer {
    if (kind === "random") return r.bytes(r.int(256));
    if (kind === "mutated") return mutate(r, m.encode(template()));
    if (kind === "invalid-utf8") {
      const req = template();
      if (!markOneString(r, req)) return r.bytes(r.int(256));
      return withBytes(m.encode(req), BAD_UTF8_MARKER, BAD_UTF8);
    }
    // A poisoned value of the wrong type does not encode; try again, then send it garbled.
    for (let attempt = 0; attempt < 8; attempt++) {
      const req = template();
      poison(r, req);
      try {
        return m.encode(req);
      } catch {
        continue;
      }
    }
    return mutate(r, m.encode(template()));
  }

  test(`every RPC answers random, mutated and hostile requests within ${CALL_MS} ms, never INTERNAL or UNKNOWN (seed ${SEED})`, async () => {
    const r = rng(SEED);
    let n = 0;
    const t = templates(topic, sub, () => `fz-${++n}`);
    const ch = rawChannel(emu.endpoint);
    const counts: Record<string, number> = {};
    const failures: string[] = [];
    const jobs: (() => Promise<void>)[] = [];
    for (const m of methods()) {
      const template = t[m.name] ?? (() => ({}));
      for (let i = 0; i < CASES; i++) {
        const kind = KINDS[i % KINDS.length];
        const b = body(r, m, kind, template);
        jobs.push(async () => {
          // A stream gets a valid first request half the time, so later requests reach the session.
          const o: CallStatus = m.streaming
            ? await ch.stream(m, i % 2 ? [m.encode(template()), b] : [b], STREAM_MS)
            : await ch.send(m, b, CALL_MS);
          counts[`${o.code}`] = (counts[`${o.code}`] ?? 0) + 1;
          const encoded = Buffer.byteLength(encodeURI(o.details.toWellFormed()));
          if (o.code === -1 || o.code === grpc.status.INTERNAL || o.code === grpc.status.UNKNOWN || encoded > MAX_DETAILS) {
            failures.push(`${m.name} ${kind} #${i}: code ${o.code} ${o.details.slice(0, 200)} (body ${b.toString("base64").slice(0, 200)})`);
          }
        });
      }
    }
    for (let i = 0; i < jobs.length; i += PARALLEL_CALLS) await Promise.all(jobs.slice(i, i + PARALLEL_CALLS).map((j) => j()));
    ch.close();
    console.log(`grpc fuzz (seed ${SEED}): ${jobs.length} calls over ${methods().length} RPCs; outcomes by status code ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(newInternalErrors()).toBe(0);
  }, 120_000);

  test("afterwards an official client is served as usual", async () => {
    const { topic, sub } = await topicAndSub(emu.client());
    const got = collectTexts(sub);
    await topic.publishMessage({ data: Buffer.from("after the fuzz") });
    await waitFor(() => got.length === 1, 10_000, "a delivery after the fuzz");
    expect(got).toEqual(["after the fuzz"]);
    await sub.close();
  });
});
