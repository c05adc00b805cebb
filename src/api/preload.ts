/**
 * What the emulator's first start, first connection and first call load and run once per process
 * (the default gRPC server and its front, which start() imports when chosen; HPACK's tables; the
 * descriptor codec's tables of the usual first calls) is done when the test API is imported
 * instead. The server defers it to keep an idle binary small; a test process wants its first call
 * after start() fast, and pays for it while its files load.
 */
import { descriptorCodec } from "../grpc/methods.ts";
import "../grpc/h2/server.ts";
import { huffmanTree } from "../grpc/h2/hpack-reader.ts";
import { staticTable } from "../grpc/h2/hpack-table.ts";
import "../server/raw-front.ts";

huffmanTree();
staticTable();
// The Topic and Subscription codecs (CreateTopic and CreateSubscription, the usual first calls) built and run once.
for (const [service, method, name] of [["Publisher", "CreateTopic", "projects/p/topics/t"], ["Subscriber", "CreateSubscription", "projects/p/subscriptions/s"]] as const) {
  const codec = descriptorCodec(service, method);
  codec.requestDeserialize(codec.responseSerialize({ name, labels: { a: "b" } }));
}
