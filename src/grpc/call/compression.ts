/**
 * Request messages a client compressed (flag byte 1) with the call's grpc-encoding: gzip and
 * deflate, as grpc-js accepts, inflated up to the receive limit. Responses are never compressed
 * (grpc-js does not compress them either).
 */
import type * as Zlib from "node:zlib";
import { Code, type GrpcStatus } from "../status.ts";
import { boundMessage } from "../../core/bounded.ts";

// node:zlib is loaded with the first compressed message: ≈ 4–9 MiB of idle RSS a server without one never needs (issue 21).
let zlib: typeof Zlib | undefined;

/** The body of a message, or the status that ends the call. */
export function inflate(body: Buffer, encoding: string, max: number): Buffer | GrpcStatus {
  if (encoding === "identity") return body; // flag 1 with no encoding: grpc-js reads it as it is
  if (encoding !== "gzip" && encoding !== "deflate") {
    return { code: Code.UNIMPLEMENTED, details: boundMessage(`Received message compressed with unsupported encoding "${encoding}"`) };
  }
  try {
    const o = { maxOutputLength: max + 1 };
    const z = (zlib ??= require("node:zlib") as typeof Zlib);
    const out = encoding === "gzip" ? z.gunzipSync(body, o) : z.inflateSync(body, o);
    if (out.length > max) throw new RangeError("too large");
    return out;
  } catch (e) {
    if (e instanceof RangeError || (e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      return { code: Code.RESOURCE_EXHAUSTED, details: `Received message that decompresses to a size larger than ${max}` };
    }
    // grpc-js answers INTERNAL; bytes a client sends are never INTERNAL here.
    return { code: Code.INVALID_ARGUMENT, details: `The request message could not be decompressed with ${encoding}.` };
  }
}
