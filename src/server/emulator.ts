/** Starts and stops one emulator: broker + RPC table served over gRPC and REST (and admin HTTP) on one port. Used by main.ts and the tests. */
import { Broker } from "../core/broker.ts";
import type { HeldStore } from "../core/store/held-memory.ts";
import { DEFAULTS, inferenceRoute, type Config } from "../runtime/config.ts";
import { Counters } from "../admin/counters.ts";
import { FaultRegistry } from "../rpc/middleware/faults.ts";
import { MessageHistory } from "../admin/history.ts";
import type { GrpcTransport } from "../grpc/transport.ts";
import type { RawServer } from "../grpc/h2/server.ts";
import { AnswerGate } from "../grpc/call/answer-gate.ts";
import { MAX_MESSAGE } from "../grpc/methods.ts";
import { HealthState } from "../grpc/std/health-state.ts";
import type { RpcTable } from "../rpc/table.ts";
import { createRpcTable } from "../rpc/table.ts";
import { httpSurfaces, lazyPush } from "./lazy-surfaces.ts";
import { BigQueryKind } from "../sinks/bigquery/kind.ts";
import { BigtableKind } from "../sinks/bigtable/kind.ts";
import { SwitchableClock } from "../runtime/switchable-clock.ts";
import { realClock } from "../runtime/real-clock.ts";
import { MemoryBudget } from "../core/memory-budget.ts";
import type { DiskFaultProbe } from "../admin/metrics.ts";
import type { OperatorDeps } from "../admin/operator.ts";
import { capRefusal, collectGarbage, defaultMaxMemory, processRss, rlimitGauges } from "../runtime/memory-limit.ts";
import { log } from "../runtime/log.ts";
import { CloudStorageKind } from "../sinks/storage/kind.ts";
import { storageTarget } from "../sinks/storage/targets.ts";
import { ImportLedger } from "../ingest/ledger.ts";
import { StorageImports } from "../ingest/storage-imports.ts";
import { nodeCompression } from "../transforms/compression-codec.ts";
import { HttpInferenceCaller } from "../transforms/ai-inference.ts";
import { StreamImports, type StreamSettings } from "../ingest/stream-imports.ts";

/** How long stop() lets calls in flight finish before closing every connection. */
const SHUTDOWN_GRACE_MS = 5000;

export interface Emulator {
  readonly port: number;
  readonly host: string;
  readonly broker: Broker;
  readonly clock: SwitchableClock;
  /** Cloud Storage import topics. */
  readonly imports: StorageImports;
  /** What the operator API reads and changes (reset, clock, inspection), for in-process callers. */
  readonly operator: OperatorDeps;
  /** Kafka (Confluent Cloud, MSK) and Kinesis import topics. */
  readonly streams: StreamImports;
  stop(): Promise<void>;
}

/** The in-memory store, or the data dir's (read whole before the broker is built from it). */
async function openStore(dataDir: string): Promise<{ store?: HeldStore; close(): void; diskFault?: DiskFaultProbe }> {
  if (!dataDir) return { close() {} };
  const { SqliteStore } = await import("../persistence/sqlite-store.ts");
  const t0 = performance.now();
  const store = SqliteStore.open(dataDir);
  const o = store.opened;
  const ms = (performance.now() - t0).toFixed(0);
  log.info(`data dir ${store.file}: ${o.topics} topics, ${o.subscriptions} subscriptions, ${o.snapshots} snapshots, ${o.schemas} schemas, ${o.policies} IAM policies, ${o.messages} messages (read in ${ms} ms)`);
  if (o.dangling) log.warn(`data dir ${store.file}: ${o.dangling} rows pointed at nothing and were left out`);
  return { store, close: () => store.close(), diskFault: () => store.diskFault };
}

/** Reading a large data dir leaves its row arrays behind: collect them before serving (≈ 1/3 of RSS at 1M messages). */
function collectAfterRestore(broker: Broker): void {
  if (broker.held.heldMessages > 100_000) Bun.gc(true);
}

/** Causal delivery's deferral: a later macrotask (setImmediate) or a timer; none when turned off. */
function causalDefer(ms: number): ((fn: () => void) => void) | undefined {
  if (ms < 0) return undefined;
  if (ms === 0) return (fn) => setImmediate(fn);
  return (fn) => setTimeout(fn, ms);
}

/** On the raw server the deferral waits for the publishers' PING ACKs, the timer only for answers it did not send. */
function causalGate(c: Config): AnswerGate | undefined {
  const timer = causalDefer(c.causalDelayMs);
  return timer && c.grpcServer === "raw" ? new AnswerGate(timer) : undefined;
}

/** The chosen gRPC server; only its modules are loaded (node:http2 and grpc-js cost RSS a server without them never needs). */
async function grpcTransport(c: Config, table: RpcTable, memory: MemoryBudget, health: HealthState, answers: AnswerGate | undefined): Promise<GrpcTransport | RawServer> {
  // Partly received messages: a quarter of the memory budget, and always room for one of the largest.
  const partialBytes = Math.max(MAX_MESSAGE + 5, memory.maxBytes / 4);
  if (c.grpcServer === "lean") return (await import("../grpc/lean/server.ts")).leanTransport(table, { partialBytes, health });
  if (c.grpcServer === "raw") {
    const { rawServer } = await import("../grpc/h2/server.ts");
    return rawServer(table, { partialBytes, health, answers });
  }
  const { grpcJsTransport } = await import("../grpc/grpc-js/server.ts");
  return grpcJsTransport(table, health);
}

/** Where Kafka and Kinesis import topics find their sources. */
function streamSettings(c: Config): StreamSettings {
  const mskBootstrap = new Map<string, string>();
  for (const entry of c.mskBootstrap) {
    const eq = entry.lastIndexOf("=");
    mskBootstrap.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return { mskBootstrap, kafkaSasl: c.kafkaSasl, kinesisEndpoint: c.kinesisEndpoint || c.awsEndpointUrl };
}

/**
 * Most time a Publish's answer waits for its subscriptions' transforms (a UDF at its 100 ms limit
 * on each of 1,000 messages would otherwise hold it 100 s, past a client's deadline into a retry);
 * a message whose transform is still running then waits at its first delivery instead.
 */
const ANSWER_WAIT_MS = 1000;

function boundedWait(p: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise((done) => (timer = setTimeout(done, ms)))]).finally(() => clearTimeout(timer));
}

/** `prepare` runs on the new broker before the port opens (provisioning); if it throws, nothing listens. */
export async function startEmulator(config: Partial<Config> = {}, prepare?: (broker: Broker) => void): Promise<Emulator> {
  const c = { ...DEFAULTS, ...config };
  const refusal = capRefusal();
  if (refusal) throw Object.assign(new Error(`cannot start: ${refusal}.`), { name: "MemoryCapError" });
  const { store, close, diskFault } = await openStore(c.dataDir);
  const clock = new SwitchableClock(c.clock);
  const push = lazyPush(() => clock.now());
  const memory = new MemoryBudget({ maxBytes: c.maxMemory || defaultMaxMemory(), now: () => performance.now(), rss: processRss, reclaim: collectGarbage, gauges: rlimitGauges() });
  const bigtable = new BigtableKind(c.bigtableEmulatorHost);
  let stopTransforms = () => {};
  const storage = storageTarget(c.storageDir, c.storageEmulatorHost);
  const answers = causalGate(c);
  const broker = new Broker({
    clock,
    store,
    maxMessagesPerResponse: c.maxMessagesPerResponse,
    fillWaitMs: c.fillWaitMs,
    deferDelivery: answers?.defer ?? causalDefer(c.causalDelayMs),
    pullWaitMs: c.pullWaitMs,
    push: { sender: push.sender, options: { timeoutCapMs: c.pushTimeoutMs } },
    exports: (b) => [new BigQueryKind(c.bigqueryDir || undefined, () => b.schemas), bigtable, new CloudStorageKind(storage, b.clock, () => b.schemas)],
    memory,
    // QuickJS and its wasm load with the first resource that has transforms; the worker pool's
    // threads start with the first messages.
    transforms: () =>
      import("../transforms/pooled-engine.ts").then(async (m) => {
        const engine = await m.loadPooledEngine(c.transformWorkers);
        stopTransforms = engine.close;
        return engine;
      }),
    compression: nodeCompression,
    // Without --ai-inference-endpoint, ai_inference transforms pass messages through.
    inference: c.aiInferenceEndpoints.length ? new HttpInferenceCaller(c.aiInferenceEndpoints.map(inferenceRoute), c.aiInferenceTimeoutMs) : undefined,
    quotas: c.projectQuotas,
    answerWait: (prepared) => boundedWait(prepared, ANSWER_WAIT_MS),
  });
  collectAfterRestore(broker);
  // Publish data stay views into their requests while held briefly (most are acked within ms);
  // the requests copied out after a burst are collected at once (at most every 10 s), since
  // nothing else allocating would set a collection off: ≈ 360 B of RSS per held 1 KiB message.
  broker.held.keepViews(realClock, collectGarbage);
  try {
    prepare?.(broker);
  } catch (e) {
    close();
    throw e;
  }
  // Restored or provisioned resources with transforms: their engine is loaded before the port opens.
  if (broker.needsTransformEngine()) await broker.ensureTransformEngine();
  // Metrics count from the start, so /metrics counters cover every message.
  const counters = new Counters();
  broker.observe(counters);
  const imports = new StorageImports(broker, storage, clock, new ImportLedger(c.dataDir || null));
  imports.start();
  const streams = new StreamImports(broker, clock, streamSettings(c), new ImportLedger<string>(c.dataDir || null, "stream-imports.json"));
  streams.start();
  const importStatus = { status: (topic: string) => imports.status(topic) ?? streams.status(topic) };
  // Wrapped once, so every transport registered over the table meets the injected faults.
  const faults = new FaultRegistry();
  const table = createRpcTable(broker, { faults });
  const history = new MessageHistory(broker);
  history.configure(c.messageHistory);
  const http = httpSurfaces(table, { broker, clock, counters, faults, history, host: c.host, jwks: () => push.signer().then((s) => s.jwks()), memoryBudget: () => memory.probe(), imports: importStatus, diskFault });
  // grpc.health.v1.Health's answer on every gRPC server: NOT_SERVING from the moment stop() begins.
  const health = new HealthState();
  const grpc = await grpcTransport(c, table, memory, health, answers);
  const onClosing = () => {
    health.drain();
    broker.shutdown();
  };
  const listenOptions = { handshakeTimeoutMs: c.handshakeTimeoutMs, shutdownGraceMs: SHUTDOWN_GRACE_MS, onClosing };
  // The raw server has a front of its own on Bun sockets (server/raw-front.ts).
  const opened = "connection" in grpc ? import("./raw-front.ts").then((m) => m.listenRaw(c.host, c.port, grpc, http, listenOptions)) : import("./listener.ts").then((m) => m.listen(c.host, c.port, grpc, http, listenOptions));
  const listener = await opened.catch((e) => {
    imports.stop();
    streams.stop();
    stopTransforms();
    close();
    throw e;
  });
  const stop = async () => {
    imports.stop();
    streams.stop();
    broker.stopDeliveries();
    bigtable.close();
    await listener.close();
    stopTransforms();
    broker.held.keepViews(null);
    close();
  };
  return { port: listener.port, host: c.host, broker, clock, imports, streams, operator: { broker, clock, counters, faults, history, imports: importStatus }, stop };
}
