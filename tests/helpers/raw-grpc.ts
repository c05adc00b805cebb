/**
 * Raw @grpc/grpc-js clients for the emulator's services, with every call bounded by a deadline:
 * requests in proto-loader shape, sent as written (no retries, no defaults filled in), for the
 * transport, fuzz and hostile-input suites. raw-clients.ts has the official client's generated
 * (GAPIC) ones, for what the high-level client hides.
 */
import * as grpc from "@grpc/grpc-js";
import { packageDefinition } from "../../src/grpc/proto.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const MAX = 64 * 1024 * 1024;
export const CLIENT_OPTIONS: grpc.ClientOptions = {
  "grpc.max_send_message_length": MAX,
  "grpc.max_receive_message_length": MAX,
};
export const CALL_TIMEOUT_MS = 10_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const root = grpc.loadPackageDefinition(packageDefinition) as any;

export interface GrpcClients {
  publisher: grpc.Client & Obj;
  subscriber: grpc.Client & Obj;
  schemaService: grpc.Client & Obj;
  iamPolicy: grpc.Client & Obj;
  /** Calls a unary method; resolves with the response, rejects with the ServiceError. */
  call(client: grpc.Client & Obj, method: string, req: Obj): Promise<Obj>;
  close(): void;
}

export function grpcClients(endpoint: string): GrpcClients {
  const creds = grpc.credentials.createInsecure();
  const publisher = new root.google.pubsub.v1.Publisher(endpoint, creds, CLIENT_OPTIONS);
  const subscriber = new root.google.pubsub.v1.Subscriber(endpoint, creds, CLIENT_OPTIONS);
  const schemaService = new root.google.pubsub.v1.SchemaService(endpoint, creds, CLIENT_OPTIONS);
  const iamPolicy = new root.google.iam.v1.IAMPolicy(endpoint, creds, CLIENT_OPTIONS);
  return {
    publisher,
    subscriber,
    schemaService,
    iamPolicy,
    call: (client, method, req) =>
      new Promise((resolve, reject) => {
        client[method](req, { deadline: Date.now() + CALL_TIMEOUT_MS }, (err: grpc.ServiceError | null, res: Obj) =>
          err ? reject(err) : resolve(res),
        );
      }),
    close() {
      for (const c of [publisher, subscriber, schemaService, iamPolicy]) c.close();
    },
  };
}

/** How a call ended: its status code and details. */
export interface CallStatus {
  code: number;
  details: string;
}

/** The status a unary call ends with (OK when it succeeds). */
export async function statusOf(p: Promise<unknown>): Promise<CallStatus> {
  try {
    await p;
    return { code: grpc.status.OK, details: "" };
  } catch (e) {
    const err = e as grpc.ServiceError;
    if (typeof err.code !== "number") throw e;
    return { code: err.code, details: err.details ?? err.message };
  }
}

/**
 * Opens a StreamingPull, writes `requests`, and resolves with the status it ends with (or with
 * DEADLINE_EXCEEDED from the client after `ms`, so a stream the server never ends cannot hang).
 */
export function streamStatus(subscriber: grpc.Client & Obj, requests: Obj[], ms = 5000): Promise<CallStatus> {
  return new Promise((resolve) => {
    const call = subscriber.StreamingPull({ deadline: Date.now() + ms });
    call.on("data", () => {});
    call.on("error", (e: grpc.ServiceError) => resolve({ code: e.code, details: e.details ?? e.message }));
    call.on("status", (s: grpc.StatusObject) => resolve({ code: s.code, details: s.details }));
    for (const r of requests) call.write(r);
  });
}
