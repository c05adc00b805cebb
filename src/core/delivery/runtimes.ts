/**
 * The one registration of the delivery runtimes a server sends with: push (when it has a sender)
 * and the export kinds (when given). A new delivery kind adds its runtime here and its row in
 * kinds.ts. Every runtime acks and nacks through the subscriptions' own verbs, quietly: a
 * subscription deleted while a request was out has nothing left to settle.
 */
import type { Clock } from "../clock.ts";
import { exportRuntime, type ExportKind } from "../kinds/export-delivery.ts";
import { pushDeps, pushRuntime, type PushOptions, type PushSender } from "./push/push-delivery.ts";
import type { DeliveryRuntime } from "./deliveries.ts";

export interface Settler {
  acknowledge(sub: string, ids: string[]): unknown;
  modifyAckDeadline(sub: string, ids: string[], s: number): unknown;
}

export interface DeliveryOptions<B> {
  /** How push subscriptions send; without it they hold their messages (core tests). */
  push?: { sender: PushSender; options?: Partial<PushOptions> };
  /** The export delivery kinds (BigQuery, Bigtable); without them such subscriptions hold their messages. */
  exports?: (broker: B) => readonly ExportKind[];
}

export function deliveryRuntimes<B>(clock: Clock, o: DeliveryOptions<B>, broker: B, settler: Settler): DeliveryRuntime[] {
  const runtimes: DeliveryRuntime[] = [];
  const push = pushDeps(clock, o.push, settler);
  if (push) runtimes.push(pushRuntime(push));
  if (o.exports) {
    const settle = pushDeps(clock, { sender: { send: async () => 0 } }, settler)!;
    for (const kind of o.exports(broker)) runtimes.push(exportRuntime(kind, settle));
  }
  return runtimes;
}
