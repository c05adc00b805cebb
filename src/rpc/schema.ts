/** google.pubsub.v1.SchemaService: each RPC is one call on the broker's schema registry. */
import type { Broker } from "../core/broker.ts";
import type { SchemaRevision } from "../core/schemas/registry.ts";
import { msToTimestamp } from "./convert.ts";
import type { ProtoObject, UnaryRpc } from "./contract.ts";

const EMPTY = Object.freeze({});

/** BASIC leaves the definition out; Get defaults to FULL, the lists to BASIC (per the proto). */
function schemaToProto(r: SchemaRevision, view: string | undefined, fallback: "BASIC" | "FULL"): ProtoObject {
  const full = (view && view !== "SCHEMA_VIEW_UNSPECIFIED" ? view : fallback) === "FULL";
  return {
    name: r.name,
    type: r.type,
    definition: full ? r.definition : "",
    ...(full && r.compiledProtoSchema ? { compiledProtoSchema: { rootMessage: r.compiledProtoSchema.rootMessage, compiledBytes: r.compiledProtoSchema.compiledBytes } } : {}),
    revisionId: r.revisionId,
    revisionCreateTime: msToTimestamp(r.revisionCreateTime),
  };
}

export function schemaRpcs(broker: Broker): Record<string, UnaryRpc> {
  const schemas = broker.schemas;
  return {
    CreateSchema: (req: ProtoObject) => schemaToProto(schemas.create(req.parent, req.schemaId, req.schema ?? {}), "FULL", "FULL"),
    GetSchema: (req: ProtoObject) => schemaToProto(schemas.get(req.name), req.view, "FULL"),
    ListSchemas: (req: ProtoObject) => {
      const page = schemas.list(req.parent, req.pageSize, req.pageToken);
      return { schemas: page.items.map((r) => schemaToProto(r, req.view, "BASIC")), nextPageToken: page.nextPageToken };
    },
    ListSchemaRevisions: (req: ProtoObject) => {
      const page = schemas.listRevisions(req.name, req.pageSize, req.pageToken);
      return { schemas: page.items.map((r) => schemaToProto(r, req.view, "BASIC")), nextPageToken: page.nextPageToken };
    },
    CommitSchema: (req: ProtoObject) => schemaToProto(schemas.commit(req.name, req.schema ?? {}), "FULL", "FULL"),
    RollbackSchema: (req: ProtoObject) => schemaToProto(schemas.rollback(req.name, req.revisionId), "FULL", "FULL"),
    DeleteSchemaRevision: (req: ProtoObject) =>
      schemaToProto(schemas.deleteRevision(req.name, req.revisionId), "FULL", "FULL"),
    DeleteSchema: (req: ProtoObject) => {
      schemas.delete(req.name);
      return EMPTY;
    },
    ValidateSchema: (req: ProtoObject) => {
      schemas.validateSchema(req.parent, req.schema ?? {});
      return EMPTY;
    },
    ValidateMessage: (req: ProtoObject) => {
      schemas.validateMessage(req.parent, { name: req.name || undefined, schema: req.schema ?? undefined }, req.message ?? new Uint8Array(0), req.encoding);
      return EMPTY;
    },
  };
}
