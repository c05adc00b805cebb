/**
 * A header block whose bytes repeat the last one's, with the dynamic table unchanged since, is not
 * decoded again (h2/hpack.ts): its fields and the field check's verdict are the last time's. These
 * check that the shortcut is taken only when the answer would be the same: after a block that
 * changed the table, for trailers after a request, and for blocks that change the table themselves.
 */
import { expect, test } from "bun:test";
import { HeaderDecoder } from "../../src/grpc/h2/hpack.ts";
import { FieldCheck } from "../../src/grpc/h2/fields.ts";
import { indexed, literal, requestBlock } from "../helpers/h2-peer.ts";

const PATH = "/google.pubsub.v1.Publisher/GetTopic";
/** Dynamic table index 62: the newest entry. */
const NEWEST = Buffer.from([0x80 | 62]);

function decodeAs(d: HeaderDecoder, block: Buffer, trailers = false) {
  const check = new FieldCheck();
  check.start(trailers);
  const fields = d.decode(block, check);
  return { fields: fields && { ...fields }, error: check.end(), contentLength: check.contentLength };
}

test("a repeated block decodes to the same fields and verdict as the first time", () => {
  const d = new HeaderDecoder(4096, 64 * 1024);
  const block = requestBlock(PATH, [literal("content-length", "5")]);
  const first = decodeAs(d, block);
  expect(first.fields?.[":path"]).toBe(PATH);
  expect(first.error).toBeNull();
  expect(first.contentLength).toBe(5);
  for (let i = 0; i < 3; i++) expect(decodeAs(d, Buffer.from(block))).toEqual(first);
  // A malformed one keeps its verdict too.
  const bad = requestBlock(PATH, [literal("connection", "keep-alive")]);
  const verdict = decodeAs(d, bad).error;
  expect(verdict).toContain("connection");
  expect(decodeAs(d, bad).error).toBe(verdict);
});

test("the same bytes naming a dynamic entry decode anew after a block changed the table", () => {
  const d = new HeaderDecoder(4096, 64 * 1024);
  decodeAs(d, requestBlock(PATH, [indexed("x-tag", "one")]));
  const names = Buffer.concat([requestBlock(PATH), NEWEST]);
  expect(decodeAs(d, names).fields?.["x-tag"]).toBe("one");
  expect(decodeAs(d, names).fields?.["x-tag"]).toBe("one");
  decodeAs(d, requestBlock(PATH, [indexed("x-tag", "two")]));
  expect(decodeAs(d, names).fields?.["x-tag"]).toBe("two");
});

test("a block that adds to the table is decoded each time (the table grows each time)", () => {
  const d = new HeaderDecoder(4096, 64 * 1024);
  const adds = requestBlock(PATH, [indexed("x-n", "a")]);
  decodeAs(d, adds);
  decodeAs(d, adds);
  // Two entries now: index 63 is the first copy.
  expect(decodeAs(d, Buffer.concat([requestBlock(PATH), Buffer.from([0x80 | 63])])).fields?.["x-n"]).toBe("a");
});

test("the same bytes as trailers after a request get the trailers' verdict, and back", () => {
  const d = new HeaderDecoder(4096, 64 * 1024);
  const block = requestBlock(PATH);
  expect(decodeAs(d, block).error).toBeNull();
  expect(decodeAs(d, block, true).error).toContain("pseudo-header");
  expect(decodeAs(d, block).error).toBeNull();
});
