/** Wraps a table RPC as a unary grpc-js handler: the one place a thrown error becomes a grpc-js status. */
import * as grpc from "@grpc/grpc-js";
import type { CallContext, ProtoObject, UnaryRpc } from "../rpc/table.ts";
import { checkDecoded } from "./malformed.ts";
import { statusOf } from "./status.ts";

/** The grpc-js error for a thrown error (status, message, details trailer). */
export function toServiceError(err: unknown): grpc.ServiceError {
  const { code, details, detailsBin } = statusOf(err);
  const metadata = new grpc.Metadata();
  if (detailsBin) metadata.set("grpc-status-details-bin", detailsBin);
  return Object.assign(new Error(details), { code, details, metadata });
}

export function unary(fn: UnaryRpc): grpc.handleUnaryCall<ProtoObject, unknown> {
  return (call, callback) => {
    const ctx: CallContext = { onCancel: (cancel) => call.on("cancelled", cancel) };
    let result: unknown;
    try {
      checkDecoded(call.request);
      result = fn(call.request, ctx);
    } catch (e) {
      return callback(toServiceError(e));
    }
    if (result instanceof Promise) result.then((r) => callback(null, r), (e) => callback(toServiceError(e)));
    else callback(null, result);
  };
}
