/** Resource names and their validation, as the real service checks them. */
import { echo } from "../bounded.ts";
import { invalid } from "../errors.ts";

export type Collection = "topics" | "subscriptions" | "snapshots" | "schemas";

const ID = /^[A-Za-z][A-Za-z0-9\-_.~+%]{2,254}$/;
const PROJECT = /^[a-z0-9][a-z0-9\-.:]*$/i;

export interface ParsedName {
  project: string;
  id: string;
}

/** Parses `projects/{project}/{collection}/{id}`, throwing INVALID_ARGUMENT naming `field`. */
export function parseName(name: string | undefined, collection: Collection, field = "name"): ParsedName {
  if (!name) throw invalid(`The ${field} field is required (expected projects/{project}/${collection}/{id}).`);
  const parts = name.split("/");
  if (parts.length !== 4 || parts[0] !== "projects" || parts[2] !== collection || !PROJECT.test(parts[1])) {
    throw invalidName(name, field, `expected projects/{project}/${collection}/{id}`);
  }
  const id = parts[3];
  if (!ID.test(id)) {
    throw invalidName(
      name,
      field,
      "an ID must be 3-255 characters, start with a letter, and contain only letters, digits and - _ . ~ + %",
    );
  }
  if (id.toLowerCase().startsWith("goog")) throw invalidName(name, field, 'an ID must not start with "goog"');
  return { project: parts[1], id };
}

/** Parses `projects/{project}`. */
export function parseProject(name: string | undefined, field = "project"): string {
  const parts = (name ?? "").split("/");
  if (parts.length !== 2 || parts[0] !== "projects" || !PROJECT.test(parts[1])) {
    throw invalid(`Invalid ${field}: expected projects/{project} (${field}=${echo(name ?? "", 300)}).`);
  }
  return parts[1];
}

function invalidName(name: string, field: string, why: string) {
  return invalid(`Invalid resource name given (${field}=${echo(name, 300)}): ${why}.`);
}

/**
 * CreateSubscription without a name: the proto's "random name for this subscription on the same
 * project as the topic" — the topic's ID (cut to leave room) and 16 random hex digits.
 */
export function assignedSubscriptionName(topic: string): string {
  const { project, id } = parseName(topic, "topics", "topic");
  return `projects/${project}/subscriptions/${id.slice(0, 238)}-${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;
}

/** The topic name a subscription reports once its topic was deleted. */
export const DELETED_TOPIC = "_deleted-topic_";
