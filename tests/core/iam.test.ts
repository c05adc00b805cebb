/** IAM policies in the core: etags, merging, NOT_FOUND, permissions granted, policies dropped with their resource. */
import { describe, expect, test } from "bun:test";
import { PROJECT, caught, setup, subName, expectRefused, setupWithSub } from "../helpers/core.ts";

const editor = { role: "roles/pubsub.editor", members: ["domain:google.com"] };
const viewer = { role: "roles/pubsub.viewer", members: ["group:cloud-logs@google.com"] };

describe("IAM policies", () => {
  test("a resource without a policy has version 0, no bindings and the empty etag", () => {
    const { broker, topic } = setupWithSub();
    const p = broker.iam.get(topic);
    expect(p.version).toBe(0);
    expect(p.bindings).toEqual([]);
    expect(Buffer.from(p.etag).toString("base64")).toBe("ACAB");
  });

  test("set stores bindings with a new etag; a set with the read etag succeeds, a stale one is ABORTED", () => {
    const { broker, topic } = setupWithSub();
    const read = broker.iam.get(topic);
    const first = broker.iam.set(topic, { bindings: [editor], etag: read.etag });
    expect(first.version).toBe(1);
    expect(first.etag.length).toBe(8);
    expect(broker.iam.get(topic).bindings).toEqual([editor]);
    const second = broker.iam.set(topic, { bindings: [editor, viewer], etag: first.etag });
    expect(Buffer.from(second.etag).equals(Buffer.from(first.etag))).toBe(false);
    const e = caught(() => broker.iam.set(topic, { bindings: [], etag: first.etag }));
    expect(e.code).toBe("ABORTED");
    expect(broker.iam.get(topic).bindings.length).toBe(2);
    broker.iam.set(topic, { bindings: [] }); // no etag: unconditional
    expect(broker.iam.get(topic).bindings).toEqual([]);
  });

  test("bindings of one role merge, duplicate members collapse, empty bindings go", () => {
    const { broker, sub } = setupWithSub();
    const p = broker.iam.set(sub, {
      bindings: [editor, { role: "roles/pubsub.editor", members: ["domain:google.com", "user:a@b.c"] }, { role: "roles/pubsub.viewer", members: [] }],
    });
    expect(p.bindings).toEqual([{ role: "roles/pubsub.editor", members: ["domain:google.com", "user:a@b.c"] }]);
  });

  test("bad roles, members, versions and mask paths are INVALID_ARGUMENT naming them", () => {
    const { broker, topic } = setupWithSub();
    const cases = [
      [{ bindings: [{ role: "editor", members: ["user:a@b.c"] }] }, [], "role"],
      [{ bindings: [{ role: "roles/x", members: ["nobody"] }] }, [], "member"],
      [{ bindings: [{ role: "roles/x", members: Array.from({ length: 1501 }, (_, i) => `user:u${i}@x.y`) }] }, [], "1500"],
      [{ version: 2, bindings: [] }, ["version"], "version"],
      [{ bindings: [] }, ["owner"], "update_mask"],
      [{ version: 1, bindings: [{ role: "roles/x", members: ["user:a@b.c"], condition: { expression: "true" } }] }, ["bindings", "version"], "version must be 3"],
    ] as const;
    for (const [input, mask, words] of cases) {
      expectRefused(() => broker.iam.set(topic, input as never, mask), "INVALID_ARGUMENT", words);
    }
    const conditional = broker.iam.set(topic, { bindings: [{ role: "roles/x", members: ["user:a@b.c"], condition: { expression: "true", title: "t" } }] });
    expect(conditional.version).toBe(3);
  });

  test("TestIamPermissions grants every permission asked; wildcards are INVALID_ARGUMENT", () => {
    const { broker, topic } = setupWithSub();
    expect(broker.iam.test(topic, ["pubsub.topics.get", "pubsub.topics.update"])).toEqual(["pubsub.topics.get", "pubsub.topics.update"]);
    expect(caught(() => broker.iam.test(topic, ["pubsub.*"])).code).toBe("INVALID_ARGUMENT");
  });

  test("topics, subscriptions and schemas are looked up; missing ones and snapshots are NOT_FOUND", () => {
    const { broker, topic, sub } = setupWithSub();
    const schema = broker.schemas.create(`projects/${PROJECT}`, "iam-schema", { type: "AVRO", definition: '"string"' }).name;
    for (const r of [topic, sub, schema]) broker.iam.set(r, { bindings: [editor] });
    for (const r of [`projects/${PROJECT}/topics/nope`, subName(), `projects/${PROJECT}/schemas/nope`, `projects/${PROJECT}/snapshots/snap`]) {
      expect(caught(() => broker.iam.get(r)).code).toBe("NOT_FOUND");
      expect(caught(() => broker.iam.test(r, ["x.y"])).code).toBe("NOT_FOUND");
    }
    for (const r of ["projects/p/buckets/b", "nonsense", ""]) expect(caught(() => broker.iam.get(r)).code).toBe("INVALID_ARGUMENT");
  });

  test("a deleted and re-created resource starts without a policy", () => {
    const { broker, topic, sub } = setupWithSub();
    broker.iam.set(topic, { bindings: [editor] });
    broker.iam.set(sub, { bindings: [editor] });
    broker.subscriptions.delete(sub);
    broker.topics.delete(topic);
    broker.topics.create({ name: topic, labels: {} });
    broker.subscriptions.create({ name: sub, topic } as never);
    expect(broker.iam.get(topic).bindings).toEqual([]);
    expect(broker.iam.get(sub).bindings).toEqual([]);
  });
});
