/**
 * grpc.health.v1.Health and server reflection (v1 and v1alpha) from a grpc-js client built from
 * grpc's own .proto files (proto-loader), on every --grpc-server: each request
 * kind of reflection, the answers for what is not there, hostile requests, and Watch through a
 * shutdown. The real tools' view is standard-services.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";
import descriptorExt from "protobufjs/ext/descriptor";
import { join } from "node:path";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
const PROTOS = join(import.meta.dir, "../../protos");
const definition = protoLoader.loadSync(["grpc/health/v1/health.proto", "grpc/reflection/v1/reflection.proto", "grpc/reflection/v1alpha/reflection.proto"], {
  includeDirs: [PROTOS],
  enums: String,
  defaults: false,
  oneofs: true,
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const pkg = grpc.loadPackageDefinition(definition) as any;
const FileDescriptorProto = (descriptorExt as unknown as { FileDescriptorProto: protobuf.Type }).FileDescriptorProto;
const deadline = () => ({ deadline: Date.now() + 10_000 });

forEachGrpcServer((grpcServer) => {
  let emu: TestEmulator;
  let health: grpc.Client & Obj;
  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer });
    health = new pkg.grpc.health.v1.Health(emu.endpoint, grpc.credentials.createInsecure());
  });
  afterAll(async () => {
    health.close();
    await emu.close();
  });

  const check = (service: string) =>
    new Promise<{ err: grpc.ServiceError | null; res?: Obj }>((resolve) => health.Check({ service }, deadline(), (err: grpc.ServiceError | null, res: Obj) => resolve({ err, res })));

  /** One reflection stream: each request's answer in order, then the stream's status. */
  async function reflect(version: "v1" | "v1alpha", requests: Obj[]): Promise<{ answers: Obj[]; status: grpc.StatusObject }> {
    const client = new pkg.grpc.reflection[version].ServerReflection(emu.endpoint, grpc.credentials.createInsecure());
    const call = client.ServerReflectionInfo(deadline());
    const answers: Obj[] = [];
    call.on("data", (a: Obj) => answers.push(a));
    call.on("error", () => {});
    const status = new Promise<grpc.StatusObject>((resolve) => call.on("status", resolve));
    for (const r of requests) call.write(r);
    call.end();
    const s = await status;
    client.close();
    return { answers, status: s };
  }

  const fileNames = (answer: Obj): string[] =>
    answer.fileDescriptorResponse.fileDescriptorProto.map((b: Buffer) => (FileDescriptorProto.decode(b) as unknown as { name: string }).name);

  describe("grpc.health.v1.Health", () => {
    test("Check: the server and each Pub/Sub service are SERVING; an unknown one is NOT_FOUND", async () => {
      for (const service of ["", "google.pubsub.v1.Publisher", "google.pubsub.v1.Subscriber", "google.pubsub.v1.SchemaService", "google.iam.v1.IAMPolicy"]) {
        const { err, res } = await check(service);
        expect(err).toBeNull();
        expect(res).toEqual({ status: "SERVING" });
      }
      const unknown = await check("x".repeat(10_000));
      expect(unknown.err?.code).toBe(grpc.status.NOT_FOUND);
      expect(unknown.err!.details.length).toBeLessThan(300);
    });

    test("List names every service with its status", async () => {
      const res = await new Promise<Obj>((resolve, reject) => health.List({}, deadline(), (err: Error | null, r: Obj) => (err ? reject(err) : resolve(r))));
      expect(Object.keys(res.statuses).sort()).toEqual(["", "google.iam.v1.IAMPolicy", "google.pubsub.v1.Publisher", "google.pubsub.v1.SchemaService", "google.pubsub.v1.Subscriber"]);
      expect(res.statuses["google.pubsub.v1.Publisher"]).toEqual({ status: "SERVING" });
    });

    test("Watch of an unknown service answers SERVICE_UNKNOWN and stays open", async () => {
      const call = health.Watch({ service: "no.such.Service" }, deadline());
      const first = await new Promise<Obj>((resolve) => call.once("data", resolve));
      expect(first).toEqual({ status: "SERVICE_UNKNOWN" });
      call.on("error", () => {});
      call.cancel();
    });

    test("a request that is not a HealthCheckRequest is INVALID_ARGUMENT; one past 64 KiB is RESOURCE_EXHAUSTED", async () => {
      const raw = new grpc.Client(emu.endpoint, grpc.credentials.createInsecure());
      const send = (bytes: Buffer) =>
        new Promise<grpc.ServiceError | null>((resolve) =>
          raw.makeUnaryRequest("/grpc.health.v1.Health/Check", (b: Buffer) => b, (b: Buffer) => b, bytes, deadline(), (err) => resolve(err)),
        );
      expect((await send(Buffer.from([0x0a, 0xff])))?.code).toBe(grpc.status.INVALID_ARGUMENT);
      const big = Buffer.concat([Buffer.from([0x0a, 0x80, 0x80, 0x08]), Buffer.alloc(128 * 1024, 0x61)]);
      expect((await send(big))?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      raw.close();
    });
  });

  describe.each(["v1", "v1alpha"] as const)("server reflection %s", (version) => {
    test("list_services names the Pub/Sub services, health and reflection", async () => {
      const { answers, status } = await reflect(version, [{ listServices: "" }]);
      expect(status.code).toBe(grpc.status.OK);
      expect(answers[0]!.listServicesResponse.service.map((s: Obj) => s.name).sort()).toEqual([
        "google.iam.v1.IAMPolicy",
        "google.pubsub.v1.Publisher",
        "google.pubsub.v1.SchemaService",
        "google.pubsub.v1.Subscriber",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
      ]);
      expect(answers[0]!.originalRequest).toMatchObject({ listServices: "" });
    });

    test("file_containing_symbol sends the file and its dependencies once per stream; file_by_filename the file", async () => {
      const { answers } = await reflect(version, [
        { fileContainingSymbol: "google.pubsub.v1.Publisher" },
        { fileContainingSymbol: "google.pubsub.v1.Subscriber.StreamingPull" },
        { fileByFilename: "google/protobuf/duration.proto" },
      ]);
      const first = fileNames(answers[0]!);
      expect(first[0]).toBe("google/pubsub/v1/pubsub.proto");
      expect(first).toContain("google/pubsub/v1/schema.proto");
      expect(first).toContain("google/protobuf/duration.proto");
      expect(fileNames(answers[1]!)).toEqual(["google/pubsub/v1/pubsub.proto"]);
      expect(fileNames(answers[2]!)).toEqual(["google/protobuf/duration.proto"]);
      // The bytes are a FileDescriptorProto protobufjs reads back into the service.
      const root = (protobuf.Root as unknown as { fromDescriptor(d: object): protobuf.Root }).fromDescriptor({
        file: answers[0]!.fileDescriptorResponse.fileDescriptorProto.map((b: Buffer) => FileDescriptorProto.decode(b)),
      });
      expect(root.lookupService("google.pubsub.v1.Publisher").methods.Publish!.requestType).toBe(".google.pubsub.v1.PublishRequest");
    });

    test("extensions: all_extension_numbers_of_type and file_containing_extension", async () => {
      const { answers } = await reflect(version, [
        { allExtensionNumbersOfType: "google.protobuf.MethodOptions" },
        { fileContainingExtension: { containingType: "google.protobuf.MethodOptions", extensionNumber: 72295728 } },
        { allExtensionNumbersOfType: "google.pubsub.v1.Topic" },
      ]);
      expect(answers[0]!.allExtensionNumbersResponse.baseTypeName).toBe("google.protobuf.MethodOptions");
      expect(answers[0]!.allExtensionNumbersResponse.extensionNumber).toContain(72295728);
      expect(fileNames(answers[1]!)[0]).toBe("google/api/annotations.proto");
      expect(answers[2]!.allExtensionNumbersResponse).toEqual({ baseTypeName: "google.pubsub.v1.Topic" });
    });

    test("what is not there is an error_response NOT_FOUND, and the stream goes on", async () => {
      const { answers, status } = await reflect(version, [
        { fileContainingSymbol: "no.Such" },
        { fileByFilename: "x".repeat(5000) },
        { fileContainingExtension: { containingType: "google.protobuf.MethodOptions", extensionNumber: 1 } },
        { allExtensionNumbersOfType: "no.Such" },
        {},
        { listServices: "*" },
      ]);
      expect(status.code).toBe(grpc.status.OK);
      expect(answers.slice(0, 4).map((a) => a.errorResponse.errorCode)).toEqual([5, 5, 5, 5]);
      expect(answers[1]!.errorResponse.errorMessage.length).toBeLessThan(300);
      expect(answers[4]!.errorResponse.errorCode).toBe(grpc.status.INVALID_ARGUMENT);
      expect(answers[5]!.listServicesResponse.service.length).toBe(7);
    });
  });

  test("Watch sees NOT_SERVING when the emulator stops, and its stream ends UNAVAILABLE", async () => {
    const own = await startTestEmulator({ grpcServer });
    const client = new pkg.grpc.health.v1.Health(own.endpoint, grpc.credentials.createInsecure());
    const call = client.Watch({ service: "google.pubsub.v1.Subscriber" }, deadline());
    const seen: string[] = [];
    call.on("data", (r: Obj) => seen.push(r.status));
    call.on("error", () => {});
    const status = new Promise<grpc.StatusObject>((resolve) => call.on("status", resolve));
    await new Promise((r) => call.once("data", r));
    const stopped = own.close();
    expect((await status).code).toBe(grpc.status.UNAVAILABLE);
    expect(seen).toEqual(["SERVING", "NOT_SERVING"]);
    await stopped;
    client.close();
  });
});
