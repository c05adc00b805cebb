/**
 * Drives an emulator that runs elsewhere (the compiled binary, the image under podman) through
 * the official client: GET / and /health answer, declared resources exist, and a message makes
 * a publish → streaming pull → ack round trip. Used by .ci/image; exits non-zero on any problem.
 *
 *   bun tests/image/client-check.ts HOST:PORT PROJECT [EXPECTED_SPEC]
 *
 * EXPECTED_SPEC is in PUBSUB_PROJECT1's format (project,topic:sub:sub,…); every topic and
 * subscription it names must exist with the subscriptions on their topics.
 */
import { PubSub, type Subscription } from "@google-cloud/pubsub";

process.env.METADATA_SERVER_DETECTION ??= "none";
const [endpoint, project, expected] = process.argv.slice(2);
if (!endpoint || !project) {
  console.error("usage: bun tests/image/client-check.ts HOST:PORT PROJECT [EXPECTED_SPEC]");
  process.exit(2);
}
const fail = (why: string): never => {
  console.error(`client-check ${endpoint}: ${why}`);
  process.exit(1);
};
const timer = setTimeout(() => fail("did not finish within 30 s"), 30_000);

for (const [path, want] of [["/", "Ok"], ["/health", "ok"]] as const) {
  const res = await fetch(`http://${endpoint}${path}`, { signal: AbortSignal.timeout(5000) }).catch((e) => fail(`GET ${path}: ${e}`));
  const body = await res.text();
  if (res.status !== 200 || !body.includes(want)) fail(`GET ${path} answered ${res.status} ${JSON.stringify(body.slice(0, 100))}`);
}

/** The first message a subscription receives (acked), as "data|attribute k", within 10 s. */
function firstMessage(sub: Subscription): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no message on ${sub.name} within 10 s`)), 10_000);
    sub.on("error", reject);
    sub.once("message", (m) => {
      clearTimeout(t);
      m.ack();
      resolve(`${m.data.toString()}|${m.attributes.k ?? ""}`);
    });
  });
}

const ps = new PubSub({ projectId: project, apiEndpoint: endpoint, emulatorMode: true });
try {
  if (expected) {
    const [p, ...items] = expected.split(",");
    for (const item of items) {
      const [topic, ...subs] = item.split(":");
      const [topicSubs] = await ps.topic(`projects/${p}/topics/${topic}`).getSubscriptions();
      const names = topicSubs.map((s) => s.name);
      for (const sub of subs) {
        const full = `projects/${p}/subscriptions/${sub}`;
        if (!names.includes(full)) fail(`topic ${topic} has ${JSON.stringify(names)}, not ${full}`);
      }
    }
    console.log(`client-check: ${items.length} provisioned topics and their subscriptions found`);
  }

  const id = `check-${process.pid}-${Date.now().toString(36)}`;
  const [topic] = await ps.createTopic(id);
  const [sub] = await topic.createSubscription(id);
  await topic.publishMessage({ data: Buffer.from("hello from the client"), attributes: { k: "v" } });
  const got = await firstMessage(sub);
  if (got !== "hello from the client|v") fail(`received ${JSON.stringify(got)}`);
  await sub.close();
  await sub.delete();
  await topic.delete();
  console.log("client-check: publish → streaming pull → ack round trip through @google-cloud/pubsub");

  // The JavaScript engine of message transforms is a wasm file the binary must carry.
  const udf = { javascriptUdf: { functionName: "upper", code: "function upper(m) { m.data = m.data.toUpperCase(); return m; }" } };
  const [smt] = await ps.createTopic({ name: `${id}-smt`, messageTransforms: [udf] } as never);
  const [smtSub] = await smt.createSubscription(`${id}-smt`);
  await smt.publishMessage({ data: Buffer.from("transformed") });
  const upper = await firstMessage(smtSub);
  if (upper !== "TRANSFORMED|") fail(`the topic's UDF gave ${JSON.stringify(upper)}`);
  await smtSub.close();
  await smtSub.delete();
  await smt.delete();
  console.log("client-check: a topic's JavaScript UDF ran (message transforms)");
} catch (e) {
  fail(String((e as Error)?.stack ?? e));
} finally {
  await ps.close().catch(() => {});
}
clearTimeout(timer);
process.exit(0);
