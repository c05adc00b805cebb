/**
 * Provisioning at start, seen through the official client: PUBSUB_PROJECT<N> specs and a config
 * file create what they declare with every field; a bad entry creates nothing and names itself.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { loadConfig } from "../../src/runtime/config.ts";
import { ProvisionError, type Plan } from "../../src/provision/plan.ts";
import { loadPlan, provision } from "../../src/provision/provision.ts";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";
import { SHOP_YAML } from "./shop-config.ts";

const T = 15_000;
const DIR = mkdtempSync(join(tmpdir(), "provision-"));
const running: TestEmulator[] = [];
afterAll(async () => {
  await Promise.all(running.map((e) => e.close()));
  rmSync(DIR, { recursive: true, force: true });
});

/** Starts an emulator provisioned from these args and env, as main.ts does. */
async function provisioned(argv: string[], env: Record<string, string> = {}) {
  const plan = loadPlan(loadConfig(argv, env));
  const emu = await startTestEmulator({}, (broker) => provision(broker, plan));
  running.push(emu);
  return emu;
}
const short = (name: string) => name.slice(name.lastIndexOf("/") + 1);
const secs = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(d?.seconds ?? 0) + (d?.nanos ?? 0) / 1e9;

test("PUBSUB_PROJECT1 and PUBSUB_PROJECT2: topics and their subscriptions exist in each project", async () => {
  const emu = await provisioned([], { PUBSUB_PROJECT1: "proj-a,orders:orders-a:orders-b,audit", PUBSUB_PROJECT2: "proj-b,events:events-a" });
  const a = emu.client({ projectId: "proj-a" });
  const [topics] = await a.getTopics();
  expect(topics.map((t) => short(t.name)).sort()).toEqual(["audit", "orders"]);
  const [orderSubs] = await a.topic("orders").getSubscriptions();
  expect(orderSubs.map((s) => short(s.name)).sort()).toEqual(["orders-a", "orders-b"]);
  const [meta] = await a.subscription("orders-a").getMetadata();
  expect(meta.topic).toBe("projects/proj-a/topics/orders");
  expect(meta.ackDeadlineSeconds).toBe(10);
  const b = emu.client({ projectId: "proj-b" });
  const [bSubs] = await b.getSubscriptions();
  expect(bSubs.map((s) => short(s.name))).toEqual(["events-a"]);
}, T);

test("a provisioned subscription delivers what is published to its topic", async () => {
  const emu = await provisioned(["--provision", "proj-c,jobs:jobs-worker"]);
  const ps = emu.client({ projectId: "proj-c" });
  await ps.topic("jobs").publishMessage({ data: Buffer.from("job-1") });
  const sub = ps.subscription("jobs-worker");
  const [m] = await receive(sub, 1);
  await sub.close();
  expect(m.data.toString()).toBe("job-1");
}, T);


describe("config file", () => {
  for (const ext of ["yaml", "json"] as const) {
    test(`${ext}: every declared field reads back through the client`, async () => {
      const path = join(DIR, `shop.${ext}`);
      writeFileSync(path, ext === "yaml" ? SHOP_YAML : JSON.stringify(Bun.YAML.parse(SHOP_YAML)));
      const emu = await provisioned(["--config", path]);
      const ps = emu.client({ projectId: "shop" });
      const [topic] = await ps.topic("orders-dead").getMetadata();
      expect(topic.labels).toEqual({ team: "shop", cost_center: "x-1" });
      expect(secs(topic.messageRetentionDuration)).toBe(86_400);
      const [sub] = await ps.subscription("orders-worker").getMetadata();
      expect(sub.topic).toBe("projects/shop/topics/orders");
      expect(sub.ackDeadlineSeconds).toBe(30);
      expect(sub.filter).toBe('attributes.kind = "new"');
      expect(sub.enableMessageOrdering).toBe(true);
      expect(sub.retainAckedMessages).toBe(true);
      expect(secs(sub.messageRetentionDuration)).toBe(1200.5);
      expect(secs(sub.expirationPolicy?.ttl)).toBe(172_800);
      expect(sub.deadLetterPolicy).toMatchObject({ deadLetterTopic: "projects/shop/topics/orders-dead", maxDeliveryAttempts: 7 });
      expect(secs(sub.retryPolicy?.minimumBackoff)).toBe(1);
      expect(secs(sub.retryPolicy?.maximumBackoff)).toBe(20.5);
      expect(sub.pushConfig).toMatchObject({ pushEndpoint: "https://example.com/push", attributes: { "x-goog-version": "v1" } });
      expect(sub.labels).toEqual({ app_name: "worker" });
      const [nested] = await ps.subscription("dead-audit").getMetadata();
      expect(nested.topic).toBe("projects/shop/topics/orders-dead");
      expect((await emu.client({ projectId: "other" }).topic("shared").exists())[0]).toBe(true);
    }, T);
  }
});

describe("a bad entry", () => {
  const INVALID: [string, string, string][] = [
    ["a filter that does not parse", 'filter: "attributes.x = "', "projects[0].subscriptions[1] (projects/bad/subscriptions/s-two)"],
    ["a dead-letter topic nobody declared", "deadLetterPolicy: { deadLetterTopic: nowhere }", "projects[0].subscriptions[1] (projects/bad/subscriptions/s-two): Resource not found"],
    ["an ack deadline over 600 s", "ackDeadlineSeconds: 601", "projects[0].subscriptions[1] (projects/bad/subscriptions/s-two)"],
    ["min backoff over max", "retryPolicy: { minimumBackoff: 30s, maximumBackoff: 10s }", "minimum_backoff must not be greater than maximum_backoff"],
  ];
  for (const [what, field, named] of INVALID) {
    test(`${what}: nothing is created and the error names the entry`, async () => {
      const path = join(DIR, "bad.yaml");
      writeFileSync(
        path,
        `projects:\n  - id: bad\n    topics: [t-one, t-two]\n    subscriptions:\n      - { name: s-one, topic: t-one }\n      - { name: s-two, topic: t-two, ${field} }\n`,
      );
      const plan = loadPlan({ configFile: path, provision: [] });
      const emu = await startTestEmulator();
      running.push(emu);
      expect(() => provision(emu.broker, plan)).toThrow(ProvisionError);
      expect(() => provision(emu.broker, plan)).toThrow(named);
      const ps = emu.client({ projectId: "bad" });
      expect((await ps.getTopics())[0]).toEqual([]);
      expect((await ps.getSubscriptions())[0]).toEqual([]);
    }, T);
  }

  test("the emulator does not start: startEmulator rejects before listening", async () => {
    const plan = loadPlan({ configFile: "", provision: ["p,good-topic:good-sub,xy"] });
    await expect(startTestEmulator({}, (b) => provision(b, plan))).rejects.toThrow('provisioning spec "p,good-topic:good-sub,xy", topic "xy"');
  }, T);

  test("a resource declared twice is refused", () => {
    const broker = new Broker({ clock: new ManualClock() });
    const plan = loadPlan({ configFile: "", provision: ["p,dup-topic", "p,dup-topic"] });
    expect(() => provision(broker, plan)).toThrow('provisioning spec "p,dup-topic", topic "dup-topic": Resource already exists');
    expect(broker.topics.list("projects/p").items).toEqual([]);
  });
});

describe("resources that already exist", () => {
  const plan = (): Plan => loadPlan({ configFile: "", provision: ["p,kept-topic:kept-sub"] });

  test("are left as they are; the rest is created", () => {
    const broker = new Broker({ clock: new ManualClock() });
    expect(provision(broker, plan())).toEqual({
      created: ["projects/p/topics/kept-topic", "projects/p/subscriptions/kept-sub"],
      existing: [],
    });
    broker.topics.update({ name: "projects/p/topics/kept-topic", labels: { mine: "yes" } }, ["labels"]);
    expect(provision(broker, plan())).toEqual({ created: [], existing: ["projects/p/topics/kept-topic", "projects/p/subscriptions/kept-sub"] });
    expect(broker.topics.get("projects/p/topics/kept-topic").labels).toEqual({ mine: "yes" });
  });

  test("may be named by a declared subscription without being declared", () => {
    const broker = new Broker({ clock: new ManualClock() });
    broker.topics.create({ name: "projects/p/topics/already", labels: {} });
    const more = loadPlan({ configFile: "", provision: ["p,fresh-topic:fresh-sub"] });
    more.subscriptions.push({
      where: "test",
      resource: { ...more.subscriptions[0].resource, name: "projects/p/subscriptions/on-already", topic: "projects/p/topics/already" },
    });
    expect(provision(broker, more).created).toContain("projects/p/subscriptions/on-already");
  });
});
