/**
 * The test API's start-up: from calling start() to the first RPC answered, in a fresh process
 * each run (the emulator's modules load with the first start(), as in a test file).
 *
 *   bun bench/startup/start-api.ts           # 5 runs; prints the medians
 *   bun bench/startup/start-api.ts 11        # more runs
 *   bun bench/startup/start-api.ts --node    # also start() under Node (the Bun child process)
 *   bun bench/startup/start-api.ts --warm-client   # grpc-js's own first call made before the clock
 *
 * In process (Bun): start() → resolved, then the first CreateTopic two ways: raw @grpc/grpc-js
 * (the server's share) and the official client (what a test sees, its first-call set-up
 * included). Client modules are imported before the clock starts: a test file imports them anyway.
 * A second start() in the same process shows the warm cost. CPU time (…Cpu, the whole process:
 * client and server) is printed beside wall time: on a busy host it is the steadier figure.
 * Figures only; nothing is asserted.
 */
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const RUN_TIMEOUT_MS = 30_000;

const ms = (ns: number) => ns / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** One measured run, in this (fresh) process; prints one JSON line. */
async function once(): Promise<void> {
  const grpc = await import("@grpc/grpc-js");
  const { PubSub } = await import("@google-cloud/pubsub");
  // A test file imports the package at its top: that import is timed apart from start().
  const ti = Bun.nanoseconds();
  const { start } = await import("../../src/api/index.ts");
  const importMs = ms(Bun.nanoseconds() - ti);
  const rawCreate = (port: number, name: string) =>
    new Promise<void>((res, rej) => {
      const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
      const bytes = Buffer.from(name);
      client.makeUnaryRequest(
        "/google.pubsub.v1.Publisher/CreateTopic",
        (b: Buffer) => b,
        (b: Buffer) => b,
        Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]),
        (err) => (client.close(), err ? rej(err) : res()),
      );
    });

  if (process.argv.includes("--warm-client")) {
    // The client's own first call (channel set-up, first runs of grpc-js) against a stand-in
    // server, so what is timed below is the emulator's share.
    const { createServer } = await import("node:http2");
    const decoy = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/grpc", "grpc-status": "12" });
      res.end();
    });
    await new Promise<void>((r) => decoy.listen(0, "127.0.0.1", r));
    await rawCreate((decoy.address() as { port: number }).port, "projects/warm/topics/up").catch(() => {});
    decoy.close();
  }
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const c0 = cpu();
  const t0 = Bun.nanoseconds();
  const a = await start();
  const t1 = Bun.nanoseconds();
  const c1 = cpu();
  await rawCreate(a.port, "projects/bench/topics/raw");
  const t2 = Bun.nanoseconds();
  const c2 = cpu();
  const client = new PubSub({ projectId: "bench", apiEndpoint: a.host, emulatorMode: true });
  await client.createTopic("official");
  const t3 = Bun.nanoseconds();

  const t4 = Bun.nanoseconds();
  const b = await start();
  const t5 = Bun.nanoseconds();
  await rawCreate(b.port, "projects/bench/topics/raw");
  const t6 = Bun.nanoseconds();

  await client.close();
  await Promise.all([a.stop(), b.stop()]);
  console.log(JSON.stringify({ import: importMs, start: ms(t1 - t0), rawFirst: ms(t2 - t1), startToRaw: ms(t2 - t0), startCpu: c1 - c0, rawFirstCpu: c2 - c1, officialFirst: ms(t3 - t2), secondStart: ms(t5 - t4), secondStartToRaw: ms(t6 - t4) }));
}

/** start() under Node through lib/index.cjs: the Bun child's start and ready line. */
const NODE_ONCE = `const { start } = require(${JSON.stringify(resolve(ROOT, "lib/index.cjs"))});
const t0 = performance.now();
start().then(async (emu) => { const t1 = performance.now(); await emu.clock(); const t2 = performance.now();
  await emu.stop(); console.log(JSON.stringify({ nodeStart: t1 - t0, nodeFirstCall: t2 - t1 })); });`;

async function spawnRun(cmd: string[]): Promise<Record<string, number>> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "inherit", env: { ...process.env, METADATA_SERVER_DETECTION: "none" } });
  const timer = setTimeout(() => proc.kill("SIGKILL"), RUN_TIMEOUT_MS);
  const out = await new Response(proc.stdout).text();
  clearTimeout(timer);
  if ((await proc.exited) !== 0) throw new Error(`${cmd.join(" ")} failed: ${out}`);
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

if (process.argv.includes("--once")) {
  await once();
  process.exit(0);
}

const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 5);
const rows: Record<string, number>[] = [];
for (let i = 0; i < runs; i++) {
  const row = await spawnRun([process.execPath, import.meta.path, "--once", ...process.argv.filter((a) => a === "--warm-client")]);
  if (process.argv.includes("--node")) Object.assign(row, await spawnRun(["node", "-e", NODE_ONCE]));
  rows.push(row);
}
const keys = Object.keys(rows[0]);
console.log(`start() on this host (median of ${runs} fresh processes; ${new Date().toISOString()})`);
for (const k of keys) console.log(`  ${k.padEnd(18)} ${median(rows.map((r) => r[k])).toFixed(1)} ms   (${rows.map((r) => r[k].toFixed(1)).join(" ")})`);
