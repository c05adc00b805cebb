/** Topic and subscription administration through the official client: CRUD, paging, updates, errors. */
import { describe, expect, test } from "bun:test";
import { unique } from "../helpers/emulator.ts";
import { clientSuite } from "../helpers/client-suite.ts";
import { grpcCode } from "../helpers/raw-clients.ts";

const ALREADY_EXISTS = 6;
const NOT_FOUND = 5;
const INVALID_ARGUMENT = 3;
const DAY_S = 24 * 3600;
const T = 10_000;

const suite = clientSuite();

const secs = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(d?.seconds ?? 0) + (d?.nanos ?? 0) / 1e9;
const shortName = (n: string) => n.slice(n.lastIndexOf("/") + 1);

describe("topics", () => {
  test("create, get, exists, delete", async () => {
    const id = unique("t");
    const [topic] = await suite.ps.createTopic(id);
    expect(topic.name).toBe(`projects/test-project/topics/${id}`);
    const [meta] = await suite.ps.topic(id).getMetadata();
    expect(meta.name).toBe(topic.name);
    expect((await suite.ps.topic(id).exists())[0]).toBe(true);
    await suite.ps.topic(id).delete();
    expect((await suite.ps.topic(id).exists())[0]).toBe(false);
  }, T);

  test("duplicate, missing and invalid names surface the right codes", async () => {
    const id = unique("t");
    await suite.ps.createTopic(id);
    expect(await grpcCode(suite.ps.createTopic(id))).toBe(ALREADY_EXISTS);
    const missing = unique("missing");
    expect(await grpcCode(suite.ps.topic(missing).getMetadata())).toBe(NOT_FOUND);
    expect(await grpcCode(suite.ps.topic(missing).delete())).toBe(NOT_FOUND);
    expect(await grpcCode(suite.ps.topic(missing).publishMessage({ data: Buffer.from("x") }))).toBe(NOT_FOUND);
    expect(await grpcCode(suite.ps.createTopic("1starts-with-digit"))).toBe(INVALID_ARGUMENT);
    expect(await grpcCode(suite.ps.createTopic("goog-reserved"))).toBe(INVALID_ARGUMENT);
    expect(await grpcCode(suite.ps.createTopic("ab"))).toBe(INVALID_ARGUMENT);
    expect(await grpcCode(suite.ps.createTopic("has space"))).toBe(INVALID_ARGUMENT);
  }, T);

  test("labels are set on create and replaced by setMetadata", async () => {
    const id = unique("t");
    await suite.ps.createTopic({ name: id, labels: { env: "test", team: "core" } });
    const topic = suite.ps.topic(id);
    expect((await topic.getMetadata())[0].labels).toEqual({ env: "test", team: "core" });
    const [updated] = await topic.setMetadata({ labels: { env: "prod" } });
    expect(updated.labels).toEqual({ env: "prod" });
    expect((await topic.getMetadata())[0].labels).toEqual({ env: "prod" });
    expect(await grpcCode(topic.setMetadata({ labels: { "Bad-Key": "x" } }))).toBe(INVALID_ARGUMENT);
  }, T);

  test("getTopics pages through a project with pageSize and page tokens", async () => {
    const own = suite.emu.client({ projectId: unique("proj") });
    const ids = Array.from({ length: 5 }, () => unique("pg"));
    for (const id of ids) await own.createTopic(id);
    const seen: string[] = [];
    const sizes: number[] = [];
    let query: Record<string, unknown> | null = { pageSize: 2, autoPaginate: false };
    for (let pages = 0; query && pages < 10; pages++) {
      const [topics, next]: [Array<{ name: string }>, Record<string, unknown> | null] = (await own.getTopics(query)) as never;
      sizes.push(topics.length);
      seen.push(...topics.map((t) => shortName(t.name)));
      query = next ? { ...next, pageSize: 2, autoPaginate: false } : null;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen.sort()).toEqual([...ids].sort());
    const [all] = await own.getTopics();
    expect(all.map((t) => shortName(t.name)).sort()).toEqual([...ids].sort());
  }, T);
});

describe("subscriptions", () => {
  test("defaults are echoed on create and get", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    const [sub] = await topic.createSubscription(unique("s"));
    for (const meta of [sub.metadata!, (await sub.getMetadata())[0]]) {
      expect(meta.topic).toBe(topic.name);
      expect(meta.ackDeadlineSeconds).toBe(10);
      expect(secs(meta.messageRetentionDuration)).toBe(7 * DAY_S);
      expect(secs(meta.expirationPolicy?.ttl)).toBe(31 * DAY_S);
      expect(meta.enableMessageOrdering).toBe(false);
      expect(meta.enableExactlyOnceDelivery).toBe(false);
      expect(meta.filter).toBe("");
      expect(meta.deadLetterPolicy ?? null).toBeNull();
    }
  }, T);

  test("every field set on create is echoed back", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    const [dlq] = await suite.ps.createTopic(unique("dlq"));
    const id = unique("s");
    await topic.createSubscription(id, {
      ackDeadlineSeconds: 42,
      labels: { owner: "tests" },
      retryPolicy: { minimumBackoff: { seconds: 5 }, maximumBackoff: { seconds: 60 } },
      deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 7 },
      filter: 'attributes.kind = "a"',
      enableMessageOrdering: true,
      enableExactlyOnceDelivery: true,
      messageRetentionDuration: 3600,
      pushConfig: { pushEndpoint: "https://example.com/push", attributes: { "x-goog-version": "v1" } },
    });
    const [m] = await suite.ps.subscription(id).getMetadata();
    expect(m.ackDeadlineSeconds).toBe(42);
    expect(m.labels).toEqual({ owner: "tests" });
    expect(secs(m.retryPolicy?.minimumBackoff)).toBe(5);
    expect(secs(m.retryPolicy?.maximumBackoff)).toBe(60);
    expect(m.deadLetterPolicy?.deadLetterTopic).toBe(dlq.name);
    expect(m.deadLetterPolicy?.maxDeliveryAttempts).toBe(7);
    expect(m.filter).toBe('attributes.kind = "a"');
    expect(m.enableMessageOrdering).toBe(true);
    expect(m.enableExactlyOnceDelivery).toBe(true);
    expect(secs(m.messageRetentionDuration)).toBe(3600);
    expect(m.pushConfig?.pushEndpoint).toBe("https://example.com/push");
    expect(m.pushConfig?.attributes).toEqual({ "x-goog-version": "v1" });
  }, T);

  test("setMetadata updates ack deadline and labels", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    const [sub] = await topic.createSubscription(unique("s"), { labels: { a: "1" } });
    const [updated] = await sub.setMetadata({ ackDeadlineSeconds: 30, labels: { b: "2" } });
    expect(updated.ackDeadlineSeconds).toBe(30);
    expect(updated.labels).toEqual({ b: "2" });
    const [m] = await sub.getMetadata();
    expect(m.ackDeadlineSeconds).toBe(30);
    expect(m.labels).toEqual({ b: "2" });
    expect(await grpcCode(sub.setMetadata({ ackDeadlineSeconds: 601 }))).toBe(INVALID_ARGUMENT);
    expect((await sub.getMetadata())[0].ackDeadlineSeconds).toBe(30);
  }, T);

  test("create and lookup errors carry the right codes", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    const id = unique("s");
    await topic.createSubscription(id);
    expect(await grpcCode(topic.createSubscription(id))).toBe(ALREADY_EXISTS);
    expect(await grpcCode(suite.ps.topic(unique("missing")).createSubscription(unique("s")))).toBe(NOT_FOUND);
    expect(await grpcCode(topic.createSubscription(unique("s"), { ackDeadlineSeconds: 5 }))).toBe(INVALID_ARGUMENT);
    expect(await grpcCode(topic.createSubscription(unique("s"), { ackDeadlineSeconds: 601 }))).toBe(INVALID_ARGUMENT);
    expect(await grpcCode(topic.createSubscription("goog-sub"))).toBe(INVALID_ARGUMENT);
    const dlq = { deadLetterTopic: `projects/test-project/topics/${unique("nodlq")}`, maxDeliveryAttempts: 5 };
    expect(await grpcCode(topic.createSubscription(unique("s"), { deadLetterPolicy: dlq }))).toBe(NOT_FOUND);
    const missing = suite.ps.subscription(unique("missing"));
    expect(await grpcCode(missing.getMetadata())).toBe(NOT_FOUND);
    expect(await grpcCode(missing.delete())).toBe(NOT_FOUND);
  }, T);

  test("delete removes the subscription from lists and lookups", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    const [sub] = await topic.createSubscription(unique("s"));
    await sub.delete();
    expect((await sub.exists())[0]).toBe(false);
    const [subs] = await topic.getSubscriptions();
    expect(subs.map((s) => s.name)).not.toContain(sub.name);
  }, T);

  test("deleting the topic leaves its subscriptions on _deleted-topic_", async () => {
    const [topic] = await suite.ps.createTopic(unique("t"));
    const [sub] = await topic.createSubscription(unique("s"));
    await topic.delete();
    const [m] = await sub.getMetadata();
    expect(m.topic).toBe("_deleted-topic_");
    const [all] = await suite.ps.getSubscriptions();
    expect(all.find((s) => s.name === sub.name)?.metadata?.topic).toBe("_deleted-topic_");
  }, T);

  test("getSubscriptions and topic.getSubscriptions page with pageSize", async () => {
    const own = suite.emu.client({ projectId: unique("proj") });
    const [topic] = await own.createTopic(unique("t"));
    const ids = Array.from({ length: 5 }, () => unique("ps"));
    for (const id of ids) await topic.createSubscription(id);

    const collect = async (list: (q: Record<string, unknown>) => Promise<unknown[]>) => {
      const names: string[] = [];
      const sizes: number[] = [];
      let query: Record<string, unknown> | null = { pageSize: 2, autoPaginate: false };
      for (let pages = 0; query && pages < 10; pages++) {
        const [items, next] = (await list(query)) as [Array<{ name: string }>, Record<string, unknown> | null];
        sizes.push(items.length);
        names.push(...items.map((s) => shortName(s.name)));
        query = next ? { ...next, pageSize: 2, autoPaginate: false } : null;
      }
      return { names: names.sort(), sizes };
    };
    const fromProject = await collect((q) => own.getSubscriptions(q) as Promise<unknown[]>);
    expect(fromProject).toEqual({ names: [...ids].sort(), sizes: [2, 2, 1] });
    const fromTopic = await collect((q) => topic.getSubscriptions(q) as Promise<unknown[]>);
    expect(fromTopic).toEqual({ names: [...ids].sort(), sizes: [2, 2, 1] });
  }, T);
});
