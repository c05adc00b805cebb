/**
 * The two transports the behaviour suite runs over: the same call (service, method, proto-loader
 * shaped request) through a raw gRPC client and through a raw REST client, and the outcome of
 * either as one shape: gRPC code, message, and the google.rpc details normalized.
 */
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { fileURLToPath } from "node:url";
import { grpcClients, streamStatus } from "../helpers/raw-grpc.ts";
import { rawRest, type RestError } from "../helpers/raw-rest.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export interface Outcome {
  code: number;
  message: string;
  /** Each detail as `{ type: "BadRequest", …its fields in JSON names }`. */
  details: Obj[];
}

export interface Client {
  call(service: string, method: string, req: Obj): Promise<Obj>;
  /** StreamingPull: the status the stream ends with; undefined where the transport has none. */
  stream?(requests: Obj[]): Promise<Outcome>;
  close(): void;
}

export interface Transport {
  name: "gRPC" | "REST";
  open(endpoint: string): Client;
  /** The outcome of a call; code 0 (OK) on success. */
  outcome(p: Promise<unknown>): Promise<Outcome>;
}

const DIR = fileURLToPath(new URL("../../protos/", import.meta.url));
const root = new protobuf.Root();
root.resolvePath = (_o, target) => DIR + target;
root.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"]);
const Status = root.lookupType("google.rpc.Status");

/** The details of grpc-status-details-bin, decoded by protobufjs (not by our encoder's twin). */
function grpcDetails(err: grpc.ServiceError): Obj[] {
  const bin = err.metadata?.get("grpc-status-details-bin")[0];
  if (!bin) return [];
  const status = Status.decode(bin as Buffer) as unknown as { details: { type_url: string; value: Uint8Array }[] };
  return status.details.map((any) => {
    const type = any.type_url.slice(any.type_url.lastIndexOf("/") + 1);
    const t = root.lookupType(type);
    return { type: type.replace("google.rpc.", ""), ...t.toObject(t.decode(any.value), { longs: String }) };
  });
}

export const GRPC: Transport = {
  name: "gRPC",
  open(endpoint) {
    const c = grpcClients(endpoint);
    const services = new Map([
      ["Publisher", c.publisher],
      ["Subscriber", c.subscriber],
      ["SchemaService", c.schemaService],
      ["IAMPolicy", c.iamPolicy],
    ]);
    return {
      call: (service, method, req) => {
        const client = services.get(service);
        if (!client) throw new Error(`no gRPC client for ${service}`);
        return c.call(client, method, req);
      },
      stream: async (requests) => {
        const s = await streamStatus(c.subscriber, requests);
        return { code: s.code, message: s.details, details: [] };
      },
      close: () => c.close(),
    };
  },
  async outcome(p) {
    try {
      await p;
      return { code: grpc.status.OK, message: "", details: [] };
    } catch (e) {
      const err = e as grpc.ServiceError;
      if (typeof err.code !== "number") throw e;
      return { code: err.code, message: err.details ?? err.message, details: grpcDetails(err) };
    }
  },
};

export const REST: Transport = {
  name: "REST",
  open(endpoint) {
    const c = rawRest(endpoint);
    return { call: c.call, close: () => {} };
  },
  async outcome(p) {
    try {
      await p;
      return { code: grpc.status.OK, message: "", details: [] };
    } catch (e) {
      const err = e as RestError;
      if (typeof err.code !== "number") throw e;
      const details = ((err.error.details ?? []) as Obj[]).map(({ "@type": t, ...rest }) => ({
        type: String(t).replace("type.googleapis.com/google.rpc.", ""),
        ...rest,
      }));
      return { code: err.code, message: err.details, details };
    }
  },
};

export const TRANSPORTS = [GRPC, REST];
