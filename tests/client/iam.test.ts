/**
 * IAM through the official Node client's `iam` helpers (topic.iam, subscription.iam) and the
 * generated clients' IAM methods. Mirrors nodejs-pubsub system-test "IAM" and python-pubsub
 * tests/system.py test_managing_{topic,subscription}_iam_policy.
 */
import { describe, expect, test } from "bun:test";
import { clientSuite } from "../helpers/client-suite.ts";
import { PROJECT, unique } from "../helpers/emulator.ts";
import { grpcCode } from "../helpers/raw-clients.ts";

const T = 15_000;
const NOT_FOUND = 5;
const ABORTED = 10;
const INVALID_ARGUMENT = 3;
const s = clientSuite();

describe("IAM through the official client", () => {
  test("a new topic's policy has no bindings and version 0", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const [policy] = await topic.iam.getPolicy();
    expect(policy.bindings).toEqual([]);
    expect(policy.version).toBe(0);
    expect(Buffer.from(policy.etag as Uint8Array).toString("base64")).toBe("ACAB");
  }, T);

  test("setPolicy stores the bindings and getPolicy returns them", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const bindings = [{ role: "roles/pubsub.publisher", members: ["serviceAccount:gmail-api-push@system.gserviceaccount.com"] }];
    const [set] = await topic.iam.setPolicy({ bindings });
    expect(set.bindings).toEqual(bindings.map((b) => ({ condition: null, ...b })));
    const [got] = await topic.iam.getPolicy();
    expect(got.bindings).toEqual(set.bindings);
    expect(Buffer.from(got.etag as Uint8Array).equals(Buffer.from(set.etag as Uint8Array))).toBe(true);
  }, T);

  test("testPermissions grants every permission asked", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const [perms] = await topic.iam.testPermissions(["pubsub.topics.get", "pubsub.topics.update"]);
    expect(perms).toEqual({ "pubsub.topics.get": true, "pubsub.topics.update": true });
  }, T);

  test("subscriptions: read-modify-write with the etag; a stale etag is ABORTED", async () => {
    const [topic] = await s.ps.createTopic(unique("t"));
    const [sub] = await topic.createSubscription(unique("s"));
    const [read] = await sub.iam.getPolicy();
    const bindings = [
      { role: "roles/pubsub.editor", members: ["domain:google.com"] },
      { role: "roles/pubsub.viewer", members: ["group:cloud-logs@google.com"] },
    ];
    const [written] = await sub.iam.setPolicy({ bindings, etag: read.etag });
    const [again] = await sub.iam.getPolicy();
    expect(again.bindings?.map((b) => [b.role, b.members])).toEqual(bindings.map((b) => [b.role, b.members]));
    expect(await grpcCode(sub.iam.setPolicy({ bindings: [], etag: read.etag }))).toBe(ABORTED);
    await sub.iam.setPolicy({ bindings: [], etag: written.etag });
    expect((await sub.iam.getPolicy())[0].bindings).toEqual([]);
  }, T);

  test("schemas have policies too; missing resources and snapshots are NOT_FOUND; bad bindings INVALID_ARGUMENT", async () => {
    const schemaId = unique("sch");
    await s.ps.createSchema(schemaId, "AVRO", '"string"');
    const schemas = await s.ps.getSchemaClient();
    const resource = `projects/${PROJECT}/schemas/${schemaId}`;
    // The generated IAM mixin's request types are protobufjs classes; plain objects are what it sends.
    const [p] = await schemas.setIamPolicy({ resource, policy: { bindings: [{ role: "roles/pubsub.viewer", members: ["allUsers"] }] } } as never);
    expect(p.bindings?.[0].members).toEqual(["allUsers"]);
    expect((await schemas.getIamPolicy({ resource } as never))[0].bindings?.length).toBe(1);
    expect(await grpcCode(s.ps.topic(unique("missing")).iam.getPolicy())).toBe(NOT_FOUND);
    expect(await grpcCode(s.ps.subscription(unique("missing")).iam.testPermissions(["pubsub.subscriptions.consume"]))).toBe(NOT_FOUND);
    expect(await grpcCode(s.raw.publisher.getIamPolicy({ resource: `projects/${PROJECT}/snapshots/${unique("snap")}` } as never))).toBe(NOT_FOUND);
    const [topic] = await s.ps.createTopic(unique("t"));
    expect(await grpcCode(topic.iam.setPolicy({ bindings: [{ role: "owner", members: ["user:a@b.c"] }] }))).toBe(INVALID_ARGUMENT);
  }, T);
});
