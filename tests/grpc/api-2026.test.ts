/**
 * The 2026 additions over gRPC, with raw grpc-js clients built from the vendored descriptor (the
 * official Node client's bundled protos do not carry them yet): compression transforms,
 * compiled_proto_schema bytes and Bigtable's column_family_mapping delimiter bytes round-trip
 * (stored as JSON, encoded back as bytes); a PubsubClientTelemetry header is accepted.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { CALL_TIMEOUT_MS, grpcClients, type GrpcClients } from "../helpers/raw-grpc.ts";
import { protoc, SHOP_FILES } from "../helpers/protoc.ts";
import { topicPath } from "../helpers/project.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

forEachGrpcServer((grpcServer) => {
  let emu: TestEmulator;
  let c: GrpcClients;
  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer });
    c = grpcClients(emu.endpoint);
  });
  afterAll(async () => {
    c?.close();
    await emu?.close();
  });


  test("a topic's compression transforms over gRPC come back as created (enum names)", async () => {
    const name = topicPath();
    const messageTransforms = [
      { compression: { compressionAlgorithm: "ZSTD", compressionMode: "COMPRESS" } },
      { compression: { compressionAlgorithm: "ZLIB", compressionMode: "DECOMPRESS" }, disabled: true },
    ];
    await c.call(c.publisher, "createTopic", { name, messageTransforms });
    const got = await c.call(c.publisher, "getTopic", { topic: name });
    expect(got.messageTransforms.map((t: { compression: unknown; disabled?: boolean }) => [t.compression, !!t.disabled])).toEqual([
      [{ compressionAlgorithm: "ZSTD", compressionMode: "COMPRESS" }, false],
      [{ compressionAlgorithm: "ZLIB", compressionMode: "DECOMPRESS" }, true],
    ]);
    const err = await c.call(c.publisher, "createTopic", { name: topicPath(), messageTransforms: [{ compression: { compressionMode: "COMPRESS" } }] }).catch((e) => e);
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toContain("message_transforms[0].compression.compression_algorithm is required");
  });

  test("compiled_proto_schema bytes over gRPC: created, read back byte for byte", async () => {
    const set = protoc(SHOP_FILES, "shop/order.proto");
    const schemaId = unique("sch");
    await c.call(c.schemaService, "createSchema", {
      parent: `projects/${PROJECT}`,
      schemaId,
      schema: { type: "PROTOCOL_BUFFER", compiledProtoSchema: { rootMessage: "shop.Order", compiledBytes: set } },
    });
    const got = await c.call(c.schemaService, "getSchema", { name: `projects/${PROJECT}/schemas/${schemaId}`, view: "FULL" });
    expect(got.compiledProtoSchema.rootMessage).toBe("shop.Order");
    expect(Buffer.from(got.compiledProtoSchema.compiledBytes).equals(set)).toBe(true);
  });

  test("a Bigtable column_family_mapping's delimiter bytes over gRPC come back as bytes", async () => {
    const topic = topicPath();
    await c.call(c.publisher, "createTopic", { name: topic });
    const name = `projects/${PROJECT}/subscriptions/${unique("s")}`;
    const delimiter = Buffer.from([0x00, 0x7c]);
    await c.call(c.subscriber, "createSubscription", {
      name,
      topic,
      bigtableConfig: { table: "projects/bt/instances/inst-1/tables/t1", columnFamilyMapping: { delimitedKey: { keyFields: ["a", "b"], delimiter } } },
    });
    const got = await c.call(c.subscriber, "getSubscription", { subscription: name });
    expect(got.bigtableConfig.columnFamilyMapping.delimitedKey.keyFields).toEqual(["a", "b"]);
    expect(Buffer.from(got.bigtableConfig.columnFamilyMapping.delimitedKey.delimiter).equals(delimiter)).toBe(true);
  });

  test("a PubsubClientTelemetry header (gRPC metadata, REST header) is accepted and the publish goes through", async () => {
    const topic = topicPath();
    await c.call(c.publisher, "createTopic", { name: topic });
    // PubsubClientTelemetry{ publish_operation { hedged_attempt_count: 1 } }, serialized, base64.
    const telemetry = Buffer.from([0x0a, 0x02, 0x08, 0x01]).toString("base64");
    const md = new grpc.Metadata();
    md.set("x-goog-pubsub-client-telemetry", telemetry);
    const res = await new Promise<{ messageIds: string[] }>((resolve, reject) =>
      c.publisher.publish({ topic, messages: [{ data: Buffer.from("t") }] }, md, { deadline: Date.now() + CALL_TIMEOUT_MS }, (e: Error | null, r: { messageIds: string[] }) => (e ? reject(e) : resolve(r))),
    );
    expect(res.messageIds.length).toBe(1);
    const rest = await fetch(`http://${emu.endpoint}/v1/${topic}:publish`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-goog-pubsub-client-telemetry": telemetry },
      body: JSON.stringify({ messages: [{ data: "dA==" }] }),
    });
    expect(rest.status).toBe(200);
    expect((await rest.json()).messageIds.length).toBe(1);
  });
});
