// An official client's subscriber in a process of its own, for benches that stop it (SIGSTOP) to
// play a reader that has stalled: it acks what it receives and prints "got N" after each message.
//
//   bun bench/lib/subscriber-child.ts PORT SUBSCRIPTION
import { PubSub } from "@google-cloud/pubsub";

process.env.METADATA_SERVER_DETECTION ??= "none";
const [port, subscription] = process.argv.slice(2) as [string, string];
const ps = new PubSub({ projectId: "bench", apiEndpoint: `127.0.0.1:${port}`, emulatorMode: true });
let n = 0;
ps.subscription(subscription).on("message", (m) => {
  m.ack();
  process.stdout.write(`got ${++n}\n`);
});
