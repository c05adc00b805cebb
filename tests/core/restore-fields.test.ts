/**
 * A data dir written before input-only `tags` and output-only fields were dropped on the way in:
 * what it kept of them is dropped again at restore, never served back.
 */
import { afterAll, expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import type { SubscriptionResource, TopicResource } from "../../src/core/resources.ts";
import { cleanupDataDirs, sqliteKind } from "../helpers/stores.ts";

afterAll(cleanupDataDirs);

test("restored topics and subscriptions carry no tags, satisfies_pzs or Analytics Hub info", () => {
  const clock = new ManualClock();
  const first = new Broker({ clock });
  const topic = first.topics.create({ name: "projects/proj/topics/topic-a", labels: {} } as TopicResource);
  const sub = first.subscriptions.create({ name: "projects/proj/subscriptions/sub-a", topic: topic.name } as SubscriptionResource);
  // What an older version stored as sent.
  const store = sqliteKind.create();
  store.putTopic({ ...topic, tags: { "123/env": "prod" }, satisfiesPzs: true } as TopicResource);
  store.putSubscription({ ...sub, tags: { "123/env": "prod" }, analyticsHubSubscriptionInfo: { listing: "x" } } as SubscriptionResource, 1);
  const restored = new Broker({ clock, store: sqliteKind.reopen(store) });
  const t = restored.topics.get(topic.name) as unknown as Record<string, unknown>;
  const s = restored.subscriptions.get(sub.name) as unknown as Record<string, unknown>;
  expect([t.tags, t.satisfiesPzs, s.tags, s.analyticsHubSubscriptionInfo]).toEqual([undefined, undefined, undefined, undefined]);
  expect(t.name).toBe(topic.name);
  expect(s.topic).toBe(topic.name);
});

test("a Bigtable column_family_mapping (its delimiter bytes kept as base64) comes back from a data dir as it was given", () => {
  const clock = new ManualClock();
  const store = sqliteKind.create();
  const first = new Broker({ clock, store });
  first.topics.create({ name: "projects/proj/topics/topic-b", labels: {} } as TopicResource);
  const bigtableConfig = {
    table: "projects/bt/instances/inst-1/tables/t1",
    columnFamilyMapping: { delimitedKey: { keyFields: ["region", "id"], delimiter: new Uint8Array([0x7c, 0x7c]) } },
  };
  first.subscriptions.create({ name: "projects/proj/subscriptions/sub-b", topic: "projects/proj/topics/topic-b", bigtableConfig } as unknown as SubscriptionResource);
  const restored = new Broker({ clock, store: sqliteKind.reopen(store) });
  const c = (restored.subscriptions.get("projects/proj/subscriptions/sub-b") as unknown as { bigtableConfig: Record<string, unknown> }).bigtableConfig;
  expect(c.columnFamilyMapping).toEqual({ delimitedKey: { keyFields: ["region", "id"], delimiter: Buffer.from("||").toString("base64") } });
});
