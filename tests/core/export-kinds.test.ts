/** The pure parts of the BigQuery and Bigtable kinds: names, values, the fit rules. */
import { describe, expect, test } from "bun:test";
import { parseTable } from "../../src/core/kinds/bigquery/config.ts";
import { parseBigtableTable } from "../../src/core/kinds/bigtable/config.ts";
import { checkFit } from "../../src/core/kinds/bigquery/fit.ts";
import { parseTableSchema, type BqTable } from "../../src/core/kinds/bigquery/table-schema.ts";
import * as V from "../../src/core/kinds/bigquery/values.ts";

const table = (cols: unknown[]) => parseTableSchema(cols) as BqTable;

describe("table names", () => {
  test("BigQuery: project.dataset.table, legacy project:dataset.table, domain-scoped projects", () => {
    expect(parseTable("my-proj.ds_1.events")).toEqual({ project: "my-proj", dataset: "ds_1", table: "events" });
    expect(parseTable("my-proj:ds.t")).toEqual({ project: "my-proj", dataset: "ds", table: "t" });
    expect(parseTable("example.com:my-proj.ds.t")?.project).toBe("example.com:my-proj");
    for (const bad of ["ds.t", "p.ds.t", "Proj.ds.t", "proj-.ds.t", "my-proj.ds.", "my-proj..t", "my-proj.ds.a/b", "my-proj.d-s.t", "my-proj.ds. t", "__proto__.ds.t"]) {
      expect(parseTable(bad)).toBeNull();
    }
  });
  test("Bigtable: projects/p/instances/i/tables/t", () => {
    expect(parseBigtableTable("projects/my-proj/instances/inst-1/tables/t.1_x")).toEqual({ project: "my-proj", instance: "inst-1", table: "t.1_x" });
    for (const bad of ["t", "projects/my-proj/instances/i/tables/t", "projects/my-proj/instances/inst-1/tables/", "projects/my-proj/instances/inst-1/tables/../x"]) {
      expect(parseBigtableTable(bad)).toBeNull();
    }
  });
});

describe("values", () => {
  test("timestamps from strings with offsets, from micros, out of range", () => {
    expect(V.timestampFromString("2024-01-02 03:04:05.123 UTC")).toBe("2024-01-02T03:04:05.123000Z");
    expect(V.timestampFromString("2024-01-02T03:04:05-02:30")).toBe("2024-01-02T05:34:05.000000Z");
    expect(V.timestampFromString("0001-01-01T00:00:00Z")).toBe("0001-01-01T00:00:00.000000Z");
    expect(V.timestampFromString("2024-02-30T00:00:00Z")).toBe(V.BAD);
    expect(V.timestampFromMicros(-1n)).toBe("1969-12-31T23:59:59.999999Z");
    expect(V.timestampFromMicros(253402300800000000n)).toBe(V.BAD);
  });
  test("DATE, TIME, DATETIME (strings, days, micros, packed civil time)", () => {
    expect(V.dateFromDays(19000)).toBe("2022-01-08");
    expect(V.dateFromDays(-719162)).toBe("0001-01-01");
    expect(V.dateFromDays(2932897)).toBe(V.BAD);
    expect(V.timeFromMicros(3723000004n)).toBe("01:02:03.000004");
    expect(V.timeFromString("24:00:00")).toBe(V.BAD);
    expect(V.datetimeFromString("2024-02-29 23:59:59.5")).toBe("2024-02-29T23:59:59.500000");
    // 2019-08-14T12:34:56.000789 packed as BigQuery's CivilTimeEncoder does.
    const packed = (((((2019n << 4n | 8n) << 5n | 14n) << 5n | 12n) << 6n | 34n) << 6n | 56n) << 20n | 789n;
    expect(V.datetimeFromPacked(packed)).toBe("2019-08-14T12:34:56.000789");
  });
  test("NUMERIC holds 29.9 digits and BIGNUMERIC 38.38; Avro decimals from two's complement bytes", () => {
    expect(V.numericFromString("00123.4500", false)).toBe("123.45");
    expect(V.numericFromString("-1e3", false)).toBe("-1000");
    expect(V.numericFromString("1.0000000001", false)).toBe(V.BAD);
    expect(V.numericFromString("1.0000000001", true)).toBe("1.0000000001");
    expect(V.numericFromString("1".repeat(30), false)).toBe(V.BAD);
    expect(V.numericFromString("abc", false)).toBe(V.BAD);
    expect(V.numericFromDecimalBytes(new Uint8Array([0xff, 0x85]), 2, false)).toBe("-1.23");
  });
  test("INTEGER cells: JSON numbers while safe, decimal strings beyond, BAD past int64", () => {
    expect(V.integerCell(5)).toBe(5);
    expect(V.integerCell(9007199254740993n)).toBe("9007199254740993");
    expect(V.integerCell(2n ** 63n)).toBe(V.BAD);
  });
});

describe("fit", () => {
  const meta = [
    { name: "subscription_name", type: "STRING" },
    { name: "message_id", type: "STRING" },
    { name: "publish_time", type: "TIMESTAMP" },
    { name: "attributes", type: "JSON" },
  ];
  const base = { writeMetadata: false, dropUnknownFields: false, useTableSchema: false };
  test("plain: a data column of BYTES, STRING or JSON; REQUIRED columns nothing writes do not fit", () => {
    expect(checkFit({ ...base, table: table([{ name: "DATA", type: "BYTES" }]) })).toBeNull();
    expect(checkFit({ ...base, table: table([{ name: "data", type: "INTEGER" }]) })).toContain("data");
    expect(checkFit({ ...base, table: table([{ name: "data", type: "STRING" }, { name: "x", type: "STRING", mode: "REQUIRED" }]) })).toContain("REQUIRED");
  });
  test("write_metadata needs each metadata column with its type", () => {
    expect(checkFit({ ...base, writeMetadata: true, table: table([{ name: "data", type: "STRING" }, ...meta]) })).toBeNull();
    const wrong = meta.map((c) => (c.name === "publish_time" ? { ...c, type: "STRING" } : c));
    expect(checkFit({ ...base, writeMetadata: true, table: table([{ name: "data", type: "STRING" }, ...wrong]) })).toContain("publish_time");
  });
  test("topic fields: unmappable unions and oneofs do not fit", () => {
    const topicFields = [{ name: "u", kind: "null", optional: false, repeated: false, unmappable: "a union" }];
    expect(checkFit({ ...base, topicFields, table: table([{ name: "u", type: "STRING" }]) })).toContain("union");
  });
  test("a table schema file that is not one is refused with a reason", () => {
    expect(parseTableSchema({})).toContain("array");
    expect(parseTableSchema([{ name: "a", type: "WHAT" }])).toContain("unknown type");
    expect(parseTableSchema([{ name: "a", type: "STRING" }, { name: "A", type: "STRING" }])).toContain("twice");
  });
});
