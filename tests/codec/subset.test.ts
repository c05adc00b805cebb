/** A method's codec built from the part of the descriptor it reaches encodes as the whole descriptor's does. */
import { expect, test } from "bun:test";
import type protobuf from "protobufjs";
import descriptor from "../../protos/descriptor.json" with { type: "json" };
import { methodType, subsetFor } from "../../src/proto/subset.ts";
import { SERVICES, serviceMethods, type ServiceName } from "../../src/rpc/services.ts";

const pb = require("protobufjs") as typeof protobuf;
const full = pb.Root.fromJSON(descriptor).resolveAll();

/** What decides a type's wire form, for it and every type it reaches. */
function shape(t: protobuf.Type | protobuf.Enum, seen = new Set<string>()): unknown {
  if (seen.has(t.fullName)) return t.fullName;
  seen.add(t.fullName);
  if (t instanceof pb.Enum) return { enum: t.fullName, values: t.values };
  return {
    type: t.fullName,
    oneofs: Object.keys(t.oneofs ?? {}),
    fields: t.fieldsArray.map((f) => ({
      name: f.name, id: f.id, type: f.type, rule: f.repeated, packed: f.packed, map: f.map, key: (f as unknown as protobuf.MapField).keyType,
      of: f.resolvedType ? shape(f.resolvedType, seen) : null,
    })),
  };
}

test("every method's request and response type: the same fields, ids, types and packing as in the whole descriptor", () => {
  let checked = 0;
  for (const [service, fullName] of Object.entries(SERVICES)) {
    for (const method of Object.keys(serviceMethods(service as ServiceName))) {
      for (const side of ["request", "response"] as const) {
        const name = methodType(descriptor as never, fullName, method, side);
        const sub = pb.Root.fromJSON(subsetFor(descriptor as never, name) as protobuf.INamespace).resolveAll();
        expect(shape(sub.lookupType(name))).toEqual(shape(full.lookupType(name)));
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(60);
});

test("a Topic encodes to the same bytes from the part as from the whole", () => {
  const name = methodType(descriptor as never, "google.pubsub.v1.Publisher", "CreateTopic", "request");
  const part = pb.Root.fromJSON(subsetFor(descriptor as never, name) as protobuf.INamespace).lookupType(name);
  const whole = full.lookupType(name);
  const topic = { name: "projects/p/topics/t", labels: { a: "b" }, messageRetentionDuration: { seconds: 600 }, schemaSettings: { schema: "s", encoding: "JSON" }, state: "ACTIVE", messageTransforms: [{ javascriptUdf: { functionName: "f", code: "function f(m){return m}" } }] };
  expect(Buffer.from(part.encode(part.fromObject(topic)).finish())).toEqual(Buffer.from(whole.encode(whole.fromObject(topic)).finish()));
});

test("an unknown method or type is an error naming it", () => {
  expect(() => methodType(descriptor as never, "google.pubsub.v1.Publisher", "Nope", "request")).toThrow(/Publisher.Nope/);
  expect(() => subsetFor(descriptor as never, "google.pubsub.v1.Nope")).toThrow(/google.pubsub.v1.Nope/);
});
