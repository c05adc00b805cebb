// Thundering herd — connection storm. 1,000 publisher clients, each with its own
// connection (grpc-js local subchannel pool), start at the same instant: connect, publish
// one message, close. One subscription receives them. Errors are counted by status code;
// every acknowledged message must arrive exactly once. For a local server the open file
// descriptors are compared before and after, to see that the connections were released.
import type { PubSub } from "@google-cloud/pubsub";
import { Flow, client, measured, uniqueName, withTimeout } from "../lib/flow.ts";
import { bytes } from "../lib/payload.ts";
import { row, type Ctx, type Row } from "../lib/report.ts";
import { Latencies, sleep } from "../lib/stats.ts";

export const about = "1,000 publisher clients connect at once, publish 1 message each, close";

const CLIENTS = 1000;

export async function run(ctx: Ctx): Promise<Row[]> {
  const n = CLIENTS;
  const flow = await Flow.create({ target: ctx.target, name: uniqueName("herd"), subs: 1,
    subscriber: { flowControl: { maxMessages: 10_000 } } });
  const data = bytes(1024);
  try {
    await sleep(500); // let the subscriber's streams open
    Bun.gc(true);
    const fdsBefore = (await ctx.server.sample()).fds;
    const clients: PubSub[] = [];
    for (let i = 0; i < n; i++) clients.push(client(ctx.target));
    const lat = new Latencies();
    const closeErrors: string[] = [];
    const [stormS, res] = await measured(ctx, async () => {
      const t0 = performance.now();
      await Promise.all(clients.map(async (ps, i) => {
        const seq = flow.claimSeq();
        const s = performance.now();
        try {
          const topic = ps.topic(flow.topic.name, { batching: { maxMessages: 1 } });
          await withTimeout(topic.publishMessage({ data, attributes: flow.attributes(seq) }), 30000, "publish");
          lat.add(performance.now() - s);
          flow.externalAcked(seq, data.length);
        } catch (e: any) {
          flow.externalFailed(String(e?.code ?? e?.message ?? e).slice(0, 80));
        }
        try { await withTimeout(ps.close(), 10000, "close"); } catch (e: any) { closeErrors.push(String(e?.message ?? e)); }
      }));
      const stormS = (performance.now() - t0) / 1000;
      await flow.drain(5000, 30000);
      return stormS;
    }, 100);
    await sleep(2000); // let the server notice the closed connections
    const fdsAfter = (await ctx.server.sample()).fds;
    const { lost, dup } = flow.losses();
    const { samples: _s, ...resources } = res;
    const errors = flow.pubErrors + flow.subErrors + closeErrors.length;
    const r = row({
      scenario: "thundering-herd", variant: `${n} clients`, config: { clients: n, payload: "1KB", connectionPerClient: true },
      messages: flow.ackedCount, seconds: stormS, msgsPerSec: flow.ackedCount / stormS, mbPerSec: flow.txBytes / 1e6 / stormS,
      latencyKind: "connect+publish", latency: lat.summary(), lost, duplicates: dup, errors,
      errorKinds: { ...flow.errors, ...(closeErrors.length ? { [`close: ${closeErrors[0]}`]: closeErrors.length } : {}) },
      resources,
      pass: errors === 0 && lost === 0 && dup === 0 && flow.ackedCount === n,
      criterion: "0 errors, every message delivered once",
      extra: { received: flow.uniqueTotal, fdsBefore, fdsPeak: res.server.fdsPeak, fdsAfter, fdsLeaked: fdsBefore != null && fdsAfter != null ? fdsAfter - fdsBefore : null },
    });
    ctx.log(`herd: ${flow.ackedCount}/${n} published in ${stormS.toFixed(2)} s, errors ${errors}, received ${flow.uniqueTotal}, fds ${fdsBefore} -> ${fdsAfter}`);
    return [r];
  } finally { await flow.close(); }
}

if (import.meta.main) await (await import("../lib/runner.ts")).main(["thundering-herd", ...process.argv.slice(2)]);
