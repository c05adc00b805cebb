/**
 * A client that closes its connection mid-body (REST or the admin API) leaves nobody to answer:
 * the connection is closed, nothing is counted as an internal error, and the server serves on.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as net from "node:net";
import { PROJECT, startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const internalErrors = async () => (await emu.admin("GET", "/metrics.json")).internalErrors as number;

/** Sends the head and part of a body, then resets the connection (RST, not FIN). */
function abortMidBody(path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port: emu.port }, () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"messages": [`);
      setTimeout(() => socket.resetAndDestroy(), 50);
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve());
  });
}

test("REST and admin requests whose client resets mid-body count no internal error; the server serves on", async () => {
  const before = await internalErrors();
  for (const path of [`/v1/projects/${PROJECT}/topics/gone:publish`, "/emulator/v1/projects/p/subscriptions/s/modify-ack-deadline", "/emulator/v1/faults"]) {
    for (let i = 0; i < 5; i++) await abortMidBody(path);
  }
  await Bun.sleep(100);
  expect(await internalErrors()).toBe(before);
  expect((await fetch(`http://${emu.endpoint}/health`)).status).toBe(200);
});
