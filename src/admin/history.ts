/**
 * Message history: what happened to each recent message (published, each delivery, acks, nacks,
 * expiries, dead-lettering), recorded by a broker observer. It is attached only while enabled
 * (--message-history N, POST /emulator/v1/history, or while a dashboard is open), and bounded:
 * the newest `capacity` messages, the last MAX_EVENTS events of each.
 */
import type { Broker } from "../core/broker.ts";
import type { Clock } from "../core/clock.ts";
import { NullObserver } from "../core/events.ts";
import type { StoredMessage } from "../core/message.ts";

export const MAX_EVENTS = 64;
export const MAX_CAPACITY = 1_000_000;
/** What the dashboard turns on while it is open, unless an operator chose a size. */
export const DASHBOARD_CAPACITY = 10_000;

export interface HistoryEvent {
  time: string;
  event: "published" | "delivered" | "acked" | "nacked" | "expired" | "deadLettered";
  topic?: string;
  subscription?: string;
  ackId?: string;
  deliveryAttempt?: number;
  deadline?: string;
  deadLetterTopic?: string;
}

interface MessageRecord {
  messageId: string;
  topic: string;
  publishTime: string;
  size: number;
  orderingKey: string;
  /** The dead-letter topic's copy has an id of its own; the two records point at each other. */
  forwardedAs?: string;
  forwardedFrom?: string;
  events: HistoryEvent[];
  droppedEvents: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

class Recorder extends NullObserver {
  readonly records = new Map<string, MessageRecord>();
  private forwarding: MessageRecord | null = null;

  constructor(
    private clock: Clock,
    public capacity: number,
  ) {
    super();
  }

  private add(id: string, e: HistoryEvent): void {
    const r = this.records.get(id);
    if (!r) return;
    if (r.events.length >= MAX_EVENTS) {
      r.events.splice(1, 1); // keep "published" first; drop the oldest after it
      r.droppedEvents++;
    }
    r.events.push(e);
  }

  override published(topic: string, msg: StoredMessage): void {
    const r: MessageRecord = {
      messageId: msg.id, topic, publishTime: iso(msg.publishTime), size: msg.size, orderingKey: msg.orderingKey,
      events: [{ time: iso(msg.publishTime), event: "published", topic }], droppedEvents: 0,
    };
    if (this.forwarding) {
      r.forwardedFrom = this.forwarding.messageId;
      this.forwarding.forwardedAs = msg.id;
      this.forwarding = null;
    }
    this.records.set(msg.id, r);
    if (this.records.size > this.capacity) this.records.delete(this.records.keys().next().value!);
  }

  override delivered(subscription: string, msg: StoredMessage, ackId: string, attempt: number, deadline: number): void {
    this.add(msg.id, { time: iso(this.clock.now()), event: "delivered", subscription, ackId, deliveryAttempt: attempt, deadline: iso(deadline) });
  }

  override acked(subscription: string, msg: StoredMessage, ackId: string): void {
    this.add(msg.id, { time: iso(this.clock.now()), event: "acked", subscription, ackId });
  }

  override nacked(subscription: string, msg: StoredMessage, ackId: string): void {
    this.add(msg.id, { time: iso(this.clock.now()), event: "nacked", subscription, ackId });
  }

  override expired(subscription: string, msg: StoredMessage, ackId: string): void {
    this.add(msg.id, { time: iso(this.clock.now()), event: "expired", subscription, ackId });
  }

  override deadLettered(subscription: string, msg: StoredMessage, deadLetterTopic: string): void {
    this.add(msg.id, { time: iso(this.clock.now()), event: "deadLettered", subscription, deadLetterTopic });
    // The broker publishes the copy right after this event.
    this.forwarding = this.records.get(msg.id) ?? null;
  }
}

/** Turns recording on and off; several users (flag, HTTP, open dashboards) share one recorder. */
export class MessageHistory {
  private recorder: Recorder | null = null;
  private detach: (() => void) | null = null;
  /** Capacity chosen by the flag or over HTTP; 0 = off unless a dashboard is open. */
  private chosen = 0;
  private viewers = 0;

  constructor(private broker: Broker) {}

  get capacity(): number {
    return this.recorder?.capacity ?? 0;
  }

  get size(): number {
    return this.recorder?.records.size ?? 0;
  }

  /** Sets the operator's capacity (0 turns recording off when no dashboard needs it). */
  configure(capacity: number): void {
    this.chosen = Math.max(0, Math.min(MAX_CAPACITY, Math.floor(capacity)));
    this.apply();
  }

  /** A dashboard opened; the returned function says it closed. */
  view(): () => void {
    this.viewers++;
    this.apply();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.viewers--;
      this.apply();
    };
  }

  get(messageId: string): MessageRecord | undefined {
    return this.recorder?.records.get(messageId);
  }

  private apply(): void {
    const want = this.chosen || (this.viewers > 0 ? DASHBOARD_CAPACITY : 0);
    if (want === 0) {
      this.detach?.();
      this.detach = null;
      this.recorder = null;
      return;
    }
    if (!this.recorder) {
      this.recorder = new Recorder(this.broker.clock, want);
      this.detach = this.broker.observe(this.recorder);
    }
    this.recorder.capacity = want;
    const records = this.recorder.records;
    for (const id of records.keys()) {
      if (records.size <= want) break;
      records.delete(id);
    }
  }
}
