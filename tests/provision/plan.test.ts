/** Reading declarations: the PUBSUB_PROJECT<N> format and the JSON/YAML file, with errors naming the entry. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planFromDocument, planFromFile } from "../../src/provision/config-file.ts";
import { ProvisionError } from "../../src/provision/plan.ts";
import { planFromSpec } from "../../src/provision/project-spec.ts";
import { SHOP_YAML } from "./shop-config.ts";

const DIR = mkdtempSync(join(tmpdir(), "provision-"));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(DIR, name);
  writeFileSync(path, text);
  return path;
};
const names = (plan: { topics: { resource: { name: string } }[]; subscriptions: { resource: { name: string; topic: string } }[] }) => ({
  topics: plan.topics.map((t) => t.resource.name),
  subscriptions: plan.subscriptions.map((s) => `${s.resource.name} <- ${s.resource.topic}`),
});

describe("project,topic1,topic2:sub1:sub2", () => {
  test("a project, its topics and each topic's subscriptions", () => {
    expect(names(planFromSpec("proj,orders:orders-a:orders-b, audit ,events:events-a"))).toEqual({
      topics: ["projects/proj/topics/orders", "projects/proj/topics/audit", "projects/proj/topics/events"],
      subscriptions: [
        "projects/proj/subscriptions/orders-a <- projects/proj/topics/orders",
        "projects/proj/subscriptions/orders-b <- projects/proj/topics/orders",
        "projects/proj/subscriptions/events-a <- projects/proj/topics/events",
      ],
    });
  });

  test("entries name the spec and the item", () => {
    const plan = planFromSpec("p,orders:orders-a");
    expect(plan.topics[0].where).toBe('provisioning spec "p,orders:orders-a", topic "orders"');
    expect(plan.subscriptions[0].where).toBe('provisioning spec "p,orders:orders-a", subscription "orders-a"');
  });

  test.each([
    ["", "starts with the project id"],
    [",orders", "starts with the project id"],
    ["orders:sub", "is not a project id"],
    ["proj", "names no topic"],
    ["proj,orders:", 'empty name in "orders:"'],
    ["proj,,orders", 'empty name in ""'],
    ["proj,orders::b", 'empty name in "orders::b"'],
  ])("%j is refused: %s", (spec, why) => {
    expect(() => planFromSpec(spec)).toThrow(ProvisionError);
    expect(() => planFromSpec(spec)).toThrow(why);
  });
});


describe("the config file", () => {
  test("YAML: short ids expand, nested subscriptions take their topic, fields convert from proto3 JSON", () => {
    const plan = planFromFile(file("p.yaml", SHOP_YAML));
    expect(names(plan)).toEqual({
      topics: ["projects/shop/topics/orders", "projects/shop/topics/orders-dead", "projects/other/topics/shared"],
      subscriptions: [
        "projects/shop/subscriptions/dead-audit <- projects/shop/topics/orders-dead",
        "projects/shop/subscriptions/orders-worker <- projects/shop/topics/orders",
      ],
    });
    expect(plan.topics[1].resource).toMatchObject({ labels: { team: "shop", cost_center: "x-1" }, messageRetentionDuration: 86_400_000 });
    expect(plan.subscriptions[1].resource).toMatchObject({
      ackDeadlineSeconds: 30,
      filter: 'attributes.kind = "new"',
      enableMessageOrdering: true,
      retainAckedMessages: true,
      messageRetentionDuration: 1_200_500,
      expirationPolicy: { ttl: 172_800_000 },
      deadLetterPolicy: { deadLetterTopic: "projects/shop/topics/orders-dead", maxDeliveryAttempts: 7 },
      retryPolicy: { minimumBackoff: 1000, maximumBackoff: 20_500 },
      pushConfig: { pushEndpoint: "https://example.com/push", attributes: { "x-goog-version": "v1" }, noWrapper: { writeMetadata: true } },
      labels: { app_name: "worker" },
    });
    expect(plan.subscriptions[1].where).toBe(`${join(DIR, "p.yaml")}: projects[0].subscriptions[0] (projects/shop/subscriptions/orders-worker)`);
  });

  test("JSON gives the same plan as YAML", () => {
    const yaml = planFromFile(file("same.yaml", SHOP_YAML));
    const json = planFromFile(file("same.json", JSON.stringify(Bun.YAML.parse(SHOP_YAML))));
    expect(json.topics.map((t) => t.resource)).toEqual(yaml.topics.map((t) => t.resource));
    expect(json.subscriptions.map((s) => s.resource)).toEqual(yaml.subscriptions.map((s) => s.resource));
  });

  test("a file that does not parse names the file and the format", () => {
    expect(() => planFromFile(file("bad.json", "{ projects: "))).toThrow(`${join(DIR, "bad.json")}: not valid JSON`);
    expect(() => planFromFile(file("bad.yaml", "projects: [ {"))).toThrow(`${join(DIR, "bad.yaml")}: not valid YAML`);
  });

  const bad = (doc: unknown) => () => planFromDocument(doc, "f.yaml");
  test.each([
    [[], "f.yaml: (top): must be an object with a projects list"],
    [{ topics: [] }, "f.yaml: (top).topics: unknown key (expected projects)"],
    [{ projects: {} }, "f.yaml: projects: must be a list"],
    [{ projects: [{ topics: [] }] }, "f.yaml: projects[0].id: is required"],
    [{ projects: [{ id: "p", topic: [] }] }, "f.yaml: projects[0].topic: unknown key"],
    [{ projects: [{ id: "p", topics: [{ labels: {} }] }] }, "f.yaml: projects[0].topics[0].name: is required"],
    [{ projects: [{ id: "p", topics: [7] }] }, "projects[0].topics[0]: must be a name or an object"],
    [{ projects: [{ id: "p", topics: [{ name: "t1", colour: "red" }] }] }, 'projects[0].topics[0] (t1): Invalid JSON payload received. Unknown name "colour": Cannot find field.'],
    [{ projects: [{ id: "p", subscriptions: ["s1"] }] }, "projects[0].subscriptions[0].topic: is required"],
    [
      { projects: [{ id: "p", subscriptions: [{ name: "s1", topic: "t1", ackDeadlineSeconds: "soon" }] }] },
      'projects[0].subscriptions[0] (s1): Invalid value at \'ack_deadline_seconds\' (TYPE_INT32), "soon"',
    ],
    [
      { projects: [{ id: "p", subscriptions: [{ name: "s1", topic: "t1", messageRetentionDuration: 600 }] }] },
      `Invalid value at 'message_retention_duration' (type.googleapis.com/google.protobuf.Duration), 600: a duration must be a string of seconds ending in "s"`,
    ],
    [
      { projects: [{ id: "p", subscriptions: [{ name: "s1", topic: "t1", deadLetterPolicy: { topic: "x" } }] }] },
      `Unknown name "topic" at 'dead_letter_policy': Cannot find field.`,
    ],
    [{ projects: [{ id: "p", subscriptions: [{ name: "s1", topic: "t1", enableMessageOrdering: "yes" }] }] }, `Invalid value at 'enable_message_ordering' (TYPE_BOOL), "yes"`],
    [{ projects: [{ id: "p", subscriptions: [{ name: "s1", topic: "t1", labels: ["a"] }] }] }, `Invalid value at 'labels' (TYPE_STRING), […]: a map must be a JSON object`],
    [{ projects: [{ id: "p", topics: [{ name: "t1", subscriptions: [{ name: "s1", topic: "t2" }] }] }] }, "is nested under projects/p/topics/t1 but names t2"],
    [{ projects: [{ id: "p", topics: [{ name: "t1", state: "NOPE" }] }] }, `Invalid value at 'state' (type.googleapis.com/google.pubsub.v1.Topic.State), "NOPE"`],
  ])("%j is refused: %s", (doc, message) => {
    expect(bad(doc)).toThrow(ProvisionError);
    expect(bad(doc)).toThrow(message);
  });

  test("a __proto__ key is an unknown field, never a prototype", () => {
    const doc = JSON.parse('{"projects":[{"id":"p","topics":[{"name":"t1","__proto__":{"labels":{"a":"b"}}}]}]}');
    expect(bad(doc)).toThrow('projects[0].topics[0] (t1): Invalid JSON payload received. Unknown name "__proto__": Cannot find field.');
    expect(({} as Record<string, unknown>).labels).toBeUndefined();
  });
});
