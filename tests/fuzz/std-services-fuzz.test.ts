/**
 * Seeded fuzzing of the standard services (health, reflection v1 and v1alpha): random bytes,
 * mutated requests and requests whose names are hostile strings. Every call answers within a
 * bound (a Watch of an unknown service may stay open), never INTERNAL or UNKNOWN, with a bounded
 * message; nothing reaches the INTERNAL mapper; and health still answers SERVING afterwards.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { join } from "node:path";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { rawChannel, type Method } from "../helpers/raw-bytes.ts";
import { HOSTILE_STRINGS, mutate, rng, type Rng, internalErrorsSinceStart, fuzzSeed, FUZZ_CASES, CALL_MS, STREAM_MS, PARALLEL_CALLS, MAX_DETAILS } from "./generators.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
const SEED = fuzzSeed(20261127);
const CASES = FUZZ_CASES;

const definition = protoLoader.loadSync(["grpc/health/v1/health.proto", "grpc/reflection/v1/reflection.proto", "grpc/reflection/v1alpha/reflection.proto"], {
  includeDirs: [join(import.meta.dir, "../../protos")],
  enums: String,
});
const METHODS: Method[] = Object.entries(definition)
  .filter(([, d]) => !("format" in d))
  .flatMap(([service, d]) =>
    Object.entries(d as Record<string, grpc.MethodDefinition<Obj, Obj>>).map(([name, m]) => ({
      service,
      name,
      path: m.path,
      streaming: m.requestStream || m.responseStream,
      encode: (req: Obj) => m.requestSerialize(req),
    })),
  );

function valid(r: Rng, m: Method): Obj {
  const s = r.pick(HOSTILE_STRINGS);
  if (m.name === "List") return {};
  if (m.name !== "ServerReflectionInfo") return { service: s };
  return r.pick([
    { fileByFilename: s },
    { fileContainingSymbol: s },
    { fileContainingExtension: { containingType: s, extensionNumber: r.int(2 ** 31) } },
    { allExtensionNumbersOfType: s },
    { listServices: s },
    { host: s },
  ]);
}

forEachGrpcServer((grpcServer) => {
  let emu: TestEmulator;
  const newInternalErrors = internalErrorsSinceStart();
  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer });
  });
  afterAll(() => emu.close());

  test(`the standard services answer random, mutated and hostile requests, never INTERNAL or UNKNOWN (seed ${SEED})`, async () => {
    expect(METHODS.map((m) => m.path).sort()).toEqual([
      "/grpc.health.v1.Health/Check",
      "/grpc.health.v1.Health/List",
      "/grpc.health.v1.Health/Watch",
      "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    ]);
    const r = rng(SEED);
    const ch = rawChannel(emu.endpoint);
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    const jobs: (() => Promise<void>)[] = [];
    for (const m of METHODS) {
      for (let i = 0; i < CASES; i++) {
        const kind = i % 3;
        const bodies = kind === 0 ? [r.bytes(r.int(256))] : kind === 1 ? [mutate(r, m.encode(valid(r, m)))] : [m.encode(valid(r, m)), m.encode(valid(r, m))];
        jobs.push(async () => {
          const o = m.streaming ? await ch.stream(m, bodies, STREAM_MS) : await ch.send(m, bodies[0]!, CALL_MS);
          counts[o.code] = (counts[o.code] ?? 0) + 1;
          const encoded = Buffer.byteLength(encodeURI(o.details.toWellFormed()));
          if (o.code === -1 || o.code === grpc.status.INTERNAL || o.code === grpc.status.UNKNOWN || encoded > MAX_DETAILS) {
            failures.push(`${m.path} #${i}: code ${o.code} ${o.details.slice(0, 200)} (body ${bodies[0]!.toString("base64").slice(0, 120)})`);
          }
        });
      }
    }
    for (let i = 0; i < jobs.length; i += PARALLEL_CALLS) await Promise.all(jobs.slice(i, i + PARALLEL_CALLS).map((j) => j()));
    ch.close();
    console.log(`std services fuzz (seed ${SEED}): ${jobs.length} calls; outcomes by status code ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(newInternalErrors()).toBe(0);
  }, 120_000);

  test("afterwards health still answers SERVING", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const Health = (grpc.loadPackageDefinition(definition) as any).grpc.health.v1.Health;
    const client = new Health(emu.endpoint, grpc.credentials.createInsecure());
    const res = await new Promise<Obj>((resolve, reject) =>
      client.Check({ service: "" }, { deadline: Date.now() + 10_000 }, (e: Error | null, v: Obj) => (e ? reject(e) : resolve(v))),
    );
    expect(res.status).toBe("SERVING");
    client.close();
  });
});
