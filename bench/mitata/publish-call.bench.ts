/**
 * One Publish as the official Node client sends it with default batching (100 × 1 KiB, the bench
 * flows' attributes: r the same for all, s a sequence, t a time): decode, the RPC table's
 * Publisher.Publish, encode — everything of a Publish in process but the transport. On a topic
 * without subscriptions and on one with a subscription (whose backlog is dropped between samples).
 *
 *   bun bench/mitata/publish-call.bench.ts
 */
import { bench, do_not_optimize, group, summary } from "mitata";
import { decodePublishRequest, encodePublishResponse } from "../../src/grpc/codec/messages.ts";
import { services } from "../../src/grpc/proto.ts";
import { NO_CONTEXT, createRpcTable } from "../../src/rpc/table.ts";
import { TOPIC, brokerWith, main, payload, subName } from "./fixtures.ts";

function request(n: number): Buffer {
  const data = payload(1024);
  const t0 = 1_795_779_610_756.123;
  const messages = Array.from({ length: n }, (_, i) => ({ data, attributes: { r: "k3x9q2", s: String(100_000 + i), t: String(t0 + i * 0.37) } }));
  return services.Publisher.Publish.requestSerialize({ topic: TOPIC, messages });
}

for (const subs of [0, 1]) {
  const broker = brokerWith(subs);
  const publish = createRpcTable(broker).unary.get("Publisher.Publish")!;
  let calls = 0;
  const call = (req: Buffer) => {
    // A subscription's backlog would grow without bound: start it again now and then.
    if (subs && ++calls % 200 === 0) {
      broker.subscriptions.delete(subName(0));
      broker.subscriptions.create({ name: subName(0), topic: TOPIC, filter: "" } as Parameters<typeof broker.subscriptions.create>[0]);
    }
    return encodePublishResponse(publish(decodePublishRequest(req), NO_CONTEXT) as never);
  };
  const r100 = request(100);
  const r1000 = request(1000);
  group(`Publish through the table, ${subs} subscription${subs === 1 ? "" : "s"}`, () => {
    summary(() => {
      bench("100 × 1 KiB, 3 attributes", () => do_not_optimize(call(r100)));
      bench("1000 × 1 KiB, 3 attributes", () => do_not_optimize(call(r1000)));
    });
  });
}

if (import.meta.main) await main();
