/**
 * Answers wait for their writes: with a store that group-commits (--data-dir), a unary RPC's
 * answer, and an exactly-once stream's ack and modack confirmations, go out only once what was
 * written so far is committed (`Store.durable()`); a failed commit answers its error instead.
 * Deliveries on a stream are not held: a message's attempt count is committed with the next group.
 * With the in-memory store `durable()` is null and a call costs one check.
 */
import type { DeliveryBatch } from "../../core/delivery/delivery-batch.ts";
import type { StreamSink } from "../../core/delivery/stream-session.ts";
import type { PubSubError } from "../../core/errors.ts";
import type { Store } from "../../core/store/store.ts";
import type { RpcTable, UnaryRpc } from "../contract.ts";

type Durable = Pick<Store, "durable">;

export function whenDurable(table: RpcTable, store: Durable): RpcTable {
  const after = <T>(value: T): T | Promise<T> => {
    const d = store.durable();
    return d ? d.then(() => value) : value;
  };
  const unary = new Map<string, UnaryRpc>();
  for (const [method, fn] of table.unary) {
    unary.set(method, (req, ctx) => {
      const out = fn(req, ctx);
      return out instanceof Promise ? out.then(after) : after(out);
    });
  }
  return { unary, openStream: (first, sink) => table.openStream(first, confirmingSink(sink, store)) };
}

/** A sink whose confirmations wait for the commit of the acks they confirm. */
function confirmingSink(sink: StreamSink, store: Durable): StreamSink {
  let failed = false;
  const fail = (error: PubSubError) => {
    if (failed) return;
    failed = true;
    sink.fail(error);
  };
  return {
    send(batch: DeliveryBatch): boolean {
      const d = batch.ackConfirmation || batch.modackConfirmation ? store.durable() : null;
      if (!d) return sink.send(batch);
      d.then(() => void (failed || sink.send(batch)), fail);
      return true;
    },
    fail,
    room: sink.room && (() => sink.room!()),
  };
}
