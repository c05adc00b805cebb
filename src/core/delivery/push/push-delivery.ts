/**
 * Push delivery in the domain: a Consumer per push subscription that hands one message at a time
 * to a PushSender (the HTTP client lives in src/push-http/) and acks or nacks by the answer. It keeps
 * the real service's push flow control (a window of requests in flight that grows on success and
 * halves on failure) and push backoff (delivery pauses, exponentially longer, after failures).
 * Ordering keys, dead letters, filters and retry policies come from the subscription unchanged:
 * one message per request means a key has at most one request in flight.
 */
import type { Clock } from "../../clock.ts";
import { Consumer } from "../consumer.ts";
import type { DeliveryRuntime } from "../deliveries.ts";
import type { Delivery } from "../../message.ts";
import { SECOND } from "../../resources.ts";
import type { Subscription } from "../../subscription/subscription.ts";
import { pushEndpointOf, type PushConfigView } from "./push-config.ts";

export interface PushRequest {
  endpoint: string;
  subscription: string;
  config: PushConfigView;
  delivery: Delivery;
  /** The subscription has a dead-letter policy, so the request carries deliveryAttempt. */
  withAttempt: boolean;
  /** The request is abandoned (and the message nacked) after this long. */
  timeoutMs: number;
}

export interface PushSender {
  /** Resolves with the endpoint's HTTP status, or 0 when there was none (refused, reset, timed out). */
  send(request: PushRequest): Promise<number>;
}

export interface PushOptions {
  /** Caps a request's timeout below the ack deadline (which bounds it in the real service); 0 = no cap. */
  timeoutCapMs: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  initialWindow: number;
  maxWindow: number;
}

/** The real service's push backoff runs from 100 ms to 60 s; its window starts in single digits. */
export const PUSH_DEFAULTS: PushOptions = {
  timeoutCapMs: 0,
  backoffMinMs: 100,
  backoffMaxMs: 60 * SECOND,
  initialWindow: 3,
  maxWindow: 3000,
};

/** The answers that acknowledge a push; anything else, or no answer, is a nack. */
export const PUSH_ACK_STATUSES: ReadonlySet<number> = new Set([102, 200, 201, 202, 204]);

export interface PushDeps {
  clock: Clock;
  sender: PushSender;
  options: PushOptions;
  ack(subscription: string, ackIds: string[]): void;
  nack(subscription: string, ackIds: string[]): void;
}

export class PushConsumer {
  readonly consumer: Consumer;
  private window: number;
  private failures = 0;
  private timer: unknown = null;
  private stopped = false;

  constructor(
    private sub: Subscription,
    private deps: PushDeps,
  ) {
    this.window = deps.options.initialWindow;
    this.consumer = new Consumer({
      ackDeadlineSeconds: sub.config.ackDeadlineSeconds,
      maxOutstandingMessages: this.window,
      maxBatch: 1,
      deliver: (batch) => {
        for (const d of batch) this.push(d);
      },
      close: () => this.stop(),
    });
  }

  /** Detached or deleted: no new requests; answers to those in flight still ack or nack. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.deps.clock.cancel(this.timer);
    this.timer = null;
  }

  private push(delivery: Delivery): void {
    const config = this.sub.config;
    const deadlineMs = this.consumer.ackDeadlineSeconds * SECOND;
    const cap = this.deps.options.timeoutCapMs;
    const request: PushRequest = {
      endpoint: pushEndpointOf(config),
      subscription: config.name,
      config: (config.pushConfig ?? {}) as PushConfigView,
      delivery,
      withAttempt: !!config.deadLetterPolicy,
      timeoutMs: cap > 0 ? Math.min(cap, deadlineMs) : deadlineMs,
    };
    let sent: Promise<number>;
    try {
      sent = this.deps.sender.send(request);
    } catch {
      sent = Promise.resolve(0);
    }
    sent.then(
      (status) => this.settle(delivery, PUSH_ACK_STATUSES.has(status)),
      () => this.settle(delivery, false),
    );
  }

  private settle(delivery: Delivery, acked: boolean): void {
    const name = this.sub.config.name;
    if (acked) {
      this.failures = 0;
      this.setWindow(this.window + 1);
      this.deps.ack(name, [delivery.ackId]);
      return;
    }
    // One failure event per pause: answers of requests that were out together count once, as a
    // loss does in TCP. Pause before the nack, or it would hand the message straight back here.
    if (this.timer === null && !this.stopped) {
      this.failures++;
      this.setWindow(Math.ceil(this.window / 2));
      this.pause();
    }
    this.deps.nack(name, [delivery.ackId]);
  }

  private setWindow(n: number): void {
    this.window = Math.max(1, Math.min(this.deps.options.maxWindow, n));
    this.consumer.maxOutstandingMessages = this.window;
  }

  private pause(): void {
    const { backoffMinMs, backoffMaxMs } = this.deps.options;
    const wait = Math.min(backoffMaxMs, backoffMinMs * 2 ** Math.min(30, this.failures - 1));
    this.consumer.ready = false;
    const clock = this.deps.clock;
    this.timer = clock.schedule(clock.now() + wait, () => {
      this.timer = null;
      if (!this.stopped) this.sub.resume(this.consumer);
    });
  }
}

/** What push needs: the clock, and the subscriptions' ack and nack (errors from a deleted subscription are dropped). */
export function pushDeps(
  clock: Clock,
  push: { sender: PushSender; options?: Partial<PushOptions> } | undefined,
  settle: { acknowledge(sub: string, ids: string[]): unknown; modifyAckDeadline(sub: string, ids: string[], s: number): unknown },
): PushDeps | null {
  if (!push) return null;
  const quietly = (fn: () => unknown) => {
    try {
      fn();
    } catch {
      // The subscription went away while the request was out: nothing is left to settle.
    }
  };
  return {
    clock,
    sender: push.sender,
    options: { ...PUSH_DEFAULTS, ...push.options },
    ack: (sub, ids) => quietly(() => settle.acknowledge(sub, ids)),
    nack: (sub, ids) => quietly(() => settle.modifyAckDeadline(sub, ids, 0)),
  };
}

/** Push as a delivery kind: a PushConsumer per push subscription, following ack deadline changes. */
export function pushRuntime(deps: PushDeps): DeliveryRuntime {
  return {
    name: "push",
    applies: (config) => pushEndpointOf(config) !== "",
    attach(sub) {
      const pc = new PushConsumer(sub, deps);
      return {
        consumer: pc.consumer,
        follow(s) {
          pc.consumer.ackDeadlineSeconds = s.config.ackDeadlineSeconds;
          return true;
        },
        stop: () => pc.stop(),
      };
    },
  };
}
