/** The test clock over HTTP, through the official client: publish times, backoff and mode switches follow it. */
import { expect, test } from "bun:test";
import { clientSuite } from "../helpers/client-suite.ts";

const suite = clientSuite({ clock: "manual" });

async function pullNow(subscription: string) {
  const [res] = await suite.raw.subscriber.pull({ subscription, maxMessages: 10, returnImmediately: true });
  return res.receivedMessages ?? [];
}

test("GET /emulator/v1/clock shows the manual mode; set moves it to an instant and publish times follow", async () => {
  const state = await suite.emu.admin("GET", "/emulator/v1/clock");
  expect(state.mode).toBe("manual");
  const later = new Date(Math.ceil(state.timeMs / 1000 + 365 * 86_400) * 1000).toISOString();
  const set = await suite.emu.admin("POST", "/emulator/v1/clock/set", { time: later });
  expect(set.time).toBe(later);
  const { topic, sub } = await suite.topicAndSub();
  await topic.publishMessage({ data: Buffer.from("when") });
  const [m] = await pullNow(sub.name);
  const seconds = Number(m.message!.publishTime!.seconds);
  expect(seconds * 1000).toBe(Date.parse(later));
});

test("the clock only moves forward, and bad bodies are 400s naming the field", async () => {
  await expect(suite.emu.admin("POST", "/emulator/v1/clock/set", { time: "2001-01-01T00:00:00Z" })).rejects.toThrow(/400.*forward/);
  await expect(suite.emu.admin("POST", "/emulator/v1/clock/advance", { duration: "soon" })).rejects.toThrow(/400.*duration/);
  await expect(suite.emu.admin("POST", "/emulator/v1/clock/advance", {})).rejects.toThrow(/400.*duration/);
  await expect(suite.emu.admin("POST", "/emulator/v1/clock/mode", { mode: "fast" })).rejects.toThrow(/400.*mode/);
});

test("retry backoff follows the manual clock", async () => {
  const { topic, sub } = await suite.topicAndSub({ retryPolicy: { minimumBackoff: { seconds: 10 }, maximumBackoff: { seconds: 60 } } });
  await topic.publishMessage({ data: Buffer.from("retry") });
  const [first] = await pullNow(sub.name);
  await suite.raw.subscriber.modifyAckDeadline({ subscription: sub.name, ackIds: [first.ackId!], ackDeadlineSeconds: 0 });
  await suite.emu.advance("9s");
  expect(await pullNow(sub.name)).toEqual([]);
  await suite.emu.advance("1s");
  expect((await pullNow(sub.name)).map((r) => r.message!.messageId)).toEqual([first.message!.messageId]);
});

test("switching to system keeps the instant and lets time run; switching back freezes it", async () => {
  const before = (await suite.emu.admin("GET", "/emulator/v1/clock")).timeMs;
  const sys = await suite.emu.admin("POST", "/emulator/v1/clock/mode", { mode: "system" });
  expect(sys.mode).toBe("system");
  expect(sys.timeMs).toBeGreaterThanOrEqual(before);
  await Bun.sleep(20);
  const manual = await suite.emu.admin("POST", "/emulator/v1/clock/mode", { mode: "manual" });
  expect(manual.timeMs).toBeGreaterThan(sys.timeMs);
  await Bun.sleep(20);
  expect((await suite.emu.admin("GET", "/emulator/v1/clock")).timeMs).toBe(manual.timeMs);
});
