/** A unary Pull as a one-shot consumer that waits up to a deadline on the clock for its first delivery. */
import type { Clock } from "../clock.ts";
import { Consumer } from "./consumer.ts";
import type { PubSubError } from "../errors.ts";
import type { Delivery } from "../message.ts";
import type { Subscription } from "../subscription/subscription.ts";

export interface PullHandle {
  result: Promise<Delivery[]>;
  /** The caller went away: stop waiting, deliver nothing. */
  cancel(): void;
}

/** Takes up to `maxBatch` messages now, or waits `waitMs` (0: answer at once) for the first ones. */
export function pullOnce(sub: Subscription, clock: Clock, maxBatch: number, waitMs: number): PullHandle {
  let timer: unknown = null;
  let settle!: (d: Delivery[]) => void;
  let fail!: (e: PubSubError) => void;
  const result = new Promise<Delivery[]>((res, rej) => {
    settle = res;
    fail = rej;
  });
  let done = false;
  const finish = (d: Delivery[]) => {
    done = true;
    if (timer !== null) clock.cancel(timer);
    settle(d);
  };
  const consumer = new Consumer({
    ackDeadlineSeconds: sub.config.ackDeadlineSeconds,
    maxBatch,
    oneShot: true,
    deliver: finish,
    close: (e) => {
      if (timer !== null) clock.cancel(timer);
      fail(e);
    },
  });
  sub.addConsumer(consumer);
  const cancel = () => {
    sub.removeConsumer(consumer);
    finish([]);
  };
  if (done) return { result, cancel };
  if (waitMs === 0) cancel();
  else timer = clock.schedule(clock.now() + waitMs, () => ((timer = null), cancel()));
  return { result, cancel };
}
