// Publishes N messages of SIZE bytes, 10 per request, through the official v1 client in a process
// of its own (so the bench process holds only the server), then prints "done" and exits.
//
//   bun bench/lib/publisher-child.ts PORT TOPIC N SIZE
import { v1 } from "@google-cloud/pubsub";
import * as grpc from "@grpc/grpc-js";

process.env.METADATA_SERVER_DETECTION ??= "none";
const [port, topic, n, size] = process.argv.slice(2) as [string, string, string, string];
const pub = new v1.PublisherClient({ servicePath: "127.0.0.1", port: Number(port), sslCreds: grpc.credentials.createInsecure() });
const data = Buffer.alloc(Number(size), 7);
for (let sent = 0; sent < Number(n); sent += 10) {
  const k = Math.min(10, Number(n) - sent);
  await pub.publish({ topic, messages: Array.from({ length: k }, () => ({ data })) });
}
await pub.close();
process.stdout.write("done\n");
