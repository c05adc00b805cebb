/**
 * UTF-8 checking for the requests protobufjs decodes (every RPC without a hand-written codec).
 * protobufjs decodes a `string` field's bad bytes to U+FFFD; the real service rejects the
 * request. This walks the wire bytes by the request's descriptor and throws naming the first
 * `string` field (map keys and values included) that is not UTF-8. The walk only runs for a
 * request whose decoded strings hold U+FFFD, so the descriptor is parsed only if one ever comes.
 */
import { isUtf8 } from "node:buffer";
import type protobuf from "protobufjs";
import { protoRoot } from "../proto/descriptor.ts";
import { Malformed, Reader } from "./codec/wire.ts";
import { invalidUtf8 } from "./malformed.ts";

/** Deeper than any Pub/Sub request nests; past it the request is refused, never recursed into. */
const MAX_DEPTH = 32;

/** The request message type of `service`'s `method` (built from the descriptor on first use). */
export function requestType(service: string, method: string): protobuf.Type {
  const type = protoRoot().lookupService(service).methods[method].resolvedRequestType!;
  pb ??= require("protobufjs") as typeof protobuf; // a literal require: the compiled binary bundles it
  return type;
}

/** protobufjs, loaded with the first request that needs the walk (never at start). */
let pb: typeof protobuf | undefined;

/** Throws (BadField) when a `string` field of this serialized `type` is not UTF-8. */
export function checkUtf8(type: protobuf.Type, buf: Buffer): void {
  walk(type, buf, 0, buf.length, "", 0);
}

/** Whether a decoded request holds a string with U+FFFD anywhere (bytes fields are not looked into). */
export function hasReplacementChar(v: unknown, depth: number): boolean {
  if (typeof v === "string") return v.includes("\uFFFD");
  if (typeof v !== "object" || v === null || ArrayBuffer.isView(v) || depth > MAX_DEPTH) return false;
  if (Array.isArray(v)) return v.some((x) => hasReplacementChar(x, depth + 1));
  for (const k of Object.keys(v)) {
    if (k.includes("\uFFFD") || hasReplacementChar((v as Record<string, unknown>)[k], depth + 1)) return true;
  }
  return false;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function walk(type: protobuf.Type, buf: Buffer, start: number, end: number, prefix: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new Malformed("message nested too deeply");
  const r = new Reader(buf, end);
  r.pos = start;
  while (!r.done) {
    const tag = r.varint();
    const wireType = tag & 7;
    const field = wireType === 2 ? type.fieldsById[Math.floor(tag / 8)] : undefined;
    if (!field) {
      r.skip(wireType);
      continue;
    }
    const [s, e] = r.span();
    const name = prefix + snake(field.name);
    if (field instanceof pb!.MapField) walkMapEntry(field, buf, s, e, name, depth);
    else if (field.type === "string") checkBytes(buf, s, e, name);
    else if (field.resolvedType instanceof pb!.Type) walk(field.resolvedType, buf, s, e, `${name}.`, depth + 1);
  }
}

/** A map entry: key = field 1, value = field 2. */
function walkMapEntry(field: protobuf.MapField, buf: Buffer, start: number, end: number, name: string, depth: number): void {
  const r = new Reader(buf, end);
  r.pos = start;
  while (!r.done) {
    const tag = r.varint();
    if (tag === 0x0a && field.keyType === "string") {
      const [s, e] = r.span();
      checkBytes(buf, s, e, name);
    } else if (tag === 0x12 && field.type === "string") {
      const [s, e] = r.span();
      checkBytes(buf, s, e, name);
    } else if (tag === 0x12 && field.resolvedType instanceof pb!.Type) {
      const [s, e] = r.span();
      walk(field.resolvedType, buf, s, e, `${name}.`, depth + 1);
    } else r.skip(tag & 7);
  }
}

function checkBytes(buf: Buffer, start: number, end: number, name: string): void {
  for (let i = start; i < end; i++) {
    if (buf[i] >= 0x80) {
      if (!isUtf8(buf.subarray(start, end))) throw invalidUtf8(name);
      return;
    }
  }
}
