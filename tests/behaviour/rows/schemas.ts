/** SchemaService, and topics bound to a schema. */
import { unique } from "../../helpers/emulator.ts";
import { AVRO, PARENT, pub, schemaPath, schemas, topicPath, type StatusRow } from "./row.ts";

const avro = (definition = AVRO) => ({ type: "AVRO", definition });

export const SCHEMA_ROWS: StatusRow[] = [
  {
    name: "CreateSchema without schema_id → INVALID_ARGUMENT",
    call: schemas("CreateSchema", () => ({ parent: PARENT, schema: avro() })),
    code: "INVALID_ARGUMENT",
    mentions: "schema_id",
  },
  {
    name: "CreateSchema of an existing schema → ALREADY_EXISTS",
    call: schemas("CreateSchema", (f) => ({ parent: PARENT, schemaId: f.schema.split("/")[3], schema: avro() })),
    code: "ALREADY_EXISTS",
    mentions: (f) => f.schema,
  },
  {
    name: "CreateSchema with TYPE_UNSPECIFIED → INVALID_ARGUMENT",
    call: schemas("CreateSchema", () => ({ parent: PARENT, schemaId: unique("sch"), schema: { definition: AVRO } })),
    code: "INVALID_ARGUMENT",
    mentions: "schema.type",
  },
  {
    name: "CreateSchema with a 300 KiB + 1 definition → INVALID_ARGUMENT",
    call: schemas("CreateSchema", () => ({ parent: PARENT, schemaId: unique("sch"), schema: avro(" ".repeat(300 * 1024) + AVRO) })),
    code: "INVALID_ARGUMENT",
    mentions: "307200",
  },
  {
    name: "CreateSchema with a bad parent → INVALID_ARGUMENT",
    call: schemas("CreateSchema", () => ({ parent: "nope", schemaId: unique("sch"), schema: avro() })),
    code: "INVALID_ARGUMENT",
    mentions: "parent",
    grpcOnly: "the parent is the URL's path: outside projects/* no route carries it",
  },
  {
    name: "GetSchema of a missing schema → NOT_FOUND",
    call: schemas("GetSchema", () => ({ name: schemaPath("missing-gs") })),
    code: "NOT_FOUND",
    mentions: "missing-gs",
  },
  {
    name: "GetSchema of a missing revision → NOT_FOUND",
    call: schemas("GetSchema", (f) => ({ name: `${f.schema}@ffffffff` })),
    code: "NOT_FOUND",
    mentions: "ffffffff",
  },
  {
    name: "DeleteSchemaRevision of the only revision → FAILED_PRECONDITION",
    call: schemas("DeleteSchemaRevision", (f) => ({ name: `${f.schema}@${f.schemaRevision}` })),
    code: "FAILED_PRECONDITION",
    mentions: "only revision",
  },
  {
    name: "ValidateMessage of non-conforming data → INVALID_ARGUMENT",
    call: schemas("ValidateMessage", (f) => ({ parent: PARENT, name: f.schema, message: Buffer.from("{}"), encoding: "JSON" })),
    code: "INVALID_ARGUMENT",
    mentions: "Invalid data in message",
  },
  {
    name: "Publish of non-conforming data to a schema topic → INVALID_ARGUMENT",
    call: pub("Publish", (f) => ({ topic: f.schemaTopic, messages: [{ data: Buffer.from("{}") }] })),
    code: "INVALID_ARGUMENT",
    mentions: "messages[0]",
  },
  {
    name: "CreateTopic on a missing schema → NOT_FOUND",
    call: pub("CreateTopic", () => ({ name: topicPath(), schemaSettings: { schema: schemaPath("missing-ct") } })),
    code: "NOT_FOUND",
    mentions: "missing-ct",
  },
  {
    name: "CreateTopic with an unknown first_revision_id → INVALID_ARGUMENT",
    call: pub("CreateTopic", (f) => ({ name: topicPath(), schemaSettings: { schema: f.schema, firstRevisionId: "00000000" } })),
    code: "INVALID_ARGUMENT",
    mentions: "first_revision_id",
  },
];
