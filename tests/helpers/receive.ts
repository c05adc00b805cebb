/** Bounded receiving with the official client's streaming Subscription. */
import type { Message, Subscription } from "@google-cloud/pubsub";

/**
 * Listens on `sub` until `n` messages arrived (acking each unless `ack` is false), then removes
 * the listener and resolves with them in arrival order. Rejects after `ms` or on a stream error.
 */
export function receive(sub: Subscription, n: number, { ms = 5000, ack = true } = {}): Promise<Message[]> {
  return new Promise((resolve, reject) => {
    const got: Message[] = [];
    const done = (err?: Error) => {
      clearTimeout(timer);
      sub.removeListener("message", onMessage);
      sub.removeListener("error", onError);
      if (err) reject(err);
      else resolve(got);
    };
    const onMessage = (m: Message) => {
      if (ack) m.ack();
      got.push(m);
      if (got.length >= n) done();
    };
    const onError = (e: Error) => done(e);
    const timer = setTimeout(() => done(new Error(`received ${got.length} of ${n} messages within ${ms} ms`)), ms);
    sub.on("message", onMessage);
    sub.on("error", onError);
  });
}

/** Every message `sub` delivers from now on, in arrival order, left to the test to ack or nack. */
export function collect(sub: Subscription): Message[] {
  const got: Message[] = [];
  sub.on("message", (m: Message) => got.push(m));
  return got;
}

/** The data of every message `sub` delivers from now on, as text, in arrival order; each is acked. */
export function collectTexts(sub: Subscription): string[] {
  const got: string[] = [];
  sub.on("message", (m: Message) => (got.push(m.data.toString()), m.ack()));
  return got;
}
