/**
 * Exactly-once with ordering keys through the official client, property-test style: several keys,
 * random acks, nacks and held messages, subscribers stopped and restarted, streams dropped by the
 * server. Whatever happens, no message reaches the application again while a copy of it is still
 * held (not acked, not nacked, its subscriber not closed), and every message is acked in the end
 * (within one ack deadline, on the manual clock).
 */
import { expect, test } from "bun:test";
import type { Message } from "@google-cloud/pubsub";
import { unique, waitFor } from "../helpers/emulator.ts";
import { sleep } from "../helpers/raw-clients.ts";
import { clientSuite } from "../helpers/client-suite.ts";

const suite = clientSuite({ clock: "manual" });
const KEYS = ["k0", "k1", "k2"];

/** A small seeded generator, so a failing run can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

for (const seed of [1, 2, 3, 4]) {
  test(`seed ${seed}: no redelivery while held, every message acked in the end`, async () => {
    const random = rng(seed);
    const [topic] = await suite.ps.createTopic(unique("eo-t"));
    const [sub] = await topic.createSubscription(unique("eo-s"), { enableExactlyOnceDelivery: true, enableMessageOrdering: true });
    topic.setPublishOptions({ messageOrdering: true });
    const published = new Set<string>();
    const held = new Set<string>();
    const acked = new Set<string>();
    const violations: string[] = [];
    let n = 0;
    const publish = async (count: number) => {
      const ids = await Promise.all(
        Array.from({ length: count }, () => topic.publishMessage({ data: Buffer.from(`m${n++}`), orderingKey: KEYS[n % KEYS.length] })),
      );
      for (const id of ids) published.add(id);
    };

    const onMessage = (drain: boolean) => (m: Message) => {
      if (held.has(m.id)) violations.push(`message ${m.id} delivered again while held`);
      if (acked.has(m.id)) violations.push(`message ${m.id} delivered again after its ack succeeded`);
      const r = drain ? 0 : random();
      if (r < 0.5) {
        m.ackWithResponse().then(() => acked.add(m.id), () => {});
      } else if (r < 0.7) {
        m.nackWithResponse().catch(() => {});
      } else {
        held.add(m.id);
        mine.add(m.id);
      }
    };
    let mine = new Set<string>();

    for (let phase = 0; phase < 4; phase++) {
      mine = new Set<string>();
      const s = suite.ps.subscription(sub.name);
      s.on("message", onMessage(false));
      s.on("error", (e) => violations.push(`subscriber error: ${e.message}`));
      if (phase < 3) await publish(15);
      await sleep(150 + Math.floor(random() * 150));
      if (random() < 0.6) await suite.emu.admin("POST", "/emulator/v1/faults/end-streams", { resource: sub.name, error: { code: "UNAVAILABLE" } });
      await sleep(150 + Math.floor(random() * 150));
      // What this subscriber holds is nacked as it closes: redelivery may follow from here on.
      for (const id of mine) held.delete(id);
      await s.close();
    }

    // A subscriber closed while a receipt modack was in flight drops the message without a nack
    // (the lease, 60 s for exactly-once, stays valid, as on the real service): one ack deadline.
    await suite.emu.advance("61s");
    const last = suite.ps.subscription(sub.name);
    last.on("message", onMessage(true));
    try {
      await waitFor(() => acked.size >= published.size, 15_000, "every message acked");
    } finally {
      await last.close();
    }
    expect(violations).toEqual([]);
    expect([...published].every((id) => acked.has(id))).toBe(true);
  }, 30_000);
}
