/**
 * The standard gRPC services with the real tools, on every --grpc-server: grpcurl lists and
 * describes the Pub/Sub services through server reflection and calls one, grpc-health-probe
 * checks grpc.health.v1.Health, and a Watch sees NOT_SERVING when the emulator gets SIGTERM.
 * The tools come from .ci/grpc-tools; the test fails without them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { grpcTool, runTool } from "../helpers/grpc-tools.ts";
import { spawnServer, type ServerProcess } from "../helpers/server-process.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

const PUBSUB = ["google.iam.v1.IAMPolicy", "google.pubsub.v1.Publisher", "google.pubsub.v1.SchemaService", "google.pubsub.v1.Subscriber"];
const STANDARD = ["grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"];

let grpcurl: string;
let probe: string;
beforeAll(() => {
  grpcurl = grpcTool("grpcurl");
  probe = grpcTool("grpc-health-probe");
});

/** `grpcurl [flags] HOST …args`. */
const curl = (server: ServerProcess, args: string[], flags: string[] = []) => runTool([grpcurl, "-plaintext", "-connect-timeout", "5", "-max-time", "15", ...flags, server.endpoint, ...args]);
const health = (server: ServerProcess, ...args: string[]) => runTool([probe, "-addr", server.endpoint, "-connect-timeout", "5s", "-rpc-timeout", "5s", ...args]);

forEachGrpcServer((grpcServer) => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer(["--grpc-server", grpcServer]);
  });
  afterAll(async () => {
    if (server.exitCode() === null) await server.stop();
  });

  test("grpcurl list prints the Pub/Sub services and the standard ones", async () => {
    const r = await curl(server, ["list"]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n").sort()).toEqual([...PUBSUB, ...STANDARD].sort());
  });

  test("grpcurl describe resolves services, messages and maps through every dependency", async () => {
    const publisher = await curl(server, ["describe", "google.pubsub.v1.Publisher"]);
    expect(publisher.code).toBe(0);
    expect(publisher.out).toContain("rpc Publish ( .google.pubsub.v1.PublishRequest ) returns ( .google.pubsub.v1.PublishResponse );");
    const subscription = await curl(server, ["describe", "google.pubsub.v1.Subscription"]);
    expect(subscription.code).toBe(0);
    expect(subscription.out).toContain("map<string, string> labels = 9;");
    expect(subscription.out).toContain(".google.protobuf.Duration message_retention_duration = 8;");
    const optional = await curl(server, ["describe", "google.pubsub.v1.IngestionDataSourceSettings.CloudStorage.TextFormat"]);
    expect(optional.out).toContain("optional string delimiter = 1;");
    const watch = await curl(server, ["describe", "grpc.health.v1.Health.Watch"]);
    expect(watch.out).toContain("returns ( stream .grpc.health.v1.HealthCheckResponse )");
    const missing = await curl(server, ["describe", "google.pubsub.v1.NoSuchThing"]);
    expect(missing.code).not.toBe(0);
    expect(missing.out).toContain("Symbol not found");
  });

  test("grpcurl calls a Pub/Sub method with JSON, typed by reflection", async () => {
    const name = `projects/p/topics/grpcurl-${grpcServer}`;
    const r = await curl(server, ["google.pubsub.v1.Publisher/CreateTopic"], ["-d", JSON.stringify({ name, labels: { team: "a" } })]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ name, labels: { team: "a" } });
  });

  test("grpc-health-probe: the server and each Pub/Sub service are SERVING, an unknown service is not", async () => {
    for (const service of ["", ...PUBSUB]) {
      const r = await health(server, ...(service ? ["-service", service] : []));
      expect({ service, ...r }).toMatchObject({ code: 0, out: expect.stringContaining("status: SERVING") });
    }
    const unknown = await health(server, "-service", "no.such.Service");
    expect(unknown.code).not.toBe(0);
    expect(unknown.out).toContain("NotFound");
  });

  test("Watch sees SERVING, then NOT_SERVING on SIGTERM", async () => {
    const watch = Bun.spawn([grpcurl, "-plaintext", "-max-time", "20", "-d", '{"service":""}', server.endpoint, "grpc.health.v1.Health/Watch"], {
      stdout: "pipe",
      stderr: "pipe",
      timeout: 30_000,
    });
    // SIGTERM once grpcurl has printed the first answer, so the change is what it sees next.
    const reader = watch.stdout.getReader();
    let out = "";
    while (!out.includes('"SERVING"')) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    expect(await server.stop()).toBe(0);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    const err = await new Response(watch.stderr).text();
    await watch.exited;
    expect([...out.matchAll(/"status": "(\w+)"/g)].map((m) => m[1])).toEqual(["SERVING", "NOT_SERVING"]);
    expect(err).toContain("shutting down");
  });
});
