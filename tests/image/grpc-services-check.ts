/**
 * The standard gRPC services of an emulator that runs elsewhere (the compiled binary): grpcurl
 * lists and describes through reflection, grpc-health-probe gets SERVING. In the binary their
 * code and descriptors are chunks read on the first call, so this is where a chunk the build
 * left out would show. Used by .ci/image (tools from .ci/grpc-tools); exits non-zero on any problem.
 *
 *   bun tests/image/grpc-services-check.ts HOST:PORT
 */
import { grpcTool, runTool } from "../helpers/grpc-tools.ts";

const [endpoint] = process.argv.slice(2);
if (!endpoint) {
  console.error("usage: bun tests/image/grpc-services-check.ts HOST:PORT");
  process.exit(2);
}
const fail = (why: string): never => {
  console.error(`grpc-services-check ${endpoint}: ${why}`);
  process.exit(1);
};

const grpcurl = grpcTool("grpcurl");
const list = await runTool([grpcurl, "-plaintext", endpoint, "list"]);
for (const service of ["google.pubsub.v1.Publisher", "google.pubsub.v1.Subscriber", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection"]) {
  if (list.code !== 0 || !list.out.split("\n").includes(service)) fail(`grpcurl list has no ${service}: ${list.out}`);
}
const describe = await runTool([grpcurl, "-plaintext", endpoint, "describe", "google.pubsub.v1.Subscription"]);
if (describe.code !== 0 || !describe.out.includes("map<string, string> labels = 9;")) fail(`grpcurl describe failed: ${describe.out}`);
const probe = await runTool([grpcTool("grpc-health-probe"), "-addr", endpoint]);
if (probe.code !== 0 || !probe.out.includes("SERVING")) fail(`grpc-health-probe exited ${probe.code}: ${probe.out}`);
console.log(`grpc-services-check ${endpoint}: reflection lists and describes, health is SERVING`);
