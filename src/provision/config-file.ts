/**
 * The provisioning file (--config): JSON or YAML declaring projects, their topics and
 * subscriptions with any field of the REST resources:
 *
 *   projects:
 *     - id: my-project
 *       topics:
 *         - orders                            # a short id, or a full projects/P/topics/T
 *         - name: orders-dead
 *           messageRetentionDuration: 86400s
 *           subscriptions:                    # nested: their topic is implied
 *             - orders-dead-audit
 *       subscriptions:
 *         - name: orders-worker
 *           topic: orders
 *           ackDeadlineSeconds: 30
 *           deadLetterPolicy: { deadLetterTopic: orders-dead, maxDeliveryAttempts: 5 }
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import type { SubscriptionResource } from "../core/resources.ts";
import { subscriptionFromProto, topicFromProto } from "../rpc/convert.ts";
import type { Topic__Output } from "../../protos/types/google/pubsub/v1/Topic";
import type { Subscription__Output } from "../../protos/types/google/pubsub/v1/Subscription";
import { ProvisionError, expandName, type Plan } from "./plan.ts";
import { messageFromJson } from "../proto/json.ts";
import { PubSubError } from "../core/errors.ts";

/** Reads and parses the file; a syntax error or a bad entry throws naming the file and entry. */
export function planFromFile(file: string): Plan {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ProvisionError(`cannot read the config file ${file}: ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new ProvisionError(`${file}: not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(e as Error).message}`);
  }
  return planFromDocument(doc, file);
}

/** Builds the plan of a parsed document; `source` prefixes every message. */
export function planFromDocument(doc: unknown, source: string): Plan {
  const plan: Plan = { topics: [], subscriptions: [] };
  const bad = (path: string, why: string) => new ProvisionError(`${source}: ${path}: ${why}`);
  if (!isObject(doc)) throw bad("(top)", "must be an object with a projects list");
  only(doc, ["projects"], "(top)", bad);
  if (!Array.isArray(doc.projects)) throw bad("projects", "must be a list");
  doc.projects.forEach((p: unknown, i: number) => {
    const at = `projects[${i}]`;
    if (!isObject(p)) throw bad(at, "must be an object with an id");
    only(p, ["id", "topics", "subscriptions"], at, bad);
    if (typeof p.id !== "string" || !p.id) throw bad(`${at}.id`, "is required: the project id");
    const project = p.id;
    for (const [i, t] of list(p.topics, `${at}.topics`, bad).entries()) {
      const tAt = `${at}.topics[${i}]`;
      const { fields, nested } = split(t, tAt, bad);
      const proto = convert<Topic__Output>("google.pubsub.v1.Topic", fields, tAt, bad);
      proto.name = expandName(project, "topics", proto.name ?? "");
      plan.topics.push({ where: `${source}: ${tAt} (${proto.name})`, resource: topicFromProto(proto) });
      for (const [j, s] of list(nested, `${tAt}.subscriptions`, bad).entries()) {
        plan.subscriptions.push(subscription(project, s, `${tAt}.subscriptions[${j}]`, source, bad, proto.name));
      }
    }
    for (const [j, s] of list(p.subscriptions, `${at}.subscriptions`, bad).entries()) {
      plan.subscriptions.push(subscription(project, s, `${at}.subscriptions[${j}]`, source, bad));
    }
  });
  return plan;
}

type Bad = (path: string, why: string) => ProvisionError;

function only(o: Record<string, unknown>, keys: string[], at: string, bad: Bad): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw bad(`${at}.${k}`, `unknown key (expected ${keys.join(", ")})`);
}

function list(v: unknown, at: string, bad: Bad): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad(at, "must be a list");
  return v;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A short string entry is `{name}`; a topic's nested `subscriptions` are taken out of its fields. */
function split(entry: unknown, at: string, bad: Bad): { fields: Record<string, unknown>; nested: unknown } {
  if (typeof entry === "string") return { fields: { name: entry }, nested: undefined };
  if (!isObject(entry)) throw bad(at, "must be a name or an object with a name");
  const { subscriptions: nested, ...fields } = entry;
  return { fields, nested };
}

/** The entry read as REST reads a message of `type` (proto-loader's shape of it). */
function convert<T>(type: string, fields: Record<string, unknown>, at: string, bad: Bad): T {
  if (typeof fields.name !== "string" || !fields.name) throw bad(`${at}.name`, "is required");
  try {
    return messageFromJson(type, fields) as T;
  } catch (e) {
    if (e instanceof PubSubError) throw bad(`${at} (${fields.name})`, e.message);
    throw e;
  }
}

function subscription(project: string, entry: unknown, at: string, source: string, bad: Bad, topic?: string) {
  if (isObject(entry) && "subscriptions" in entry) throw bad(`${at}.subscriptions`, "unknown field of Subscription");
  const { fields } = split(entry, at, bad);
  const proto = convert<Subscription__Output>("google.pubsub.v1.Subscription", fields, at, bad);
  proto.name = expandName(project, "subscriptions", proto.name ?? "");
  if (topic !== undefined) {
    if (proto.topic && expandName(project, "topics", proto.topic) !== topic) throw bad(`${at}.topic`, `is nested under ${topic} but names ${proto.topic}`);
    proto.topic = topic;
  } else if (!proto.topic) throw bad(`${at}.topic`, "is required (or nest the subscription under its topic)");
  proto.topic = expandName(project, "topics", proto.topic);
  if (proto.deadLetterPolicy?.deadLetterTopic) {
    proto.deadLetterPolicy.deadLetterTopic = expandName(project, "topics", proto.deadLetterPolicy.deadLetterTopic);
  }
  const resource: SubscriptionResource = subscriptionFromProto(proto);
  return { where: `${source}: ${at} (${proto.name})`, resource };
}
