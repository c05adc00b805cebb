/**
 * What an RPC is to every side of the table: the handlers (rpc/*), the table that gathers them
 * and the transports and wrappers that call it. Kept apart so handlers never import the table.
 */
import type { StreamSession, StreamRequest, StreamSink } from "../core/delivery/stream-session.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProtoObject = Record<string, any>;

/** What a handler may ask of the call that carries it. */
export interface CallContext {
  /** Runs `fn` if the caller goes away before the answer (a waiting Pull stops waiting). */
  onCancel(fn: () => void): void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UnaryRpc = (req: any, ctx: CallContext) => unknown | Promise<unknown>;

/**
 * A unary result that says nothing the call made keeps a reference into its decoded request (a
 * Publish whose messages no one holds): the transport may use the request's bytes again.
 */
export interface ReleasesRequest {
  readonly requestReleased: boolean;
}

export const releasesRequest = (result: unknown): boolean =>
  typeof result === "object" && result !== null && (result as Partial<ReleasesRequest>).requestReleased === true;

/** What a transport holds for one open StreamingPull stream. */
export type StreamHandle = Pick<StreamSession, "handle" | "late" | "drained" | "close">;

export interface RpcTable {
  /** Every unary RPC of every service, by "Service.Method". */
  readonly unary: ReadonlyMap<string, UnaryRpc>;
  /** Subscriber.StreamingPull: validates the first request and starts a session. */
  openStream(first: StreamRequest, sink: StreamSink): StreamHandle;
}

export const NO_CONTEXT: CallContext = { onCancel: () => {} };
