/**
 * PullRequest's hand-written decoder: a unary Pull loop pays for it once per call, and the
 * descriptor codec's general walk costs ≈ 2× protobufjs's generated decoder on it. Field numbers
 * are google/pubsub/v1/pubsub.proto's. It reads the plain form clients send (the three fields,
 * each on its own wire type, a one-byte bool); anything else is left to the descriptor codec, so
 * the answer is always the descriptor codec's.
 */
import { Reader } from "./wire.ts";

export interface PullRequestShape {
  subscription?: string;
  returnImmediately?: boolean;
  maxMessages?: number;
}

/** The request, or undefined when it is not in the plain form. */
export function decodePlainPullRequest(buf: Buffer): PullRequestShape | undefined {
  const r = new Reader(buf);
  let subscription: string | undefined;
  let returnImmediately: boolean | undefined;
  let maxMessages: number | undefined;
  while (!r.done) {
    const tag = r.buf[r.pos++];
    if (tag === 0x0a) subscription = r.string("subscription");
    else if (tag === 0x10 && r.buf[r.pos]! <= 1) returnImmediately = r.buf[r.pos++] === 1;
    else if (tag === 0x18) maxMessages = r.int32();
    else return undefined;
  }
  // In field order, as the descriptor codec builds it.
  const out: PullRequestShape = {};
  if (subscription !== undefined) out.subscription = subscription;
  if (returnImmediately !== undefined) out.returnImmediately = returnImmediately;
  if (maxMessages !== undefined) out.maxMessages = maxMessages;
  return out;
}
