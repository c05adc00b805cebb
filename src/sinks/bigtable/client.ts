/**
 * A minimal Bigtable client: MutateRows and ReadRows (data API), GetTable (table admin API) over
 * grpc-js, from the vendored google/bigtable protos (protos/bigtable-descriptor.json), plaintext
 * to an emulator host.
 */
import * as grpc from "@grpc/grpc-js";
import * as loader from "@grpc/proto-loader";
import descriptor from "../../../protos/bigtable-descriptor.json" with { type: "json" };

export interface SetCell {
  familyName: string;
  columnQualifier: Uint8Array;
  timestampMicros: string;
  value: Uint8Array;
}

export interface RowMutation {
  rowKey: Uint8Array;
  cells: SetCell[];
}

/** One entry's outcome: 0 written, else the gRPC code; `message` for the whole call's failure. */
export interface MutateResult {
  codes: number[];
  callCode: number;
  message: string;
}

type BigtableStub = grpc.Client & {
  readRows(req: unknown, opts: grpc.CallOptions): grpc.ClientReadableStream<unknown>;
  mutateRows(req: unknown, opts: grpc.CallOptions): grpc.ClientReadableStream<{ entries?: { index: string | number; status?: { code?: number; message?: string } }[] }>;
};

type AdminStub = grpc.Client & {
  getTable(req: unknown, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, table?: { columnFamilies?: Record<string, unknown>; rowKeySchema?: { fields?: unknown[] } }) => void): void;
};

type Ctor<T> = new (address: string, creds: grpc.ChannelCredentials) => T;
let ctors: { data: Ctor<BigtableStub>; admin: Ctor<AdminStub> } | null = null;

function stubClasses() {
  if (!ctors) {
    const def = loader.fromJSON(descriptor as object, { keepCase: false, longs: String, enums: String, defaults: false });
    const pkg = grpc.loadPackageDefinition(def) as unknown as {
      google: { bigtable: { v2: { Bigtable: Ctor<BigtableStub> }; admin: { v2: { BigtableTableAdmin: Ctor<AdminStub> } } } };
    };
    ctors = { data: pkg.google.bigtable.v2.Bigtable, admin: pkg.google.bigtable.admin.v2.BigtableTableAdmin };
  }
  return ctors;
}

/** What GetTable (SCHEMA_VIEW) tells of a table, or the gRPC code that refused it. */
export type TableSchema = { ok: true; families: ReadonlySet<string>; structuredRowKey: boolean } | { ok: false; code: number; message: string };

export class BigtableClient {
  private stub: BigtableStub;
  private admin: AdminStub;

  constructor(readonly host: string) {
    const { data, admin } = stubClasses();
    this.stub = new data(host, grpc.credentials.createInsecure());
    this.admin = new admin(host, grpc.credentials.createInsecure());
  }

  /** The table's column families and whether it has a structured row key (GetTable, SCHEMA_VIEW). */
  tableSchema(tableName: string, timeoutMs = 10_000): Promise<TableSchema> {
    return new Promise((resolve) => {
      this.admin.getTable({ name: tableName, view: "SCHEMA_VIEW" }, { deadline: Date.now() + timeoutMs }, (err, table) => {
        if (err) return resolve({ ok: false, code: err.code ?? 2, message: err.details ?? "" });
        resolve({ ok: true, families: new Set(Object.keys(table?.columnFamilies ?? {})), structuredRowKey: !!table?.rowKeySchema?.fields?.length });
      });
    });
  }

  mutateRows(tableName: string, appProfileId: string, rows: readonly RowMutation[], timeoutMs = 30_000): Promise<MutateResult> {
    const codes = rows.map(() => 2); // UNKNOWN until the server reports the entry
    const request = {
      tableName,
      appProfileId,
      entries: rows.map((r) => ({ rowKey: r.rowKey, mutations: r.cells.map((setCell) => ({ setCell })) })),
    };
    return new Promise((resolve) => {
      const call = this.stub.mutateRows(request, { deadline: Date.now() + timeoutMs });
      call.on("data", (res) => {
        for (const e of res.entries ?? []) {
          const i = Number(e.index ?? 0); // proto3: index 0 is left out
          if (i >= 0 && i < codes.length) codes[i] = e.status?.code ?? 0;
        }
      });
      call.on("error", (err: grpc.ServiceError) => resolve({ codes, callCode: err.code ?? 2, message: err.details ?? "" }));
      call.on("end", () => resolve({ codes, callCode: 0, message: "" }));
    });
  }

  /** The gRPC code of reading at most one row: 0 when the table exists, 5 when it does not. */
  probe(tableName: string, appProfileId: string, timeoutMs = 10_000): Promise<{ code: number; message: string }> {
    return new Promise((resolve) => {
      const call = this.stub.readRows({ tableName, appProfileId, rowsLimit: 1 }, { deadline: Date.now() + timeoutMs });
      call.on("data", () => {});
      call.on("error", (err: grpc.ServiceError) => resolve({ code: err.code ?? 2, message: err.details ?? "" }));
      call.on("end", () => resolve({ code: 0, message: "" }));
    });
  }

  close(): void {
    this.stub.close();
    this.admin.close();
  }
}
