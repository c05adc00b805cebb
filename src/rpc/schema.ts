/** google.pubsub.v1.SchemaService: each RPC is one call on the broker's schema registry. */
import type { Broker } from "../core/broker.ts";
import type { SchemaRevision } from "../core/schemas/registry.ts";
import { msToTimestamp } from "./convert.ts";
import type { ServiceRpcs } from "./contract.ts";
import type { Schema } from "../../protos/types/google/pubsub/v1/Schema";

const EMPTY = Object.freeze({});

/** BASIC leaves the definition out; Get defaults to FULL, the lists to BASIC (per the proto). */
function schemaToProto(r: SchemaRevision, view: string | undefined, fallback: "BASIC" | "FULL"): Schema {
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

export function schemaRpcs(broker: Broker): ServiceRpcs<"SchemaService"> {
  const schemas = broker.schemas;
  return {
    CreateSchema: (req) => schemaToProto(schemas.create(req.parent ?? "", req.schemaId, req.schema ?? {}), "FULL", "FULL"),
    GetSchema: (req) => schemaToProto(schemas.get(req.name ?? ""), req.view, "FULL"),
    ListSchemas: (req) => {
      const page = schemas.list(req.parent ?? "", req.pageSize, req.pageToken);
      return { schemas: page.items.map((r) => schemaToProto(r, req.view, "BASIC")), nextPageToken: page.nextPageToken };
    },
    ListSchemaRevisions: (req) => {
      const page = schemas.listRevisions(req.name ?? "", req.pageSize, req.pageToken);
      return { schemas: page.items.map((r) => schemaToProto(r, req.view, "BASIC")), nextPageToken: page.nextPageToken };
    },
    CommitSchema: (req) => schemaToProto(schemas.commit(req.name ?? "", req.schema ?? {}), "FULL", "FULL"),
    RollbackSchema: (req) => schemaToProto(schemas.rollback(req.name ?? "", req.revisionId), "FULL", "FULL"),
    DeleteSchemaRevision: (req) =>
      schemaToProto(schemas.deleteRevision(req.name ?? "", req.revisionId), "FULL", "FULL"),
    DeleteSchema: (req) => {
      schemas.delete(req.name ?? "");
      return EMPTY;
    },
    ValidateSchema: (req) => {
      schemas.validateSchema(req.parent ?? "", req.schema ?? {});
      return EMPTY;
    },
    ValidateMessage: (req) => {
      schemas.validateMessage(req.parent ?? "", { name: req.name || undefined, schema: req.schema ?? undefined }, req.message ?? new Uint8Array(0), req.encoding);
      return EMPTY;
    },
  };
}
