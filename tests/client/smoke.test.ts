import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestEmulator, unique, waitFor, type TestEmulator } from "../helpers/emulator.ts";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

test("publish and receive through a streaming subscriber", async () => {
  const ps = emu.client();
  const [topic] = await ps.createTopic(unique("t"));
  const [sub] = await topic.createSubscription(unique("s"));
  const got: string[] = [];
  sub.on("message", (m) => {
    got.push(m.data.toString());
    m.ack();
  });
  await topic.publishMessage({ data: Buffer.from("hello"), attributes: { a: "1" } });
  await waitFor(() => got.length === 1);
  expect(got).toEqual(["hello"]);
  await sub.close();
});
