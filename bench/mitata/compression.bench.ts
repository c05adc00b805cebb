/**
 * The Compression transform (core/stages/compression.ts over transforms/zlib-codec.ts): Broker.publish
 * of 100 × 1 KiB JSON-like messages to a plain topic, a ZLIB COMPRESS topic and a DECOMPRESS
 * topic (the same messages compressed beforehand), and the codec calls alone beside a 1 KiB copy.
 * The transform's cost per message is (transform topic − plain topic) / 100. Each sample gets a
 * fresh broker (fresh()), built untimed.
 *
 *   bun bench/mitata/compression.bench.ts
 */
import { bench, do_not_optimize, group, summary } from "mitata";
import { deflateSync, inflateSync } from "node:zlib";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { MessageInput } from "../../src/core/message.ts";
import type { TopicResource } from "../../src/core/resources.ts";
import { nodeCompression } from "../../src/transforms/compression-codec.ts";
import { TOPIC, assert, fresh, main, prng, subName } from "./fixtures.ts";

const N = 100;

/** 1 KiB of JSON-like text (what is worth compressing), different per message. */
function jsonish(i: number): Buffer {
  const rnd = prng(i + 1);
  let s = "";
  while (s.length < 1024) s += `{"id":${(rnd() * 1e6) | 0},"kind":"order","region":"europe-west${(rnd() * 9) | 0}","qty":${(rnd() * 100) | 0}},`;
  return Buffer.from(s.slice(0, 1024));
}

const plainBatch: MessageInput[] = Array.from({ length: N }, (_, i) => ({ data: jsonish(i) }));
const packedBatch: MessageInput[] = plainBatch.map((m) => ({ data: deflateSync(m.data!) }));
const one = jsonish(0);
const onePacked = packedBatch[0].data!;
const ratio = packedBatch.reduce((a, m) => a + m.data!.length, 0) / (N * 1024);

function brokerWith(mode: "" | "COMPRESS" | "DECOMPRESS"): Broker {
  const broker = new Broker({ clock: new ManualClock(), compression: nodeCompression });
  const messageTransforms = mode ? [{ compression: { compressionAlgorithm: "ZLIB", compressionMode: mode } }] : undefined;
  broker.topics.create({ name: TOPIC, labels: {}, messageTransforms } as TopicResource);
  broker.subscriptions.create({ name: subName(0), topic: TOPIC } as Parameters<Broker["subscriptions"]["create"]>[0]);
  return broker;
}

{
  const b = brokerWith("DECOMPRESS");
  b.topics.publish(TOPIC, packedBatch);
  const [d] = (await b.subscriptions.pull(subName(0), 1, true).result) as { message: { data: Uint8Array } }[];
  assert(Buffer.from(d.message.data).equals(one), "a DECOMPRESS topic stores the original data");
  assert(inflateSync(nodeCompression.compress("ZLIB", one)).equals(one), "COMPRESS output is ZLIB");
  console.log(`compressed size: ${(ratio * 100).toFixed(0)} % of the original`);
}

group(`Broker.publish(${N} × 1 KiB) to one subscription`, () => {
  summary(() => {
    bench("plain topic", fresh(() => brokerWith(""), (b: Broker) => b.topics.publish(TOPIC, plainBatch))).baseline();
    bench("ZLIB COMPRESS topic", fresh(() => brokerWith("COMPRESS"), (b: Broker) => b.topics.publish(TOPIC, plainBatch)));
    bench("ZLIB DECOMPRESS topic (publisher sends ZLIB)", fresh(() => brokerWith("DECOMPRESS"), (b: Broker) => b.topics.publish(TOPIC, packedBatch)));
  });
});

group("one 1 KiB message", () => {
  bench("copy (Uint8Array.slice)", () => do_not_optimize(one.slice()));
  bench("ZLIB compress", () => do_not_optimize(nodeCompression.compress("ZLIB", one)));
  bench("ZLIB decompress (bounded to 10 MB)", () => do_not_optimize(nodeCompression.decompress("ZLIB", onePacked, 10_000_000)));
  bench("Bun.deflateSync (raw DEFLATE, for comparison)", () => do_not_optimize(Bun.deflateSync(new Uint8Array(one))));
});

if (import.meta.main) await main();
