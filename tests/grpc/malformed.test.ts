/**
 * Malformed protobuf through a raw grpc-js client: garbage request bytes give INVALID_ARGUMENT,
 * never INTERNAL, and the server keeps serving. (The status-code rows run over gRPC and REST in
 * tests/behaviour/status.test.ts.)
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { CALL_TIMEOUT_MS, grpcClients, type GrpcClients } from "../helpers/raw-grpc.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const S = grpc.status;

forEachGrpcServer((grpcServer) => {
  let emu: TestEmulator;
  let c: GrpcClients;
  const topic = `projects/${PROJECT}/topics/${unique("t")}`;

  const pub = (method: string, req: Obj) => c.call(c.publisher, method, req);
  const publish = (...messages: Obj[]) => pub("Publish", { topic, messages });
  const data = (s = "x") => Buffer.from(s);

  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer });
    c = grpcClients(emu.endpoint);
    await pub("CreateTopic", { name: topic });
  });

  afterAll(async () => {
    c?.close();
    await emu?.close();
  });

  const GARBAGE = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02, 0xff, 0xff]);

  /** Sends raw bytes as the request body of a unary method; resolves with the error (null on success). */
  function rawUnary(path: string, body: Buffer): Promise<grpc.ServiceError | null> {
    const raw = new grpc.Client(emu.endpoint, grpc.credentials.createInsecure());
    return new Promise<grpc.ServiceError | null>((resolve) =>
      raw.makeUnaryRequest(path, (b: Buffer) => b, (b: Buffer) => b, body, { deadline: Date.now() + CALL_TIMEOUT_MS }, (err) => {
        raw.close();
        resolve(err);
      }),
    );
  }

  describe("malformed requests", () => {
    test.each([
      "/google.pubsub.v1.Publisher/Publish",
      "/google.pubsub.v1.Publisher/CreateTopic",
      "/google.pubsub.v1.Subscriber/Acknowledge",
      "/google.pubsub.v1.Subscriber/Pull",
    ])("garbage protobuf bytes to %s give INVALID_ARGUMENT and the server keeps serving", async (path) => {
      const err = await rawUnary(path, GARBAGE);
      expect(err).not.toBeNull();
      expect(S[err!.code]).toBe(S[S.INVALID_ARGUMENT]);
      const got = await pub("GetTopic", { topic });
      expect(got.name).toBe(topic);
    });

    test("garbage bytes on a StreamingPull end that stream with INVALID_ARGUMENT and the server keeps serving", async () => {
      const raw = new grpc.Client(emu.endpoint, grpc.credentials.createInsecure());
      const code = await new Promise<number>((resolve) => {
        const call = raw.makeBidiStreamRequest(
          "/google.pubsub.v1.Subscriber/StreamingPull",
          (b: Buffer) => b,
          (b: Buffer) => b,
          { deadline: Date.now() + 5000 },
        );
        call.on("data", () => {});
        call.on("error", (e: grpc.ServiceError) => resolve(e.code));
        call.on("status", (s: grpc.StatusObject) => resolve(s.code));
        call.write(GARBAGE);
      });
      raw.close();
      expect(S[code]).toBe(S[S.INVALID_ARGUMENT]);
      const res = await publish({ data: data("still-up") });
      expect(res.messageIds.length).toBe(1);
    });
  });
});
