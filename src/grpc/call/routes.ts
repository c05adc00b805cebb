/**
 * What the gRPC call layer does with each HTTP/2 stream, whatever serves the HTTP/2 (Bun's
 * node:http2 in ../lean/server.ts, our own in ../h2/): routes it by :path to the codecs of methods.ts and
 * the RPC table, and answers what grpc-js answers: 405 for a method that is not POST, 415 for a
 * content type that is not gRPC, UNIMPLEMENTED for an unknown method, trailers-only errors. The
 * probes `GET /` and `GET /health` are answered as on HTTP/1.1, with their bodies.
 */
import { boundMessage } from "../../core/bounded.ts";
import type { DeliveryBatch } from "../../core/delivery/delivery-batch.ts";
import type { StreamRequest } from "../../core/delivery/stream-session.ts";
import type { RpcTable, UnaryRpc } from "../../rpc/table.ts";
import { MAX_MESSAGE, servedDefinition, servedServices } from "../methods.ts";
import { Code } from "../status.ts";
import { probe } from "../../http/probes.ts";
import { Call, trailersOnly } from "./call.ts";
import type { PartialBytes } from "./framing.ts";
import { serveStd, serveStreamingPull, serveUnary } from "./handlers.ts";
import { codecCall, type Codec } from "./server-call.ts";
import type { CallStream, RequestHeaders, ResponseHeaders } from "./stream.ts";
import { HealthState, stdMethods } from "../std/index.ts";
import { STD_MAX_REQUEST, type StdMethod } from "../std/contract.ts";

type Route = { codec: Codec<StreamRequest, DeliveryBatch>; stream: true } | { codec: Codec; stream: false; fn: UnaryRpc | undefined } | { std: StdMethod };

/**
 * The HTTP/2 receive window, per stream (SETTINGS_INITIAL_WINDOW_SIZE) and per connection, in
 * place of HTTP/2's 64 KiB: a 1 MB Publish then arrives without waiting for 16 WINDOW_UPDATE round
 * trips (lean publish, batches of 1,000: server 2.1–2.4 → 1.2–1.4 µs/msg, the client's own CPU
 * 1.6 → 0.5 µs/msg; bench/JOURNAL.md). Both are the same size on purpose: Bun's server sends a
 * stream's WINDOW_UPDATE together with the connection's, so a stream window below half the
 * connection's stalls a request larger than it (measured: 1 MiB / 8 MiB hangs a 1 MB Publish).
 * What a client sends is read at once whatever the window; the 64 MiB message limit bounds one
 * call and `partialBytes` all of them together.
 */
export const RECEIVE_WINDOW = 16 * 2 ** 20;

export interface LeanOptions {
  /** Per stream and per connection; HTTP/2's default is 65,535. */
  receiveWindow?: number;
  /** Most bytes of partly received messages all calls may hold together (framing.ts PartialBytes). */
  partialBytes?: number;
  /** The serving state grpc.health.v1.Health reports (the emulator drains it on shutdown). */
  health?: HealthState;
}

function routes(table: RpcTable, health: HealthState): Map<string, Route> {
  const out = new Map<string, Route>();
  for (const std of stdMethods(health)) out.set(std.path, { std });
  for (const service of servedServices()) {
    for (const [name, m] of Object.entries(servedDefinition(service))) {
      const codec: Codec = { path: m.path, decode: (b) => m.requestDeserialize(b), encode: (v) => m.responseSerialize(v), max: MAX_MESSAGE };
      // The one streaming method served is StreamingPull, whose codecs are the hand-written ones (methods.ts).
      if (m.requestStream) out.set(m.path, { codec: codec as Codec<StreamRequest, DeliveryBatch>, stream: true });
      else out.set(m.path, { codec, stream: false, fn: table.unary.get(`${service}.${name}`) });
    }
  }
  return out;
}

/** Routes each HTTP/2 stream to its call (shared with the raw server, h2/server.ts). */
export function streamHandler(table: RpcTable, partial: PartialBytes, health = new HealthState()): (stream: CallStream, headers: RequestHeaders) => void {
  const byPath = routes(table, health);
  return (stream, headers) => {
    stream.on("error", () => {});
    const method = headers[":method"];
    if (method !== "POST") return void (method === "GET" || method === "HEAD" ? answerProbe(stream, headers[":path"], method) : respond(stream, 405));
    const type = headers["content-type"];
    if (typeof type !== "string" || !type.startsWith("application/grpc")) return void respond(stream, 415);
    const path = String(headers[":path"] ?? "");
    const route = byPath.get(path);
    if (route && "std" in route) return serveStd(new Call(stream, headers, STD_MAX_REQUEST, partial), route.std);
    if (!route || (!route.stream && !route.fn)) {
      return trailersOnly(stream, { code: Code.UNIMPLEMENTED, details: boundMessage(`The server does not implement the method ${path}`) });
    }
    const call = new Call(stream, headers, MAX_MESSAGE, partial);
    if (route.stream) serveStreamingPull(codecCall(call, route.codec), table);
    else serveUnary(codecCall(call, route.codec), route.fn!);
  };
}

/** An HTTP answer with no gRPC status, as grpc-js gives a request that is not gRPC. */
function respond(stream: CallStream, status: number): void {
  try {
    stream.respond({ ":status": status }, { endStream: true });
  } catch {
    // Reset meanwhile.
  }
}

function answerProbe(stream: CallStream, path: string | string[] | undefined, method: string): void {
  const p = probe(typeof path === "string" ? path : undefined);
  if (!p) return respond(stream, 405);
  const headers: ResponseHeaders = { ":status": 200, "content-length": p.body.length };
  if (p.type) {
    headers["content-type"] = p.type;
    headers["cache-control"] = "no-store";
  }
  try {
    if (method === "HEAD") return void stream.respond(headers, { endStream: true });
    stream.respond(headers);
    stream.end(Buffer.from(p.body, "latin1"));
  } catch {
    // Reset meanwhile.
  }
}
