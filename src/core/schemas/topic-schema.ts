/**
 * A topic's schema_settings, resolved against the registry when the topic is created or updated,
 * and the publish check: each message must conform to one revision in the topic's range (newest
 * first); the revision that accepted it is recorded in the attributes the real service adds.
 */
import type { PublishStage } from "../stages/stages.ts";
import { PubSubError, bounded, failedPrecondition, invalid, notFound } from "../errors.ts";
import type { MessageInput } from "../message.ts";
import type { TopicResource } from "../resources.ts";
import type { Encoding } from "./compiled.ts";
import type { SchemaRegistry, SchemaRevision } from "./registry.ts";

export interface SchemaSettings {
  schema?: string;
  encoding?: string;
  firstRevisionId?: string;
  lastRevisionId?: string;
}

/** What a topic validates against: a schema and a range of its revisions by creation order. */
export interface TopicSchema {
  schema: string;
  encoding: Encoding;
  from: number;
  to: number;
}

/** The schema name topics report once their schema is deleted. */
export const DELETED_SCHEMA = "_deleted-schema_";

/** Checks a topic's schema_settings and resolves its revision range; throws naming the field. */
export function bindTopicSchema(registry: SchemaRegistry, settings: SchemaSettings): TopicSchema {
  const schema = settings.schema ?? "";
  if (!schema) throw invalid("schema_settings.schema is required.");
  if (!registry.has(schema)) {
    registry.get(schema, "schema_settings.schema");
    throw notFound(schema);
  }
  const encoding = settings.encoding ?? "ENCODING_UNSPECIFIED";
  if (!["JSON", "BINARY", "ENCODING_UNSPECIFIED"].includes(encoding)) {
    throw invalid(`Invalid schema_settings.encoding: ${bounded(encoding)}.`);
  }
  const bound = (id: string | undefined, field: string, fallback: number) => {
    if (!id) return fallback;
    try {
      return registry.get(`${schema}@${id}`).seq;
    } catch {
      throw invalid(`Invalid schema_settings.${field}: ${bounded(id)} is not a revision of ${schema}.`);
    }
  };
  const from = bound(settings.firstRevisionId, "first_revision_id", 0);
  const to = bound(settings.lastRevisionId, "last_revision_id", Number.MAX_SAFE_INTEGER);
  if (from > to) throw invalid("Invalid schema_settings: first_revision_id was created after last_revision_id.");
  // Unset, the encoding is JSON, as the real service treats it.
  return { schema, encoding: encoding === "BINARY" ? "BINARY" : "JSON", from, to };
}

/**
 * Validates every message of one Publish; returns them with the googclient_schema* attributes
 * set, or throws INVALID_ARGUMENT naming the first message that conforms to no revision.
 */
export function validatePublish(registry: SchemaRegistry, bound: TopicSchema, messages: readonly MessageInput[]): MessageInput[] {
  const revisions = registry.range(bound.schema, bound.from, bound.to);
  if (!revisions) {
    throw failedPrecondition(`The schema of this topic was deleted (schema_settings.schema=${DELETED_SCHEMA}); publishing to it fails.`);
  }
  if (revisions.length === 0) {
    throw failedPrecondition(`No revision of ${bound.schema} is left in the topic's schema_settings revision range.`);
  }
  const out = new Array<MessageInput>(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const revision = conforming(revisions, m.data ?? new Uint8Array(0), bound.encoding, i);
    out[i] = {
      ...m,
      attributes: {
        ...m.attributes,
        googclient_schemaname: bound.schema,
        googclient_schemaencoding: bound.encoding,
        googclient_schemarevisionid: revision.revisionId,
      },
    };
  }
  return out;
}

/** Newest first, so the attribute names the newest revision the message satisfies. */
function conforming(revisions: readonly SchemaRevision[], data: Uint8Array, encoding: Encoding, index: number): SchemaRevision {
  let problem = "";
  for (const r of revisions) {
    const p = r.compiled.check(data, encoding);
    if (p === null) return r;
    problem ||= p;
  }
  throw new PubSubError(
    "INVALID_ARGUMENT",
    `Invalid data in message: Message failed schema validation. messages[${index}] is not valid ${encoding} for ${revisions[0].name}: ${problem}`,
  );
}

/** Resolves topics' schema_settings against the registry; each topic holds its own binding (Topic.schema). */
export class TopicSchemas {
  constructor(private registry: SchemaRegistry) {}

  /** Resolves a topic config's schema_settings (throwing naming the field); undefined without them. */
  resolve(config: TopicResource): TopicSchema | undefined {
    return config.schemaSettings ? bindTopicSchema(this.registry, config.schemaSettings as SchemaSettings) : undefined;
  }

  /**
   * A stored topic's binding after a restart. Its schema may be `_deleted-schema_` (publishing
   * fails, as before), or a bounding revision may have been deleted since: the range is then
   * open on that side rather than the start refused.
   */
  restore(config: TopicResource): TopicSchema | undefined {
    const settings = config.schemaSettings as SchemaSettings | undefined;
    if (!settings) return undefined;
    const encoding = settings.encoding === "BINARY" ? "BINARY" : "JSON";
    if (settings.schema === DELETED_SCHEMA || !this.registry.has(settings.schema ?? "")) {
      return { schema: DELETED_SCHEMA, encoding, from: 0, to: Number.MAX_SAFE_INTEGER };
    }
    const seqOf = (id: string | undefined, fallback: number) => {
      if (!id) return fallback;
      return this.registry.range(settings.schema!, 0, Number.MAX_SAFE_INTEGER)!.find((r) => r.revisionId === id)?.seq ?? fallback;
    };
    return { schema: settings.schema!, encoding, from: seqOf(settings.firstRevisionId, 0), to: seqOf(settings.lastRevisionId, Number.MAX_SAFE_INTEGER) };
  }

  /** The "schema" publish stage of a topic with schema_settings (a batch its transforms emptied passes). */
  stage(topic: { readonly schema: TopicSchema | undefined }): PublishStage {
    return {
      name: "schema",
      apply: (batch) => {
        if (batch.messages.length === 0 || !topic.schema) return batch;
        return { ...batch, messages: validatePublish(this.registry, topic.schema, batch.messages) };
      },
    };
  }
}
