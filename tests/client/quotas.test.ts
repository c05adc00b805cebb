/**
 * Per-project resource limits through the official Node client, over gRPC and in its REST mode:
 * the create past a limit fails with RESOURCE_EXHAUSTED (HTTP 429) naming the resource and the
 * limit, and a delete frees the slot. The server runs with lowered limits (--project-quotas); the
 * real numbers are checked in tests/core/quotas.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PubSub, SchemaTypes } from "@google-cloud/pubsub";
import { PassThroughClient } from "google-auth-library";
import { startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";

const QUOTAS = { topics: 3, subscriptions: 2, snapshots: 2, schemas: 2 };
const AVRO = JSON.stringify({ type: "record", name: "R", fields: [{ name: "a", type: "string" }] });
const RESOURCE_EXHAUSTED = 8;

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ projectQuotas: QUOTAS });
});
afterAll(async () => {
  await emu?.close();
});

/** Each transport in a project of its own: the limits are per project. */
const MODES: { name: string; client: (project: string) => PubSub }[] = [
  { name: "gRPC", client: (projectId) => emu.client({ projectId }) },
  {
    name: "REST",
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    client: (projectId) => emu.client({ projectId, fallback: true, protocol: "http", authClient: new PassThroughClient() } as any),
  },
];

type Refusal = { code: number; message: string; httpStatusCode?: number };

async function refused(p: Promise<unknown>): Promise<Refusal> {
  const err = await p.then(
    () => null,
    (e: Refusal) => e,
  );
  if (!err) throw new Error("the create past the limit succeeded");
  return err;
}

for (const mode of MODES) {
  describe(`per-project limits over ${mode.name}`, () => {
    const project = unique("quota").toLowerCase().slice(0, 30);
    let ps: PubSub;
    beforeAll(() => {
      ps = mode.client(project);
    });

    test("topics: the one past the limit is refused; a delete frees a slot", async () => {
      const topics = [];
      for (let i = 0; i < QUOTAS.topics; i++) topics.push((await ps.createTopic(`topic-${i}`))[0]);
      const err = await refused(ps.createTopic("topic-extra"));
      expect(err.code).toBe(RESOURCE_EXHAUSTED);
      // gax's REST transport read it from an HTTP 429; gRPC has no HTTP status.
      expect(err.httpStatusCode).toBe(mode.name === "REST" ? 429 : undefined);
      expect(err.message).toContain(`projects/${project}/topics/topic-extra`);
      expect(err.message).toContain(`type="topics-per-project", current=3, maximum=3`);
      // Another project is not affected.
      await mode.client(`${project}-b`).createTopic("topic-extra");
      await topics[0].delete();
      await ps.createTopic("topic-extra");
    });

    test("subscriptions and snapshots: refused past the limit, freed by a delete", async () => {
      const topic = ps.topic("topic-1");
      const [s1] = await topic.createSubscription("sub-1");
      await topic.createSubscription("sub-2");
      const sub = await refused(topic.createSubscription("sub-3"));
      expect(sub.code).toBe(RESOURCE_EXHAUSTED);
      expect(sub.message).toContain(`projects/${project}/subscriptions/sub-3`);
      expect(sub.message).toContain("subscriptions-per-project");

      const [snap] = await s1.createSnapshot("snap-1");
      await s1.createSnapshot("snap-2");
      const snapErr = await refused(s1.createSnapshot("snap-3"));
      expect(snapErr.code).toBe(RESOURCE_EXHAUSTED);
      expect(snapErr.message).toContain(`projects/${project}/snapshots/snap-3`);
      expect(snapErr.message).toContain("snapshots-per-project");

      await snap.delete();
      await s1.createSnapshot("snap-3");
      await s1.delete();
      await topic.createSubscription("sub-3");
    });

    test("schemas: refused past the limit, freed by a delete", async () => {
      const [first] = [await ps.createSchema("schema-1", SchemaTypes.Avro, AVRO)];
      await ps.createSchema("schema-2", SchemaTypes.Avro, AVRO);
      const err = await refused(ps.createSchema("schema-3", SchemaTypes.Avro, AVRO));
      expect(err.code).toBe(RESOURCE_EXHAUSTED);
      expect(err.message).toContain(`projects/${project}/schemas/schema-3`);
      expect(err.message).toContain("schemas-per-project");
      await first.delete();
      await ps.createSchema("schema-3", SchemaTypes.Avro, AVRO);
    });
  });
}
