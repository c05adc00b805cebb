/** A topic: its resource, its attached subscriptions, and publish → fan-out. */
import type { BrokerObserver } from "./events.ts";
import { holdCost } from "./memory-budget.ts";
import type { MessageInput, StoredMessage } from "./message.ts";
import type { TopicResource } from "./resources.ts";
import type { Subscription } from "./subscription.ts";

let messageSeq = 0;

export class Topic {
  readonly subscriptions = new Set<Subscription>();
  observer: BrokerObserver | null = null;

  constructor(public config: TopicResource) {}

  get name(): string {
    return this.config.name;
  }

  /**
   * Stores each message once and hands the same object to every subscription whose filter takes
   * it; a subscription frees it when acked, so an acked message is garbage once all are done.
   * Each holder accounts its share of the message against the memory budget.
   */
  publish(inputs: readonly MessageInput[], sizes: readonly number[], now: number): string[] {
    const ids = new Array<string>(inputs.length);
    const subs = this.subscriptions;
    const takers: Subscription[] = [];
    for (let i = 0; i < inputs.length; i++) {
      const m = inputs[i];
      const id = String(++messageSeq);
      const msg: StoredMessage = {
        id,
        data: m.data ?? EMPTY,
        attributes: m.attributes ?? NO_ATTRIBUTES,
        orderingKey: m.orderingKey ?? "",
        publishTime: now,
        size: sizes[i],
      };
      ids[i] = id;
      this.observer?.published(this.name, msg);
      takers.length = 0;
      for (const s of subs) if (s.matches(msg)) takers.push(s);
      if (takers.length === 0) continue;
      const cost = holdCost(msg.size, takers.length);
      for (const s of takers) s.enqueue(msg, cost);
    }
    for (const s of subs) s.published();
    return ids;
  }
}

const EMPTY = new Uint8Array(0);
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});
