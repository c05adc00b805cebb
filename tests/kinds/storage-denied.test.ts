/**
 * A storage emulator that refuses uploads (403): the subscription reports PERMISSION_DENIED, its
 * messages are not acked, and once uploads are accepted the same messages land in an object.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestEmulator, waitFor, type TestEmulator } from "../helpers/emulator.ts";
import { topicAndSub } from "../helpers/client-suite.ts";

let emu: TestEmulator;
let refuse = true;
const uploads: { name: string; body: string }[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname.startsWith("/storage/v1/b/")) return Response.json({ name: "b" });
    if (req.method === "POST" && url.pathname.startsWith("/upload/storage/v1/b/")) {
      if (refuse) return new Response("denied", { status: 403 });
      uploads.push({ name: url.searchParams.get("name") ?? "", body: await req.text() });
      return Response.json({});
    }
    return new Response("no", { status: 404 });
  },
});

beforeAll(async () => {
  emu = await startTestEmulator({ clock: "manual", storageEmulatorHost: `http://127.0.0.1:${server.port}` });
});
afterAll(async () => {
  await emu?.close();
  server.stop(true);
});

test("an upload refused is PERMISSION_DENIED and a redelivery; accepted later, nothing is lost", async () => {
  const pubsub = emu.client();
  const { topic, sub } = await topicAndSub(pubsub, { cloudStorageConfig: { bucket: "denied-bucket" } });
  await topic.publishMessage({ data: Buffer.from("kept") });
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "batched");
  await emu.advance("300s");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.state === "PERMISSION_DENIED", 5000, "PERMISSION_DENIED");
  const [meta] = await sub.getMetadata();
  expect(meta.cloudStorageConfig?.state).toBe("PERMISSION_DENIED");
  expect(emu.broker.subscriptions.exportStatus(sub.name)?.rows).toBe(0);
  refuse = false;
  await emu.advance("61s"); // the backoff ends; the message is delivered into a new batch
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.openBatch?.messages === 1, 5000, "redelivered");
  await emu.advance("300s");
  await waitFor(() => uploads.length === 1, 5000, "the upload");
  expect(uploads[0].body).toBe("kept");
  await waitFor(() => emu.broker.subscriptions.exportStatus(sub.name)?.state === "ACTIVE", 5000, "ACTIVE");
});
