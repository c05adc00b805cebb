// Testcontainers for Node's own Pub/Sub module (@testcontainers/gcloud PubSubEmulatorContainer)
// starts our image in place of the gcloud one: its `/bin/sh -c "gcloud beta emulators pubsub start
// --host-port=0.0.0.0:8085 --project=…"` command line and its wait for /Server started/, then the
// official Node client (@google-cloud/pubsub) publishes and receives through the mapped port.
// Run under Node (node --test) by .ci/image against podman's Docker-compatible socket
// (DOCKER_HOST), with IMAGE set to the image it built.
import assert from "node:assert/strict";
import { test } from "node:test";
// docs:node-imports {
import { PubSub } from "@google-cloud/pubsub";
import { PubSubEmulatorContainer } from "@testcontainers/gcloud";
// docs:node-imports }

const RECEIVE_MS = 20_000;

test("PubSubEmulatorContainer runs the image and serves the official Node client", { timeout: 240_000 }, async () => {
  const image = process.env.IMAGE;
  assert.ok(image, "IMAGE is not set: .ci/image sets it to the image it built");

  // The lines docs/testcontainers.md shows (tests/docs/testcontainers.test.ts checks it does).
  // docs:node {
  const container = await new PubSubEmulatorContainer(image).withProjectId("tc-project").start();
  const pubsub = new PubSub({ projectId: container.getProjectId(), apiEndpoint: container.getEmulatorEndpoint() });
  // docs:node }
  try {
    const [topic] = await pubsub.createTopic("greetings");
    assert.equal(topic.name, "projects/tc-project/topics/greetings");
    const [subscription] = await topic.createSubscription("greetings-sub");
    const id = await topic.publishMessage({ data: Buffer.from("hello from testcontainers-node"), attributes: { lang: "node" } });

    const received = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message within ${RECEIVE_MS} ms`)), RECEIVE_MS);
      // Kept for the subscription's life: an "error" with no listener would throw.
      subscription.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      subscription.once("message", (message) => {
        clearTimeout(timer);
        message.ack();
        resolve(message);
      });
    });
    assert.equal(received.id, id);
    assert.equal(received.data.toString(), "hello from testcontainers-node");
    assert.deepEqual(received.attributes, { lang: "node" });
    await subscription.close();
  } finally {
    await pubsub.close();
    await container.stop({ timeout: 10_000 });
  }
});
