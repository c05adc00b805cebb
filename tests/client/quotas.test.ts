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

    /** `create` is refused RESOURCE_EXHAUSTED naming the resource (`kind/id` in the project) and `quota`. */
    async function overQuota(create: Promise<unknown>, resource: string, quota: string): Promise<Refusal> {
      const err = await refused(create);
      expect(err.code).toBe(RESOURCE_EXHAUSTED);
      expect(err.message).toContain(`projects/${project}/${resource}`);
      expect(err.message).toContain(quota);
      return err;
    }

    test("topics: the one past the limit is refused; a delete frees a slot", async () => {
      const topics = [];
      for (let i = 0; i < QUOTAS.topics; i++) topics.push((await ps.createTopic(`topic-${i}`))[0]);
      const err = await overQuota(ps.createTopic("topic-extra"), "topics/topic-extra", `type="topics-per-project", current=3, maximum=3`);
      // gax's REST transport read it from an HTTP 429; gRPC has no HTTP status.
      expect(err.httpStatusCode).toBe(mode.name === "REST" ? 429 : undefined);
      // Another project is not affected.
      await mode.client(`${project}-b`).createTopic("topic-extra");
      await topics[0].delete();
      await ps.createTopic("topic-extra");
    });

    test("subscriptions and snapshots: refused past the limit, freed by a delete", async () => {
      const topic = ps.topic("topic-1");
      const [s1] = await topic.createSubscription("sub-1");
      await topic.createSubscription("sub-2");
      await overQuota(topic.createSubscription("sub-3"), "subscriptions/sub-3", "subscriptions-per-project");

      const [snap] = await s1.createSnapshot("snap-1");
      await s1.createSnapshot("snap-2");
      await overQuota(s1.createSnapshot("snap-3"), "snapshots/snap-3", "snapshots-per-project");

      await snap.delete();
      await s1.createSnapshot("snap-3");
      await s1.delete();
      await topic.createSubscription("sub-3");
    });

    test("schemas: refused past the limit, freed by a delete", async () => {
      const [first] = [await ps.createSchema("schema-1", SchemaTypes.Avro, AVRO)];
      await ps.createSchema("schema-2", SchemaTypes.Avro, AVRO);
      await overQuota(ps.createSchema("schema-3", SchemaTypes.Avro, AVRO), "schemas/schema-3", "schemas-per-project");
      await first.delete();
      await ps.createSchema("schema-3", SchemaTypes.Avro, AVRO);
    });
  });
}
