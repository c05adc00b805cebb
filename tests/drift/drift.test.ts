/**
 * The drift guard: fails, naming each line, when an official client knows a Pub/Sub message,
 * field, enum value, service or RPC that the vendored protos (protos/google/pubsub/v1) lack — the
 * npm package @google-cloud/pubsub's bundled protos and the Go module
 * cloud.google.com/go/pubsub/v2's compiled descriptors, at the versions clients.ts pins. Before a
 * release, against the newest published clients:
 *
 *   PUBSUB_DRIFT_CLIENTS=latest bun test tests/drift
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { goCopy, npmCopy } from "./clients.ts";
import { decodeSet, encodeSet, missingFrom, surfaceOfProtos, surfaceOfSet } from "./surface.ts";

const PROTOS = resolve(import.meta.dir, "../../protos");
const vendored = surfaceOfProtos(PROTOS, PROTOS);
const T = 360_000;

/** A failure message that names every missing line and where it came from. */
function report(source: string, missing: string[]): string {
  return missing.length ? `${source} knows ${missing.length} thing(s) the vendored protos lack (refresh protos/, see protos/README.md):\n  ${missing.join("\n  ")}` : "";
}

test("the vendored surface is read whole (the guard compares something)", () => {
  expect(vendored.has("rpc google.pubsub.v1.Publisher.Publish")).toBe(true);
  expect(vendored.has("field google.pubsub.v1.MessageTransform.compression = 7")).toBe(true);
  expect(vendored.has("enum value google.pubsub.v1.IngestionDataSourceSettings.AwsKinesis.State.CONFLICTING_REGION_CONSTRAINTS = 6")).toBe(true);
  expect(vendored.size).toBeGreaterThan(500);
});

test("every ingestion source's State has the Regional Access Boundary value", () => {
  const sources: [string, number][] = [["AwsKinesis", 6], ["CloudStorage", 8], ["AzureEventHubs", 8], ["AwsMsk", 6], ["ConfluentCloud", 7]];
  for (const [source, n] of sources) {
    expect(vendored.has(`enum value google.pubsub.v1.IngestionDataSourceSettings.${source}.State.CONFLICTING_REGION_CONSTRAINTS = ${n}`)).toBe(true);
  }
});

describe("the official clients know nothing the vendored protos lack", () => {
  test("npm @google-cloud/pubsub's bundled protos", () => {
    const [dir, version] = npmCopy();
    const client = surfaceOfProtos(dir, PROTOS);
    expect(client.has("rpc google.pubsub.v1.Subscriber.StreamingPull")).toBe(true);
    expect(report(`@google-cloud/pubsub@${version}`, missingFrom(vendored, client))).toBe("");
  }, T);

  test("Go cloud.google.com/go/pubsub/v2's file descriptors", () => {
    const [bytes, version] = goCopy();
    const client = surfaceOfSet(decodeSet(bytes));
    expect(client.has("rpc google.pubsub.v1.Subscriber.StreamingPull")).toBe(true);
    expect(report(`cloud.google.com/go/pubsub/v2@${version}`, missingFrom(vendored, client))).toBe("");
  }, T);
});

describe("the guard fails on a doctored descriptor, naming what was added", () => {
  test("a field, an enum value, a message and an RPC added to the Go descriptor set are each reported", () => {
    const [bytes] = goCopy();
    const set = decodeSet(bytes);
    const file = set.file.find((f: { name: string }) => f.name === "google/pubsub/v1/pubsub.proto");
    const topic = file.messageType.find((m: { name: string }) => m.name === "Topic");
    topic.field.push({ name: "doctored_field", number: 999, label: 1, type: 9, jsonName: "doctoredField" });
    file.enumType.push({ name: "DoctoredEnum", value: [{ name: "DOCTORED_UNSPECIFIED", number: 0 }] });
    const encoding = set.file.flatMap((f: { enumType?: { name: string }[] }) => f.enumType ?? []).find((e: { name: string }) => e.name === "Encoding");
    encoding.value.push({ name: "YAML", number: 3 });
    file.messageType.push({ name: "DoctoredMessage", field: [] });
    file.service.find((s: { name: string }) => s.name === "Publisher").method.push({ name: "DoctoredRpc", inputType: ".google.pubsub.v1.Topic", outputType: ".google.pubsub.v1.Topic" });
    // Through the wire form, as a real descriptor arrives.
    const missing = missingFrom(vendored, surfaceOfSet(decodeSet(encodeSet(set))));
    expect(missing).toEqual([
      "enum google.pubsub.v1.DoctoredEnum",
      "enum value google.pubsub.v1.DoctoredEnum.DOCTORED_UNSPECIFIED = 0",
      "enum value google.pubsub.v1.Encoding.YAML = 3",
      "field google.pubsub.v1.Topic.doctored_field = 999",
      "message google.pubsub.v1.DoctoredMessage",
      "rpc google.pubsub.v1.Publisher.DoctoredRpc",
    ]);
    expect(report("doctored", missing)).toContain("field google.pubsub.v1.Topic.doctored_field = 999");
  }, T);

  test("a field renumbered in the npm copy is reported (a name alone is not enough)", () => {
    const [dir] = npmCopy();
    const client = surfaceOfProtos(dir, PROTOS);
    const doctored = new Set([...client].map((l) => (l === "field google.pubsub.v1.Topic.kms_key_name = 5" ? "field google.pubsub.v1.Topic.kms_key_name = 55" : l)));
    expect(missingFrom(vendored, doctored)).toEqual(["field google.pubsub.v1.Topic.kms_key_name = 55"]);
  }, T);

  test("vendored protos without the 2026 additions fail the Go guard, naming each addition", () => {
    const before = new Set([...vendored].filter((l) => !/Compression|\.compression =|CONFLICTING_REGION_CONSTRAINTS|CompiledProtoSchema|compiled_proto_schema/.test(l)));
    const missing = missingFrom(before, surfaceOfSet(decodeSet(goCopy()[0])));
    expect(missing).toContain("field google.pubsub.v1.MessageTransform.compression = 7");
    expect(missing).toContain("message google.pubsub.v1.Compression");
    expect(missing).toContain("enum value google.pubsub.v1.IngestionDataSourceSettings.CloudStorage.State.CONFLICTING_REGION_CONSTRAINTS = 8");
    expect(missing).toContain("field google.pubsub.v1.Schema.compiled_proto_schema = 8");
  }, T);
});
