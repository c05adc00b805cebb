/**
 * Sends arbitrary bytes as a gRPC request body (malformed protobuf, invalid UTF-8) and reports the
 * status, with a deadline on every call so a server that never answers shows up as a hang.
 */
import * as grpc from "@grpc/grpc-js";
import { packageDefinition } from "../../src/grpc/proto.ts";
import { SERVICES as SERVED } from "../../src/rpc/services.ts";
import { CLIENT_OPTIONS, type CallStatus } from "./raw-grpc.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export const SERVICES: readonly string[] = Object.values(SERVED);

export interface Method {
  service: string;
  name: string;
  path: string;
  streaming: boolean;
  /** protobufjs serializer of the request, for valid bodies to mutate. */
  encode(req: Obj): Buffer;
}

/** Every RPC of every service the emulator serves. */
export function methods(): Method[] {
  return SERVICES.flatMap((service) =>
    Object.entries(packageDefinition[service] as Record<string, grpc.MethodDefinition<Obj, Obj>>).map(([name, m]) => ({
      service,
      name,
      path: m.path,
      streaming: m.requestStream,
      encode: (req: Obj) => m.requestSerialize(req),
    })),
  );
}

export function method(service: keyof typeof SERVED, name: string): Method {
  return methods().find((m) => m.service.endsWith(service) && m.name === name)!;
}


const identity = (b: Buffer) => b;

/** A raw channel to the emulator; `send` issues one call with a body of bytes. Code -1: no status came within the bound (a hang). */
export function rawChannel(endpoint: string) {
  const client = new grpc.Client(endpoint, grpc.credentials.createInsecure(), CLIENT_OPTIONS);
  return {
    send(m: Method, body: Buffer, boundMs = 5000): Promise<CallStatus> {
      return m.streaming ? stream(client, m, [body], boundMs) : unary(client, m, body, boundMs);
    },
    /** A StreamingPull with several request bodies; cancelled after `boundMs` if still open. */
    stream: (m: Method, bodies: Buffer[], boundMs = 5000) => stream(client, m, bodies, boundMs),
    close: () => client.close(),
  };
}

function unary(client: grpc.Client, m: Method, body: Buffer, boundMs: number): Promise<CallStatus> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(m.path, identity, identity, body, { deadline: Date.now() + boundMs }, (err) =>
      resolve(err ? { code: err.code === grpc.status.DEADLINE_EXCEEDED ? -1 : err.code, details: err.details } : { code: 0, details: "" }),
    );
  });
}

/** Writes the bodies; a stream still open at the bound is cancelled and counted as open (code 0). */
function stream(client: grpc.Client, m: Method, bodies: Buffer[], boundMs: number): Promise<CallStatus> {
  return new Promise((resolve) => {
    const call = client.makeBidiStreamRequest(m.path, identity, identity, { deadline: Date.now() + boundMs + 2000 });
    let done = false;
    const finish = (o: CallStatus) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(o);
    };
    const timer = setTimeout(() => {
      call.cancel();
      finish({ code: 0, details: "open" });
    }, boundMs);
    call.on("data", () => {});
    call.on("error", (e: grpc.ServiceError) => finish({ code: e.code === grpc.status.DEADLINE_EXCEEDED ? -1 : e.code, details: e.details }));
    call.on("status", (s: grpc.StatusObject) => finish({ code: s.code, details: s.details }));
    for (const b of bodies) call.write(b);
  });
}

/**
 * Encodes `req` and replaces every occurrence of `marker` (an ASCII string inside it) with
 * `bytes` of the same length: a body whose string fields hold bytes no encoder would write.
 */
export function withBytes(encoded: Buffer, marker: string, bytes: number[]): Buffer {
  const m = Buffer.from(marker, "latin1");
  if (m.length !== bytes.length) throw new Error("marker and bytes must have the same length");
  const out = Buffer.from(encoded);
  for (let i = out.indexOf(m); i >= 0; i = out.indexOf(m, i + 1)) Buffer.from(bytes).copy(out, i);
  return out;
}
