/**
 * Fault injection: faults an operator adds over HTTP, matched against each RPC by method and
 * resource. An error fault fails the next N matching calls with a status (and RetryInfo when
 * asked), a delay fault holds matching responses back, a dropAcks fault silently drops a fraction
 * of acknowledgements (the messages are redelivered after their deadline), a transientAcks fault
 * answers a unary Acknowledge or ModifyAckDeadline with the exactly-once TRANSIENT_* failure the
 * clients retry (those ack ids not applied), and endStreams ends the
 * open StreamingPull streams of a scope with a status. with-faults.ts applies them to the RPC table.
 */
import { PubSubError, type ErrorCode, type ErrorDetail } from "../../core/errors.ts";

export type FaultAction =
  | { kind: "error"; code: ErrorCode; message: string; retryDelayMs?: number }
  | { kind: "delay"; delayMs: number }
  | { kind: "dropAcks"; fraction: number }
  | { kind: "transientAcks"; reason: string };

export interface Fault {
  readonly id: string;
  /** "Service.Method", "Service.*" or "*". */
  readonly method: string;
  /** A project ("projects/p") or a topic or subscription name; "" matches every resource. */
  readonly resource: string;
  readonly action: FaultAction;
  /** Matching calls it still applies to; null until cleared. */
  remaining: number | null;
  /** Calls it has applied to so far. */
  hits: number;
}

/** Most faults held at once: each is matched against every call. */
export const MAX_FAULTS = 100;

/** One open StreamingPull stream, as fault injection can end it. */
export interface OpenStream {
  readonly subscription: string;
  end(error: PubSubError): void;
}

export class FaultRegistry {
  private faults: Fault[] = [];
  private seq = 0;
  /** Drop accumulators per dropAcks fault: a fraction f drops exactly f of the acks, spread evenly. */
  private dropCarry = new Map<string, number>();
  readonly streams = new Set<OpenStream>();

  get empty(): boolean {
    return this.faults.length === 0;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  add(method: string, resource: string, action: FaultAction, count: number | null): Fault {
    if (this.faults.length >= MAX_FAULTS) throw new PubSubError("RESOURCE_EXHAUSTED", `At most ${MAX_FAULTS} faults can be active; clear some first.`);
    const fault: Fault = { id: String(++this.seq), method, resource, action, remaining: count, hits: 0 };
    this.faults = [...this.faults, fault];
    return fault;
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    this.dropCarry.delete(id);
    return this.faults.length < before;
  }

  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    this.dropCarry.clear();
    return n;
  }

  /** The first active fault of `kind` matching the call, counted as applied (and used up when done). */
  take<K extends FaultAction["kind"]>(kind: K, method: string, resources: readonly string[]): (Fault & { action: Extract<FaultAction, { kind: K }> }) | null {
    for (const f of this.faults) {
      if (f.action.kind !== kind || !methodMatches(f.method, method) || !resourceMatches(f.resource, resources)) continue;
      f.hits++;
      if (f.remaining !== null && --f.remaining <= 0) this.remove(f.id);
      return f as Fault & { action: Extract<FaultAction, { kind: K }> };
    }
    return null;
  }

  /** The ack ids that survive a dropAcks fault on `subscription` (all of them when none is set). */
  filterAcks(method: string, subscription: string, ackIds: readonly string[]): readonly string[] {
    if (this.empty || ackIds.length === 0) return ackIds;
    const f = this.take("dropAcks", method, [subscription]);
    if (!f) return ackIds;
    let carry = this.dropCarry.get(f.id) ?? 0;
    const kept = ackIds.filter(() => {
      carry += f.action.fraction;
      if (carry < 1) return true;
      carry -= 1;
      return false;
    });
    this.dropCarry.set(f.id, carry);
    return kept;
  }

  /** Ends every open stream in scope with `error`; returns how many. */
  endStreams(resource: string, error: PubSubError): number {
    let n = 0;
    for (const s of [...this.streams]) {
      if (!resourceMatches(resource, [s.subscription])) continue;
      s.end(error);
      n++;
    }
    return n;
  }
}

/** The error a fault sends, with RetryInfo when it has a retry delay. */
export function faultError(action: Extract<FaultAction, { kind: "error" }>): PubSubError {
  const details: ErrorDetail[] = action.retryDelayMs === undefined ? [] : [{ kind: "RetryInfo", retryDelayMs: action.retryDelayMs }];
  return new PubSubError(action.code, action.message, details);
}

function methodMatches(pattern: string, method: string): boolean {
  if (pattern === "*" || pattern === method) return true;
  return pattern.endsWith(".*") && method.startsWith(pattern.slice(0, -1));
}

/** A scope matches a resource it names or one under it ("projects/p" covers its topics and subscriptions). */
function resourceMatches(scope: string, resources: readonly string[]): boolean {
  if (scope === "") return true;
  for (const r of resources) if (r === scope || r.startsWith(scope + "/")) return true;
  return false;
}
