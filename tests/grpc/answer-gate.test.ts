/**
 * The raw server's causal gate (src/grpc/call/answer-gate.ts): a deferral runs once every
 * connection that answered a Publish in its window has ACKed a PING sent after those answers; one
 * PING out per connection; a window with no answer takes the fallback; the cap bounds the wait.
 */
import { expect, test } from "bun:test";
import { AnswerGate, CAP_MS, type Pinger } from "../../src/grpc/call/answer-gate.ts";
import { sleep } from "../helpers/raw-clients.ts";

/** A connection whose PINGs the test ACKs by hand. */
function pinger() {
  const acks: Array<() => void> = [];
  const p: Pinger & { acks: typeof acks; sent: number } = {
    acks,
    sent: 0,
    pingAfter(onAck) {
      if (acks.length > 0) return false;
      p.sent++;
      acks.push(onAck);
      return true;
    },
  };
  return p;
}
const ack = (p: ReturnType<typeof pinger>) => p.acks.shift()!();
const tick = () => new Promise<void>((r) => setImmediate(r));

function setup() {
  const fallbacks: Array<() => void> = [];
  const gate = new AnswerGate((fn) => fallbacks.push(fn));
  const ran: string[] = [];
  return { gate, fallbacks, ran };
}

test("the deferral runs on the ACK of the PING after the answer, not before", async () => {
  const { gate, fallbacks, ran } = setup();
  const a = pinger();
  gate.defer(() => ran.push("d1"));
  gate.answered(a);
  expect(a.sent).toBe(1);
  await tick();
  expect(ran).toEqual([]);
  ack(a);
  expect(ran).toEqual(["d1"]);
  expect(fallbacks.length).toBe(0);
});

test("answers queued while a PING is out wait for the next PING; one out per connection", async () => {
  const { gate, ran } = setup();
  const a = pinger();
  gate.defer(() => ran.push("d1"));
  gate.answered(a);
  await tick();
  // A later publish, answered after the first PING went out, in the next deferral's window.
  gate.defer(() => ran.push("d2"));
  gate.answered(a);
  gate.answered(a);
  expect(a.sent).toBe(1);
  await tick();
  ack(a);
  expect(ran).toEqual(["d1"]);
  expect(a.sent).toBe(2);
  ack(a);
  expect(ran).toEqual(["d1", "d2"]);
  expect(a.acks.length).toBe(0);
});

test("every connection that answered in the window must ACK", async () => {
  const { gate, ran } = setup();
  const a = pinger();
  const b = pinger();
  gate.defer(() => ran.push("d1"));
  gate.answered(a);
  gate.answered(b);
  await tick();
  ack(b);
  expect(ran).toEqual([]);
  ack(a);
  expect(ran).toEqual(["d1"]);
});

test("a window with no answer on this server (REST, the test API) takes the fallback", async () => {
  const { gate, fallbacks, ran } = setup();
  gate.defer(() => ran.push("d1"));
  await tick();
  expect(fallbacks.length).toBe(1);
  fallbacks.shift()!();
  expect(ran).toEqual(["d1"]);
});

test("a connection that never ACKs holds a deferral CAP_MS at most", async () => {
  const { gate, ran } = setup();
  const a = pinger();
  gate.defer(() => ran.push("d1"));
  gate.answered(a);
  await tick();
  expect(ran).toEqual([]);
  await sleep(CAP_MS + 50);
  expect(ran).toEqual(["d1"]);
  // The late ACK runs nothing twice.
  ack(a);
  expect(ran).toEqual(["d1"]);
});
