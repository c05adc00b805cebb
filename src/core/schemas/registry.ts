/**
 * The SchemaService's resources: schemas and their revisions (newest last), each revision
 * compiled once when it is created. Names are `projects/{p}/schemas/{id}`, a revision is
 * addressed as `…/schemas/{id}@{revisionId}`.
 */
import type { Clock } from "../clock.ts";
import { PubSubError, alreadyExists, bounded, failedPrecondition, invalid, notFound } from "../errors.ts";
import { parseName, parseProject } from "../rules/names.ts";
import { paginate, type Page } from "../rules/paging.ts";
import { PROJECT_QUOTAS, ProjectMap } from "../rules/quotas.ts";
import { compileSchema, hasCompiledProto, type CompiledProtoInput } from "./compile.ts";
import { fromBase64, toBase64 } from "../base64.ts";
import type { CompiledSchema, SchemaType } from "./compiled.ts";

export interface SchemaRevision {
  readonly name: string;
  readonly type: SchemaType;
  readonly definition: string;
  /** Set instead of `definition` for a compiled Protocol Buffer schema. */
  readonly compiledProtoSchema?: CompiledProto;
  /** Eight hex digits, as the real service's (`c7cfa2a8`). */
  readonly revisionId: string;
  /** Milliseconds since the epoch. */
  readonly revisionCreateTime: number;
  /** Creation order across the registry: revision ranges compare these. */
  readonly seq: number;
  readonly compiled: CompiledSchema;
}

export interface CompiledProto {
  readonly rootMessage: string;
  readonly compiledBytes: Uint8Array;
}

/** What a store keeps of a revision: enough to compile it again (compiled bytes as base64: JSON). */
export interface StoredRevision {
  readonly revisionId: string;
  readonly type: SchemaType;
  readonly definition: string;
  readonly compiledProtoSchema?: { readonly rootMessage: string; readonly compiledBytes: string };
  readonly revisionCreateTime: number;
}

function storedCompiled(c: CompiledProto | undefined): StoredRevision["compiledProtoSchema"] {
  return c && { rootMessage: c.rootMessage, compiledBytes: toBase64(c.compiledBytes) };
}

function restoredCompiled(c: StoredRevision["compiledProtoSchema"]): CompiledProto | undefined {
  return c && { rootMessage: c.rootMessage, compiledBytes: fromBase64(c.compiledBytes) };
}

export interface SchemaRecord {
  name: string;
  /** Oldest first. */
  revisions: StoredRevision[];
}

/** Where every change of a schema is written (the broker's store). */
export interface SchemaWriter {
  putSchema(name: string, revisions: readonly StoredRevision[]): void;
  deleteSchema(name: string): void;
}

const NO_WRITER: SchemaWriter = { putSchema() {}, deleteSchema() {} };

export interface SchemaInput {
  type?: string;
  definition?: string;
  compiledProtoSchema?: CompiledProtoInput | null;
}

export const SCHEMA_LIMITS = { schemasPerProject: PROJECT_QUOTAS.schemas, revisionsPerSchema: 20 } as const;

export class SchemaRegistry {
  /** Revisions of each schema, oldest first. */
  private schemas = new ProjectMap<SchemaRevision[]>();
  private seq = 0;
  /** Called after a schema is deleted (topics then report `_deleted-schema_`). */
  onDelete: (name: string) => void = () => {};

  constructor(
    private clock: Clock,
    private writer: SchemaWriter = NO_WRITER,
    private maxPerProject: number = SCHEMA_LIMITS.schemasPerProject,
  ) {}

  /**
   * Rebuilds the schemas a store kept, compiling each revision again; creation order (which
   * revision ranges compare) follows the stored order.
   */
  restore(records: readonly SchemaRecord[]): void {
    for (const { name, revisions } of records) {
      if (!revisions.length) continue;
      this.schemas.set(
        name,
        revisions.map((r) => {
          const compiledProtoSchema = restoredCompiled(r.compiledProtoSchema);
          const compiled = compileSchema(r.type, r.definition, compiledProtoSchema);
          return { name, type: r.type, definition: r.definition, compiledProtoSchema, revisionId: r.revisionId, revisionCreateTime: r.revisionCreateTime, seq: ++this.seq, compiled };
        }),
      );
    }
  }

  create(parent: string, schemaId: string | undefined, input: SchemaInput): SchemaRevision {
    const project = parseProject(parent, "parent");
    if (!schemaId) throw invalid("schema_id is required.");
    const name = `projects/${project}/schemas/${schemaId}`;
    parseName(name, "schemas", "schema_id");
    if (this.schemas.has(name)) throw alreadyExists(name);
    this.schemas.admit(name, "schemas", this.maxPerProject);
    const revision = this.revision(name, input);
    this.schemas.set(name, [revision]);
    this.write(name);
    return revision;
  }

  /** `name` may end in `@{revisionId}`; without it the newest revision answers. */
  get(name: string, field = "name"): SchemaRevision {
    const { base, revisionId } = splitRevision(name, field);
    const revisions = this.revisions(base);
    if (!revisionId) return revisions[revisions.length - 1];
    const found = revisions.find((r) => r.revisionId === revisionId);
    if (!found) throw notFound(name);
    return found;
  }

  has(name: string): boolean {
    return this.schemas.has(name);
  }

  /** Revisions created in [from, to] (creation order), newest first; undefined once the schema is gone. */
  range(name: string, from: number, to: number): SchemaRevision[] | undefined {
    const revisions = this.schemas.get(name);
    if (!revisions) return undefined;
    const out: SchemaRevision[] = [];
    for (let i = revisions.length - 1; i >= 0; i--) if (revisions[i].seq >= from && revisions[i].seq <= to) out.push(revisions[i]);
    return out;
  }

  /** The newest revision of each schema of the project. */
  list(parent: string, pageSize?: number, pageToken?: string): Page<SchemaRevision> {
    const prefix = `projects/${parseProject(parent, "parent")}/schemas/`;
    const latest = [...this.schemas].filter(([n]) => n.startsWith(prefix)).map(([, r]) => r[r.length - 1]);
    return paginate(latest, (r) => r.name, pageSize, pageToken);
  }

  /** Every revision of a schema, newest first. */
  listRevisions(name: string, pageSize?: number, pageToken?: string): Page<SchemaRevision> {
    const revisions = this.revisions(splitRevision(name, "name").base);
    return paginate([...revisions], (r) => `${r.name}@${(Number.MAX_SAFE_INTEGER - r.seq).toString().padStart(16, "0")}`, pageSize, pageToken);
  }

  /** A new revision; it must keep the type and be compatible with the newest one. */
  commit(name: string, input: SchemaInput): SchemaRevision {
    const revisions = this.revisions(splitRevision(name, "name").base);
    const latest = revisions[revisions.length - 1];
    if (input.type !== undefined && input.type !== "TYPE_UNSPECIFIED" && input.type !== latest.type) {
      throw invalid(`Invalid schema.type: a revision of ${latest.name} must keep its type ${latest.type}.`);
    }
    const revision = this.revision(latest.name, { type: latest.type, definition: input.definition, compiledProtoSchema: input.compiledProtoSchema });
    const problem = revision.compiled.canFollow(latest.compiled);
    if (problem) throw invalid(`The new revision of ${latest.name} is not compatible with revision ${latest.revisionId}: ${problem}.`);
    return this.append(revisions, revision);
  }

  /** A new revision whose definition is that of `revisionId`. */
  rollback(name: string, revisionId: string | undefined): SchemaRevision {
    if (!revisionId) throw invalid("revision_id is required.");
    const from = this.get(`${splitRevision(name, "name").base}@${revisionId}`);
    const revisions = this.revisions(from.name);
    return this.append(revisions, { ...from, revisionId: this.newRevisionId(revisions), revisionCreateTime: this.clock.now(), seq: ++this.seq });
  }

  /** Deletes one revision (named `…@{id}`, or by the deprecated revision_id); the last one stays. */
  deleteRevision(name: string, revisionId?: string): SchemaRevision {
    const ref = splitRevision(name, "name");
    const id = ref.revisionId || revisionId;
    if (!id) throw invalid(`Invalid name (name=${bounded(name)}): expected projects/{project}/schemas/{schema}@{revision_id}.`);
    const revisions = this.revisions(ref.base);
    const i = revisions.findIndex((r) => r.revisionId === id);
    if (i < 0) throw notFound(`${ref.base}@${id}`);
    if (revisions.length === 1) throw failedPrecondition(`Revision ${id} is the only revision of ${ref.base} and cannot be deleted; delete the schema instead.`);
    const [deleted] = revisions.splice(i, 1);
    this.write(ref.base);
    return deleted;
  }

  delete(name: string): void {
    const base = splitRevision(name, "name").base;
    this.revisions(base);
    this.schemas.delete(base);
    this.writer.deleteSchema(base);
    this.onDelete(base);
  }

  /** ValidateSchema: the definition compiles. */
  validateSchema(parent: string, input: SchemaInput): void {
    parseProject(parent, "parent");
    compileSchema(input.type, input.definition, input.compiledProtoSchema);
  }

  /** ValidateMessage against a stored schema (`name`, optionally `@revision`) or an inline one. */
  validateMessage(parent: string, spec: { name?: string; schema?: SchemaInput }, data: Uint8Array, encoding?: string): void {
    parseProject(parent, "parent");
    let compiled: CompiledSchema;
    if (spec.name) compiled = this.get(spec.name).compiled;
    else if (spec.schema) compiled = compileSchema(spec.schema.type, spec.schema.definition, spec.schema.compiledProtoSchema);
    else throw invalid("Either name or schema must be set.");
    if (encoding !== undefined && !["JSON", "BINARY", "ENCODING_UNSPECIFIED"].includes(encoding)) {
      throw invalid(`Invalid encoding: ${bounded(encoding)}.`);
    }
    // Unset, the encoding is JSON, as for a topic.
    const problem = compiled.check(data, encoding === "BINARY" ? "BINARY" : "JSON");
    if (problem) throw invalid(`Invalid data in message: ${problem}`);
  }

  /** Forgets every schema whose name starts with `prefix` ("" = all). */
  clear(prefix = ""): void {
    for (const name of [...this.schemas.keys()]) {
      if (!name.startsWith(prefix)) continue;
      this.schemas.delete(name);
      this.writer.deleteSchema(name);
    }
  }

  private write(name: string): void {
    const revisions = this.schemas.get(name)!;
    this.writer.putSchema(
      name,
      revisions.map(({ revisionId, type, definition, compiledProtoSchema, revisionCreateTime }) =>
        compiledProtoSchema
          ? { revisionId, type, definition, compiledProtoSchema: storedCompiled(compiledProtoSchema), revisionCreateTime }
          : { revisionId, type, definition, revisionCreateTime },
      ),
    );
  }

  private revisions(name: string): SchemaRevision[] {
    const revisions = this.schemas.get(name);
    if (revisions) return revisions;
    parseName(name, "schemas");
    throw notFound(name);
  }

  private revision(name: string, input: SchemaInput): SchemaRevision {
    const compiled = compileSchema(input.type, input.definition, input.compiledProtoSchema);
    const existing = this.schemas.get(name) ?? [];
    const c = input.compiledProtoSchema;
    return {
      name,
      type: input.type as SchemaType,
      definition: input.definition ?? "",
      // A copy: the request's bytes may be a view into a buffer the transport reuses.
      compiledProtoSchema: hasCompiledProto(c) ? { rootMessage: c.rootMessage!, compiledBytes: new Uint8Array(c.compiledBytes!) } : undefined,
      revisionId: this.newRevisionId(existing),
      revisionCreateTime: this.clock.now(),
      seq: ++this.seq,
      compiled,
    };
  }

  private append(revisions: SchemaRevision[], revision: SchemaRevision): SchemaRevision {
    if (revisions.length >= SCHEMA_LIMITS.revisionsPerSchema) {
      throw new PubSubError(
        "RESOURCE_EXHAUSTED",
        `${revision.name} already has ${revisions.length} revisions, the maximum allowed; delete a revision first.`,
      );
    }
    revisions.push(revision);
    this.write(revision.name);
    return revision;
  }

  private newRevisionId(existing: readonly SchemaRevision[]): string {
    for (;;) {
      const id = Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, "0");
      if (!existing.some((r) => r.revisionId === id)) return id;
    }
  }
}

/** Splits `projects/{p}/schemas/{id}@{revision}` and validates the schema name. */
export function splitRevision(name: string | undefined, field: string): { base: string; revisionId: string } {
  const at = (name ?? "").indexOf("@");
  const base = at < 0 ? (name ?? "") : name!.slice(0, at);
  parseName(base, "schemas", field);
  return { base, revisionId: at < 0 ? "" : name!.slice(at + 1) };
}
