/**
 * Hand-written protobuf codecs (src/grpc/codec) against the protobufjs path that proto-loader
 * gives grpc-js (services.*.requestDeserialize / responseSerialize from src/grpc/proto.ts).
 *
 *   bun bench/mitata/codec.bench.ts
 */
import { bench, do_not_optimize, group, summary } from "mitata";
import type { Delivery } from "../../src/core/message.ts";
import {
  decodeAcknowledgeRequest,
  decodePublishRequest,
  encodeDeliveryResponse,
  encodePublishResponse,
} from "../../src/grpc/codec/messages.ts";
import { services } from "../../src/grpc/proto.ts";
import { TOPIC, assert, attributeBatch, dataBatch, deliveries, subName, main } from "./fixtures.ts";

const Publish = services.Publisher.Publish;
const Pull = services.Subscriber.Pull;
const Acknowledge = services.Subscriber.Acknowledge;

// ---- inputs, serialized once by protobufjs (what a client would send) ----
const publish1k = Publish.requestSerialize({ topic: TOPIC, messages: dataBatch(1000, 1024) });
const publishAttrs = Publish.requestSerialize({ topic: TOPIC, messages: attributeBatch(100, 10) });
const ackIds = Array.from({ length: 1000 }, (_, i) => (1_000_000 + i).toString(36));
const ackReq = Acknowledge.requestSerialize({ subscription: subName(0), ackIds });
const ds = deliveries(1000, 1024);
const messageIds = Array.from({ length: 1000 }, (_, i) => String(10_000_000 + i));

/** The PullResponse object protobufjs wants, built from core deliveries (what a non-hand-written adapter would do). */
const toProto = (d: readonly Delivery[]) => ({
  receivedMessages: d.map((x) => ({
    ackId: x.ackId,
    message: {
      data: x.message.data,
      attributes: x.message.attributes,
      messageId: x.message.id,
      // Zero/empty fields unset, as the hand-written encoder leaves them, so both write the same bytes.
      publishTime: { seconds: Math.floor(x.message.publishTime / 1000), nanos: (x.message.publishTime % 1000) * 1e6 || undefined },
      orderingKey: x.message.orderingKey || undefined,
    },
  })),
});
const shaped = toProto(ds);

// ---- sanity: both sides decode/encode the same thing ----
{
  const ours = decodePublishRequest(publish1k);
  const theirs = Publish.requestDeserialize(publish1k);
  assert(ours.messages.length === 1000 && theirs.messages.length === 1000, "1000 messages decoded");
  assert(Buffer.compare(ours.messages[999].data as Buffer, theirs.messages[999].data) === 0, "same data");
  const a = decodePublishRequest(publishAttrs).messages[42].attributes!;
  assert(JSON.stringify(a) === JSON.stringify(Publish.requestDeserialize(publishAttrs).messages[42].attributes), "same attributes");
  const back = Pull.responseDeserialize(encodeDeliveryResponse({ deliveries: ds, withAttempt: false }));
  assert(back.receivedMessages.length === 1000 && back.receivedMessages[7].ackId === ds[7].ackId, "our PullResponse decodes");
  assert(back.receivedMessages[7].message.publishTime.nanos === shaped.receivedMessages[7].message.publishTime.nanos, "same timestamp");
  const ourBytes = encodeDeliveryResponse({ deliveries: ds, withAttempt: false });
  assert(Buffer.compare(ourBytes, Pull.responseSerialize(shaped)) === 0, "byte-identical PullResponse");
  assert(decodeAcknowledgeRequest(ackReq).ackIds?.[999] === ackIds[999], "ack ids decode");
}

group("decode PublishRequest 1000 × 1 KiB", () => {
  summary(() => {
    bench("ours decodePublishRequest", () => do_not_optimize(decodePublishRequest(publish1k))).baseline();
    bench("protobufjs requestDeserialize", () => do_not_optimize(Publish.requestDeserialize(publish1k)));
  });
});

group("decode PublishRequest 100 × 10 attributes", () => {
  summary(() => {
    bench("ours decodePublishRequest", () => do_not_optimize(decodePublishRequest(publishAttrs))).baseline();
    bench("protobufjs requestDeserialize", () => do_not_optimize(Publish.requestDeserialize(publishAttrs)));
  });
});

group("encode PullResponse 1000 deliveries × 1 KiB + 2 attributes", () => {
  summary(() => {
    bench("ours encodeDeliveryResponse", () =>
      do_not_optimize(encodeDeliveryResponse({ deliveries: ds, withAttempt: false })),
    ).baseline();
    bench("protobufjs responseSerialize (pre-shaped)", () => do_not_optimize(Pull.responseSerialize(shaped)));
    bench("protobufjs responseSerialize (+ shaping)", () => do_not_optimize(Pull.responseSerialize(toProto(ds))));
  });
});

group("small codecs, 1000 ids", () => {
  summary(() => {
    bench("ours decodeAcknowledgeRequest", () => do_not_optimize(decodeAcknowledgeRequest(ackReq))).baseline();
    bench("protobufjs Acknowledge requestDeserialize", () => do_not_optimize(Acknowledge.requestDeserialize(ackReq)));
  });
  summary(() => {
    bench("ours encodePublishResponse", () => do_not_optimize(encodePublishResponse({ messageIds }))).baseline();
    bench("protobufjs Publish responseSerialize", () => do_not_optimize(Publish.responseSerialize({ messageIds })));
  });
});

if (import.meta.main) await main();
