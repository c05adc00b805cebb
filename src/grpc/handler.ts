/** Wraps a core call as a unary gRPC handler: the one place a thrown error becomes a status. */
import type * as grpc from "@grpc/grpc-js";
import { checkDecoded } from "./malformed.ts";
import { toStatus } from "./status.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export function unary(fn: (req: Obj, call: grpc.ServerUnaryCall<Obj, Obj>) => Obj | Promise<Obj>): grpc.handleUnaryCall<Obj, Obj> {
  return (call, callback) => {
    let result: Obj | Promise<Obj>;
    try {
      checkDecoded(call.request);
      result = fn(call.request, call);
    } catch (e) {
      return callback(toStatus(e));
    }
    if (result instanceof Promise) result.then((r) => callback(null, r), (e) => callback(toStatus(e)));
    else callback(null, result);
  };
}
