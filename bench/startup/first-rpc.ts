/**
 * Start-up to the first successful RPC: spawns `bun src/main.ts --host-port 127.0.0.1:0`, waits
 * for `Server started, listening on <port>`, makes one call and exits (killing the server).
 *
 *   bun bench/startup/first-rpc.ts            # one CreateTopic over raw @grpc/grpc-js
 *   bun bench/startup/first-rpc.ts --http     # one GET /health on the same port instead
 *   bun bench/startup/first-rpc.ts --rest     # one REST GET /v1/projects/p/topics (loads the REST surface)
 *   bun bench/startup/first-rpc.ts --verbose  # also print the split: listening / first RPC (ms)
 *   bun bench/startup/first-rpc.ts --binary dist/pubsub-emulator   # the compiled binary instead
 *   bun bench/startup/first-rpc.ts --warm     # grpc-js loaded before the spawn: the server's share alone
 *   bun bench/startup/first-rpc.ts --rss      # also print the server's RSS after the first answer (and 1 s later)
 *     and its on-CPU time (every thread) from spawn to the started line and to the first answer: steadier than
 *     wall time on a busy host
 *
 * The CreateTopic request is encoded by hand (field 1, name) and the reply is checked by its
 * first byte, so the client loads no protos; grpc-js is imported while the server starts.
 * Exit status 0 only when the RPC succeeded.
 */
import { resolve } from "node:path";
import { cpuMs, rssMb } from "./proc.ts";

const ROOT = resolve(import.meta.dir, "../..");
const rest = process.argv.includes("--rest");
const http = rest || process.argv.includes("--http");
const verbose = process.argv.includes("--verbose");
const rss = process.argv.includes("--rss");
const binaryAt = process.argv.indexOf("--binary");
const binary = binaryAt > 0 ? resolve(process.argv[binaryAt + 1] ?? "") : undefined;
const TIMEOUT_MS = 15_000;
// With --warm the client's own start is over before the clock starts.
const warm = process.argv.includes("--warm") ? await import("@grpc/grpc-js") : null;

const t0 = Bun.nanoseconds();
const entry = binary ? [binary] : [process.execPath, "src/main.ts"];
const server = Bun.spawn([...entry, "--host-port", "127.0.0.1:0", "--log-level", "warn"], {
  cwd: ROOT,
  stdout: "pipe",
  stderr: "inherit",
});
// Overlaps the client's own module loading with the server's start-up.
const grpcLoaded = http ? null : warm ? Promise.resolve(warm) : import("@grpc/grpc-js");

const fail = (why: string): never => {
  server.kill("SIGKILL");
  process.stderr.write(`first-rpc: ${why}\n`);
  process.exit(1);
};
const timer = setTimeout(() => fail(`no successful RPC within ${TIMEOUT_MS} ms`), TIMEOUT_MS);

async function waitForPort(): Promise<number> {
  const decoder = new TextDecoder();
  let seen = "";
  for await (const chunk of server.stdout) {
    seen += decoder.decode(chunk, { stream: true });
    const m = seen.match(/Server started, listening on (\d+)/);
    if (m) return Number(m[1]);
  }
  return fail(`server exited before listening (exit ${await server.exited}); output: ${JSON.stringify(seen)}`);
}

async function createTopic(port: number): Promise<void> {
  const grpc = await grpcLoaded!;
  const name = Buffer.from(`projects/startup/topics/t-${process.pid}`);
  const request = Buffer.concat([Buffer.from([0x0a, name.length]), name]);
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  try {
    const reply = await new Promise<Buffer>((res, rej) =>
      client.makeUnaryRequest(
        "/google.pubsub.v1.Publisher/CreateTopic",
        (b: Buffer) => b,
        (b: Buffer) => b,
        request,
        (err, value) => (err ? rej(err) : res(value!)),
      ),
    );
    // The reply is a Topic whose field 1 is the name we sent.
    if (reply[0] !== 0x0a || !reply.includes(name)) fail(`unexpected CreateTopic reply ${reply.toString("hex")}`);
  } finally {
    client.close();
  }
}

const httpPath = rest ? "/v1/projects/startup/topics" : "/health";

async function health(port: number): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}${httpPath}`);
  if (res.status !== 200) fail(`GET ${httpPath} answered ${res.status}`);
  await res.text();
}

try {
  const port = await waitForPort();
  const t1 = Bun.nanoseconds();
  const readyCpu = rss ? cpuMs(server.pid) : 0;
  await (http ? health(port) : createTopic(port));
  const t2 = Bun.nanoseconds();
  clearTimeout(timer);
  if (rss) {
    const cpu = cpuMs(server.pid);
    const now = rssMb(server.pid);
    await Bun.sleep(1000);
    console.log(`server CPU to started line ${readyCpu.toFixed(1)} ms, to first answer ${cpu.toFixed(1)} ms, rss after it ${now.toFixed(1)} MB, 1 s later ${rssMb(server.pid).toFixed(1)} MB`);
  }
  if (verbose) {
    console.log(
      `listening ${((t1 - t0) / 1e6).toFixed(1)} ms, first ${http ? `GET ${httpPath}` : "CreateTopic"} ${((t2 - t1) / 1e6).toFixed(1)} ms, total ${((t2 - t0) / 1e6).toFixed(1)} ms`,
    );
  }
} catch (e) {
  fail(String((e as Error)?.message ?? e));
}
server.kill("SIGKILL");
await server.exited;
process.exit(0);
