/**
 * Delivery stages run at publish: an "eager" stage (a chain in the UDF worker pool: bounded work,
 * no model to wait for) starts on a publish's messages as they are enqueued, one crossing for the
 * whole Publish, and the Publish is answered once they are done (Topic.takePrepared), so a message
 * is ready for delivery when its publisher hears of it — and a keyed one behind another goes out
 * in the same response, as it does with a synchronous stage. The result is taken at the message's
 * first delivery (under the stage it ran with; a reconfigured subscription runs its own again); a
 * delivery that comes while it runs waits for it, set aside. Entries are weak keys: an entry that
 * goes undelivered (acked by seek, expired) takes its result with it.
 */
import type { DeliveryResult, DeliveryStage } from "../stages/stages.ts";
import type { Entry } from "./backlog.ts";

interface Early {
  readonly stage: DeliveryStage;
  result: DeliveryResult | null;
  pending: Promise<DeliveryResult> | null;
}

export class EarlyResults {
  private readonly byEntry = new WeakMap<Entry, Early>();

  /** Starts the stage on new entries; settles when each has its result. */
  start(stage: DeliveryStage, entries: readonly Entry[]): Promise<unknown> {
    const waits = new Array<Promise<void>>(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      const early: Early = { stage, result: null, pending: null };
      const pending = stage.prepare!(e.msg).catch(() => "failed" as const);
      early.pending = pending;
      this.byEntry.set(e, early);
      waits[i] = pending.then((r) => {
        early.result = r;
        early.pending = null;
      });
    }
    return Promise.all(waits);
  }

  /** The entry's result under `stage` when it has one (taken); null otherwise. */
  ready(e: Entry, stage: DeliveryStage): DeliveryResult | null {
    const early = this.byEntry.get(e);
    if (early === undefined || early.pending !== null) return null;
    this.byEntry.delete(e);
    return early.stage === stage ? early.result : null;
  }

  /** The entry's run under `stage` still going (taken), for a delivery to wait on; null otherwise. */
  pending(e: Entry, stage: DeliveryStage): Promise<DeliveryResult> | null {
    const early = this.byEntry.get(e);
    if (early === undefined || early.pending === null) return null;
    this.byEntry.delete(e);
    return early.stage === stage ? early.pending : null;
  }
}
