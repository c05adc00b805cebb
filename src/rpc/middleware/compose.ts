/**
 * What wraps the RPC table for every transport has one typed shape, and one function applies a
 * list of them (nice-grpc's composeServerMiddleware): the list itself is written once, in
 * rpc/table.ts.
 */
import type { RpcTable, StreamOpener, UnaryRpc } from "../contract.ts";

export interface RpcMiddleware {
  /** The RPC `name` as this middleware serves it, calling `next`; absent: every RPC as it is. */
  unary?(name: string, next: UnaryRpc): UnaryRpc;
  /** StreamingPull's opener as this middleware serves it; absent: as it is. */
  openStream?(next: StreamOpener): StreamOpener;
}

/** The table wrapped by `middlewares`, the first outermost (it sees a call first); undefined entries are left out. */
export function compose(table: RpcTable, middlewares: readonly (RpcMiddleware | undefined)[]): RpcTable {
  const inward = middlewares.filter((m): m is RpcMiddleware => m !== undefined).reverse();
  const unary = new Map<string, UnaryRpc>();
  for (const [name, fn] of table.unary) unary.set(name, inward.reduce((next, m) => m.unary?.(name, next) ?? next, fn));
  const openStream = inward.reduce((next, m) => m.openStream?.(next) ?? next, table.openStream);
  return { unary, openStream };
}
