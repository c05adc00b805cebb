/**
 * The Compression message transform (googleapis 2026-08): created over REST (the Node client's
 * bundled protos do not carry MessageTransform.compression yet, so gRPC would drop it on the
 * client side), messages published and received with the official Node client. ZLIB at publish
 * and at delivery, in order with JavaScript UDFs; data that are not ZLIB fail like a failing UDF;
 * the result's size limits; :validateMessageTransform and :testMessageTransforms.
 */
import { describe, expect, test } from "bun:test";
import { deflateSync, inflateSync, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { clientSuite } from "../helpers/client-suite.ts";
import { PROJECT, startTestEmulator, unique } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";

const T = 20_000;
const s = clientSuite();

const COMPRESS = { compression: { compressionAlgorithm: "ZLIB", compressionMode: "COMPRESS" } };
const DECOMPRESS = { compression: { compressionAlgorithm: "ZLIB", compressionMode: "DECOMPRESS" } };
// ZSTD = 3: in the clients of 2026-11 (Go pubsub v2.9.0), not yet in googleapis' text.
const ZSTD = (compressionMode: string) => ({ compression: { compressionAlgorithm: "ZSTD", compressionMode } });
const udf = (functionName: string, body: string) => ({ javascriptUdf: { functionName, code: `function ${functionName}(message, metadata) { ${body} }` } });
const UPPER = udf("upper", "message.data = message.data.toUpperCase(); return message;");

const base = () => `http://${s.emu.endpoint}/v1/projects/${PROJECT}`;

async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(path.startsWith("http") ? path : base() + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, json: await res.json() };
}

async function topicWith(transforms: unknown[]) {
  const id = unique("t");
  const r = await rest("PUT", `/topics/${id}`, { messageTransforms: transforms });
  expect(r.status).toBe(200);
  return s.ps.topic(id);
}

async function subWith(topic: string, transforms: unknown[], extra: Record<string, unknown> = {}) {
  const id = unique("s");
  const r = await rest("PUT", `/subscriptions/${id}`, { topic: `projects/${PROJECT}/topics/${topic}`, messageTransforms: transforms, ...extra });
  expect(r.status).toBe(200);
  return s.ps.subscription(id);
}

describe("compress → decompress", () => {
  test("a topic that compresses stores ZLIB data; a subscription that decompresses delivers the original, a plain one the ZLIB bytes", async () => {
    const topic = await topicWith([COMPRESS]);
    const got = await rest("GET", `/topics/${topic.name.split("/").pop()}`);
    expect(got.json.messageTransforms).toEqual([COMPRESS]);
    const plain = await subWith(topic.name.split("/").pop()!, []);
    const unpacked = await subWith(topic.name.split("/").pop()!, [DECOMPRESS]);
    const text = "hello hello hello hello hello hello hello hello";
    await topic.publishMessage({ data: Buffer.from(text), attributes: { a: "1" } });
    const [raw] = await receive(plain, 1);
    expect(raw.data[0]).toBe(0x78); // a ZLIB stream's header
    expect(raw.data.length).toBeLessThan(text.length);
    expect(inflateSync(raw.data).toString()).toBe(text);
    expect(raw.attributes).toEqual({ a: "1" });
    const [back] = await receive(unpacked, 1);
    expect(back.data.toString()).toBe(text);
    expect(back.attributes).toEqual({ a: "1" });
    expect(back.id).toBe(raw.id);
  }, T);

  test("composed in order with JavaScript UDFs: UDF then COMPRESS at publish, DECOMPRESS then UDF at delivery", async () => {
    const topic = await topicWith([UPPER, COMPRESS]);
    const tid = topic.name.split("/").pop()!;
    const sub = await subWith(tid, [DECOMPRESS, udf("mark", "message.attributes.len = String(message.data.length); return message;")]);
    await topic.publishMessage({ data: Buffer.from("compose me") });
    const [m] = await receive(sub, 1);
    expect(m.data.toString()).toBe("COMPOSE ME");
    expect(m.attributes).toEqual({ len: "10" });
  }, T);

  test("a client that publishes ZLIB data gets it decompressed by the topic", async () => {
    const topic = await topicWith([DECOMPRESS]);
    const sub = await subWith(topic.name.split("/").pop()!, []);
    await topic.publishMessage({ data: deflateSync(Buffer.from("packed by the publisher")) });
    expect((await receive(sub, 1))[0].data.toString()).toBe("packed by the publisher");
  }, T);
});

describe("ZSTD", () => {
  test("a ZSTD topic stores Zstandard frames; a ZSTD DECOMPRESS subscription delivers the original; ZLIB data do not pass as ZSTD", async () => {
    const topic = await topicWith([ZSTD("COMPRESS")]);
    const tid = topic.name.split("/").pop()!;
    const plain = await subWith(tid, []);
    const unpacked = await subWith(tid, [ZSTD("DECOMPRESS")]);
    const text = "zstd zstd zstd zstd zstd zstd zstd zstd";
    await topic.publishMessage({ data: Buffer.from(text) });
    const [raw] = await receive(plain, 1);
    expect(raw.data.subarray(0, 4).toString("hex")).toBe("28b52ffd"); // the Zstandard frame magic
    expect(zstdDecompressSync(raw.data).toString()).toBe(text);
    expect((await receive(unpacked, 1))[0].data.toString()).toBe(text);
    const strict = await topicWith([ZSTD("DECOMPRESS")]);
    expect(await strict.publishMessage({ data: zstdCompressSync(Buffer.from("ok")) })).toMatch(/^\d+$/);
    const err = await strict.publishMessage({ data: deflateSync(Buffer.from("zlib, not zstd")) }).then(() => null, (e) => e as { message: string });
    expect(err?.message).toContain("ZSTD decompression failed");
  }, T);
});

describe("failures and limits", () => {
  test("DECOMPRESS of data that are not ZLIB fails the publish as a failing UDF does, naming the transform", async () => {
    const topic = await topicWith([DECOMPRESS]);
    const err = await topic.publishMessage({ data: Buffer.from("plain text") }).then(
      () => null,
      (e) => e as { code: number; message: string },
    );
    expect(err?.code).toBe(3);
    expect(err?.message).toContain('Message transform "compression[0]" failed on messages[0]: ZLIB decompression failed');
  }, T);

  test("at delivery, data that are not ZLIB are a failed attempt as a UDF failure is: held back, never delivered, counted", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const tid = topic.name.split("/").pop()!;
    const sub = await subWith(tid, [DECOMPRESS]);
    await topic.publishMessage({ data: Buffer.from("not zlib") });
    await topic.publishMessage({ data: deflateSync(Buffer.from("zlib")) });
    expect((await receive(sub, 1, { ms: 1500 })).map((m) => m.data.toString())).toEqual(["zlib"]);
    const info = await (await fetch(`http://${s.emu.endpoint}/emulator/v1/${sub.name}`)).json();
    expect(info.messageTransforms.failed).toBeGreaterThanOrEqual(1);
    expect(info.messageTransforms.steps[0]).toMatchObject({ functionName: "compression[0]", kind: "compression" });
    expect(info.backlog).toBe(1);
  }, T);

  test("size limits apply to the result: data that inflate past 10 MB fail (inflating stops there), 9 MB pass", async () => {
    const bomb = deflateSync(Buffer.alloc(11_000_000)); // ≈ 11 KB on the wire
    expect(bomb.length).toBeLessThan(20_000);
    const topic = await topicWith([DECOMPRESS]);
    const err = await topic.publishMessage({ data: bomb }).then(
      () => null,
      (e) => e as { code: number; message: string },
    );
    expect(err?.code).toBe(3);
    expect(err?.message).toContain("exceed 10000000 bytes");
    const fits = await topic.publishMessage({ data: deflateSync(Buffer.alloc(9_000_000)) });
    expect(fits).toMatch(/^\d+$/);
  }, T);

  test("validation names the field: algorithm and mode required, one kind per transform", async () => {
    const cases: [unknown, string][] = [
      [{ compression: { compressionMode: "COMPRESS" } }, "message_transforms[0].compression.compression_algorithm is required"],
      [{ compression: { compressionAlgorithm: "ZLIB" } }, "message_transforms[0].compression.compression_mode is required"],
      [{ compression: { compressionAlgorithm: "COMPRESSION_ALGORITHM_UNSPECIFIED", compressionMode: "COMPRESS" } }, "compression_algorithm is required"],
      // MessageTransform's `transform` oneof: REST's JSON reader refuses the second member.
      [{ ...UPPER, ...COMPRESS }, "Oneof field 'transform' is already set. Cannot set 'compression'"],
    ];
    for (const [t, words] of cases) {
      const r = await rest("PUT", `/topics/${unique("t")}`, { messageTransforms: [t] });
      expect(r.status).toBe(400);
      expect(r.json.error.message).toContain(words);
    }
    const bad = await rest("PUT", `/topics/${unique("t")}`, { messageTransforms: [{ compression: { compressionAlgorithm: "GZIP", compressionMode: "COMPRESS" } }] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("compression_algorithm");
    // An enum number proto3 lets through the JSON reader (2 is no algorithm) reaches our check.
    const two = await rest("PUT", `/topics/${unique("t")}`, { messageTransforms: [{ compression: { compressionAlgorithm: 2, compressionMode: "COMPRESS" } }] });
    expect(two.status).toBe(400);
    expect(two.json.error.message).toContain("message_transforms[0].compression.compression_algorithm");
    expect(two.json.error.message).toContain("ZLIB and ZSTD");
  }, T);
});

describe("the REST-only transform methods", () => {
  const project = () => `http://${s.emu.endpoint}/v1/projects/${PROJECT}`;

  test(":validateMessageTransform takes a compression transform and refuses a bad one naming its field", async () => {
    expect((await rest("POST", `${project()}:validateMessageTransform`, { messageTransform: COMPRESS })).status).toBe(200);
    const r = await rest("POST", `${project()}:validateMessageTransform`, { messageTransform: { compression: { compressionAlgorithm: "ZLIB" } } });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain("message_transform.compression.compression_mode is required");
  }, T);

  test(":testMessageTransforms traces COMPRESS then DECOMPRESS, and reports data that are not ZLIB as a failed message", async () => {
    const data = Buffer.from("trace me, trace me, trace me").toString("base64");
    const r = await rest("POST", `${project()}:testMessageTransforms`, {
      message: { data },
      messageTransforms: { messageTransforms: [COMPRESS, DECOMPRESS] },
    });
    expect(r.status).toBe(200);
    const [packed, unpacked] = r.json.transformedMessages;
    expect(inflateSync(Buffer.from(packed.transformedMessage.data, "base64")).toString()).toBe("trace me, trace me, trace me");
    expect(unpacked.transformedMessage.data).toBe(data);
    const failed = await rest("POST", `${project()}:testMessageTransforms`, { message: { data }, messageTransforms: { messageTransforms: [DECOMPRESS] } });
    expect(failed.json.transformedMessages[0].failedMessage.error.message).toContain("ZLIB decompression failed");
  }, T);
});

test("compression alone does not load the JavaScript engine (QuickJS stays out of a server that runs no UDF)", async () => {
  const emu = await startTestEmulator();
  try {
    const id = unique("t");
    const put = await fetch(`http://${emu.endpoint}/v1/projects/${PROJECT}/topics/${id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messageTransforms: [COMPRESS] }),
    });
    expect(put.status).toBe(200);
    const sub = await fetch(`http://${emu.endpoint}/v1/projects/${PROJECT}/subscriptions/${unique("s")}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ topic: `projects/${PROJECT}/topics/${id}`, messageTransforms: [DECOMPRESS] }),
    });
    expect(sub.status).toBe(200);
    const subName = (await sub.json()).name as string;
    await emu.client().topic(id).publishMessage({ data: Buffer.from("no engine needed") });
    const [m] = await receive(emu.client().subscription(subName.split("/").pop()!), 1);
    expect(m.data.toString()).toBe("no engine needed");
    expect(emu.broker.transformEngine).toBeNull();
  } finally {
    await emu.close();
  }
}, T);
