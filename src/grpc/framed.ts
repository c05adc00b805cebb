/**
 * Responses encoded with their gRPC frame header already in front. grpc-js frames every response
 * by allocating a buffer 5 bytes larger and copying the message into it
 * (BaseServerInterceptingCall.serializeMessage): for a StreamingPull or Pull response of 1,000
 * messages that is a second megabyte allocated and copied per response (≈ 10 % of the server's
 * time end to end in the profile). Our encoders allocate the 5 bytes in front themselves
 * (framedBody) and the patched serializeMessage sends the whole buffer as it is; any other
 * response takes grpc-js's own path unchanged. Our call layer (call/, under the raw and lean servers) frames with withFrame().
 */
const framed = new WeakSet<Uint8Array>();

/** A buffer for a response body of `size` bytes, with the uncompressed gRPC frame header before it. */
export function framedBody(size: number): Buffer {
  const full = Buffer.allocUnsafe(size + 5);
  full[0] = 0;
  full.writeUInt32BE(size, 1);
  const body = full.subarray(5);
  framed.add(body);
  return body;
}

/** The whole gRPC frame of a response body: the buffer it was cut from, or a copy behind a header. */
export function withFrame(body: Uint8Array): Buffer {
  if (framed.has(body)) return Buffer.from(body.buffer, body.byteOffset - 5, body.byteLength + 5);
  const out = Buffer.allocUnsafe(body.byteLength + 5);
  out[0] = 0;
  out.writeUInt32BE(body.byteLength, 1);
  out.set(body, 5);
  return out;
}

interface InterceptingCall {
  handler: { serialize(value: unknown): Buffer };
  serializeMessage(value: unknown): Buffer;
}

let installed = false;

/** Patches grpc-js (pinned in package.json) once; a body from framedBody() is sent without the copy. */
export function installFramedSend(): void {
  if (installed) return;
  installed = true;
  const mod = require("@grpc/grpc-js/build/src/server-interceptors") as { BaseServerInterceptingCall: { prototype: InterceptingCall } };
  const proto = mod.BaseServerInterceptingCall.prototype;
  if (typeof proto.serializeMessage !== "function") throw new Error("grpc-js changed: BaseServerInterceptingCall.serializeMessage is gone");
  // grpc-js's own framing when the body was not made by framedBody() (the handler is not asked twice).
  proto.serializeMessage = function (this: InterceptingCall, value: unknown): Buffer {
    return withFrame(this.handler.serialize(value));
  };
}
