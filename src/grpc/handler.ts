/** Wraps a table RPC as a unary gRPC handler: the one place a thrown error becomes a status. */
import type * as grpc from "@grpc/grpc-js";
import type { CallContext, ProtoObject, UnaryRpc } from "../rpc/table.ts";
import { checkDecoded } from "./malformed.ts";
import { toStatus } from "./status.ts";

export function unary(fn: UnaryRpc): grpc.handleUnaryCall<ProtoObject, unknown> {
  return (call, callback) => {
    const ctx: CallContext = { onCancel: (cancel) => call.on("cancelled", cancel) };
    let result: unknown;
    try {
      checkDecoded(call.request);
      result = fn(call.request, ctx);
    } catch (e) {
      return callback(toStatus(e));
    }
    if (result instanceof Promise) result.then((r) => callback(null, r), (e) => callback(toStatus(e)));
    else callback(null, result);
  };
}
