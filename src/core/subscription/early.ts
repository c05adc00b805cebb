/**
 * Delivery stages run at publish: an "eager" stage (a chain in the UDF worker pool: bounded work,
 * no model to wait for) starts on a publish's messages as they are enqueued, one crossing for the
 * whole Publish, and the Publish is answered once they are done (Topic.takePrepared; the server
 * bounds that wait, BrokerOptions.answerWait), so a message
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
  /** The batch it runs in (null once it has its result) and its place there. */
  pending: Promise<DeliveryResult[]> | null;
  readonly index: number;
}

export class EarlyResults {
  private readonly byEntry = new WeakMap<Entry, Early>();

  /** Starts the stage on new entries, as one batch; settles when each has its result. */
  start(stage: DeliveryStage, entries: readonly Entry[]): Promise<unknown> {
    const all = (stage.prepareMany ? stage.prepareMany(entries.map((e) => e.msg)) : Promise.all(entries.map((e) => stage.prepare!(e.msg)))).catch(
      () => entries.map(() => "failed" as const),
    );
    const earlies = entries.map((e, index) => {
      const early: Early = { stage, result: null, pending: all, index };
      this.byEntry.set(e, early);
      return early;
    });
    return all.then((rs) => {
      for (let i = 0; i < earlies.length; i++) {
        earlies[i].result = rs[i];
        earlies[i].pending = null;
      }
    });
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
    return early.stage === stage ? early.pending.then((rs) => rs[early.index]) : null;
  }
}
