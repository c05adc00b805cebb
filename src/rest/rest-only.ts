/**
 * REST methods with no proto RPC: POST /v1/projects/{project}:validateMessageTransform and
 * :testMessageTransforms (the discovery document's projects.* methods gcloud calls). Their JSON is
 * read and written here through the descriptor's MessageTransform and PubsubMessage types.
 */
import { PubSubError } from "../core/errors.ts";
import type { RpcTable } from "../rpc/table.ts";
import { echo, messageFromJson, messageToJson } from "../proto/json.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const PATH = /^\/v1\/(projects\/[^/:]+):(validateMessageTransform|testMessageTransforms)$/;
const TRANSFORM = "google.pubsub.v1.MessageTransform";
const MESSAGE = "google.pubsub.v1.PubsubMessage";

export interface RestOnlyRoute {
  key: "Projects.ValidateMessageTransform" | "Projects.TestMessageTransforms";
  project: string;
}

export function matchRestOnly(method: string, path: string): RestOnlyRoute | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  if (method !== "POST") throw new PubSubError("NOT_FOUND", `Method not found. (${method} ${path.slice(0, 200)} takes POST)`);
  const project = decodeURIComponent(m[1]);
  return { key: m[2] === "validateMessageTransform" ? "Projects.ValidateMessageTransform" : "Projects.TestMessageTransforms", project };
}

function body(json: unknown, allowed: readonly string[]): Obj {
  if (json === undefined) return {};
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new PubSubError("INVALID_ARGUMENT", `Invalid JSON payload received. Expected an object, got ${echo(json)}.`);
  for (const k of Object.keys(json)) {
    if (!allowed.includes(k)) throw new PubSubError("INVALID_ARGUMENT", `Invalid JSON payload received. Unknown name ${JSON.stringify(k.slice(0, 64))}: Cannot find field.`);
  }
  return json as Obj;
}

function request(route: RestOnlyRoute, json: unknown): Obj {
  if (route.key === "Projects.ValidateMessageTransform") {
    const b = body(json, ["messageTransform", "message_transform"]);
    const t = b.messageTransform ?? b.message_transform;
    return { project: route.project, messageTransform: t === undefined ? undefined : messageFromJson(TRANSFORM, t, "message_transform") };
  }
  const b = body(json, ["message", "messageTransforms", "message_transforms", "topic", "subscription"]);
  const list = b.messageTransforms ?? b.message_transforms;
  let transforms: Obj[] | undefined;
  if (list !== undefined) {
    const inner = body(list, ["messageTransforms", "message_transforms"]);
    const items: unknown = inner.messageTransforms ?? inner.message_transforms ?? [];
    if (!Array.isArray(items)) throw new PubSubError("INVALID_ARGUMENT", "Invalid JSON payload received. message_transforms.message_transforms must be a list.");
    transforms = items.map((t, i) => messageFromJson(TRANSFORM, t, `message_transforms.message_transforms[${i}]`));
  }
  if (b.message === undefined) throw new PubSubError("INVALID_ARGUMENT", "message is required.");
  for (const f of ["topic", "subscription"] as const) {
    if (b[f] !== undefined && typeof b[f] !== "string") throw new PubSubError("INVALID_ARGUMENT", `Invalid value at '${f}': expected a string.`);
  }
  return {
    project: route.project,
    message: messageFromJson(MESSAGE, b.message, "message"),
    messageTransforms: transforms ? { messageTransforms: transforms } : undefined,
    topic: b.topic,
    subscription: b.subscription,
  };
}

function response(route: RestOnlyRoute, result: Obj): Obj {
  if (route.key === "Projects.ValidateMessageTransform") return {};
  const out = (result.transformedMessages as Obj[]).map((r) =>
    r.transformedMessage ? { transformedMessage: messageToJson(MESSAGE, r.transformedMessage) } : r,
  );
  return out.length ? { transformedMessages: out } : {};
}

export async function callRestOnly(table: RpcTable, route: RestOnlyRoute, json: unknown): Promise<Obj> {
  const fn = table.unary.get(route.key);
  if (!fn) throw new PubSubError("UNIMPLEMENTED", `${route.key} is not implemented by this emulator.`);
  const result = (await fn(request(route, json), { onCancel: () => {} })) as Obj;
  return response(route, result);
}
