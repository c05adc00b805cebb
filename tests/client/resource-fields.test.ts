/**
 * The newer resource fields through the official Node client, over gRPC and in its REST mode:
 * message_storage_policy and kms_key_name are kept and updated through masks; tags are accepted
 * on create and never returned; analytics_hub_subscription_info sent by a client is ignored.
 * The refusals are status rows (tests/behaviour/rows/resource-fields.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { PubSub } from "@google-cloud/pubsub";
import { PassThroughClient } from "google-auth-library";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";

const KMS = `projects/${PROJECT}/locations/us-central1/keyRings/ring/cryptoKeys/key`;
const TAGS = { "123/environment": "production", "tagKeys/456": "tagValues/789" };

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
});

const MODES: { name: string; client: () => PubSub }[] = [
  { name: "gRPC", client: () => emu.client() },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  { name: "REST", client: () => emu.client({ fallback: true, protocol: "http", authClient: new PassThroughClient() } as any) },
];

/** No tags in a read: absent, or the empty map a proto decoder fills in. */
const noTags = (r: { tags?: Record<string, string> | null }) => expect(Object.keys(r.tags ?? {})).toEqual([]);

/** A raw call through the client's own GAPIC layer, for request fields its veneer does not pass. */
function raw<T>(ps: PubSub, client: string, method: string, reqOpts: object): Promise<T> {
  return new Promise((resolve, reject) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (ps as any).request({ client, method, reqOpts }, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))),
  );
}

for (const mode of MODES) {
  describe(`resource fields over ${mode.name}`, () => {
    let ps: PubSub;
    beforeAll(() => {
      ps = mode.client();
    });

    test("a topic keeps its storage policy and KMS key, updated through masks; its tags are never returned", async () => {
      const [topic, created] = await ps.createTopic({
        name: unique("fields"),
        messageStoragePolicy: { allowedPersistenceRegions: ["us-central1", "europe-west4"], enforceInTransit: true },
        kmsKeyName: KMS,
        tags: TAGS,
      });
      for (const t of [created, (await topic.getMetadata())[0]]) {
        expect(t.messageStoragePolicy).toMatchObject({ allowedPersistenceRegions: ["us-central1", "europe-west4"], enforceInTransit: true });
        expect(t.kmsKeyName).toBe(KMS);
        noTags(t);
      }

      const [updated] = await topic.setMetadata({ messageStoragePolicy: { allowedPersistenceRegions: ["asia-east1"] } });
      expect(updated.messageStoragePolicy?.allowedPersistenceRegions).toEqual(["asia-east1"]);
      expect(updated.messageStoragePolicy?.enforceInTransit ?? false).toBe(false);
      expect(updated.kmsKeyName).toBe(KMS);

      // In the mask but unset: the policy goes (the project's, none here, applies again).
      const [cleared] = await topic.setMetadata({ messageStoragePolicy: null, kmsKeyName: "" });
      expect(cleared.messageStoragePolicy ?? null).toBeNull();
      expect(cleared.kmsKeyName ?? "").toBe("");

      const [listed] = await ps.getTopics();
      noTags(listed.find((t) => t.name === topic.name)!.metadata!);
    });

    test("a subscription's tags and a client's analytics_hub_subscription_info are never returned", async () => {
      const [topic] = await ps.createTopic(unique("fields"));
      const [sub, created] = await topic.createSubscription(unique("fields"), {
        tags: TAGS,
        analyticsHubSubscriptionInfo: { listing: "projects/p/locations/us/dataExchanges/d/listings/l", subscription: "projects/p/locations/us/subscriptions/s" },
      });
      for (const s of [created, (await sub.getMetadata())[0]]) {
        noTags(s);
        expect(s.analyticsHubSubscriptionInfo ?? null).toBeNull();
      }
    });

    test("a subscription without push delivery reads back with an empty push_config from Create, Get and List", async () => {
      const [topic] = await ps.createTopic(unique("fields"));
      const [sub, created] = await topic.createSubscription(unique("fields"));
      const [listed] = await ps.getSubscriptions();
      const reads = [created, (await sub.getMetadata())[0], listed.find((s) => s.name === sub.name)!.metadata!];
      for (const s of reads) {
        // What the official samples read without a check ("get subscription metadata").
        expect(s.pushConfig).toBeTruthy();
        expect(s.pushConfig!.pushEndpoint ?? "").toBe("");
        expect(s.pushConfig!.oidcToken ?? null).toBeNull();
      }
    });

    test("a snapshot's tags are accepted and never returned", async () => {
      const [topic] = await ps.createTopic(unique("fields"));
      const [sub] = await topic.createSubscription(unique("fields"));
      const name = `projects/${PROJECT}/snapshots/${unique("snap")}`;
      const snap = await raw<{ name: string; labels?: object }>(ps, "SubscriberClient", "createSnapshot", { name, subscription: sub.name, tags: TAGS, labels: { a: "b" } });
      expect(snap.name).toBe(name);
      expect(snap.labels).toEqual({ a: "b" });
      expect(Object.keys(snap)).not.toContain("tags");
    });
  });
}

test("CreateSubscription without a name gets a generated one in the topic's project (gRPC)", async () => {
  const ps = emu.client();
  const [topic] = await ps.createTopic(unique("named"));
  const topicId = topic.name.split("/").pop()!;
  const sub = await raw<{ name: string; topic: string }>(ps, "SubscriberClient", "createSubscription", { name: "", topic: topic.name });
  expect(sub.name).toMatch(new RegExp(`^projects/${PROJECT}/subscriptions/${topicId}-[0-9a-f]{16}$`));
  expect(sub.topic).toBe(topic.name);
  const [exists] = await ps.subscription(sub.name).exists();
  expect(exists).toBe(true);
  const again = await raw<{ name: string }>(ps, "SubscriberClient", "createSubscription", { topic: topic.name });
  expect(again.name).not.toBe(sub.name);
  // Without a topic there is nothing to name it after: the topic is what is missing.
  await expect(raw(ps, "SubscriberClient", "createSubscription", { name: "" })).rejects.toThrow(/topic/);
});
