/**
 * grpc-js's calls as the call shapes' handlers see a call (call/server-call.ts): the grpc-js
 * server runs the same unary and StreamingPull handlers (call/handlers.ts) as raw and lean.
 */
import * as grpc from "@grpc/grpc-js";
import type { ServerCall, StreamingCall } from "../call/server-call.ts";
import type { GrpcStatus } from "../status.ts";

/** The grpc-js error for a status (message, code, the details trailer). */
export function serviceError({ code, details, detailsBin }: GrpcStatus): grpc.ServiceError {
  const metadata = new grpc.Metadata();
  if (detailsBin) metadata.set("grpc-status-details-bin", detailsBin);
  return Object.assign(new Error(details), { code, details, metadata });
}

/** A unary call: grpc-js has read its one request; the answer goes to its callback. */
export function unaryCall<Req, Res>(path: string, call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>): ServerCall<Req, Res> {
  let ended = false;
  return {
    path,
    read(onMessage, onEnd) {
      onMessage(call.request);
      onEnd();
    },
    reply(res) {
      if (ended) return;
      ended = true;
      callback(null, res);
    },
    end(status) {
      if (ended) return;
      ended = true;
      callback(serviceError(status));
    },
    onCancel: (fn) => void call.on("cancelled", fn),
  };
}

/** A bidirectional stream: grpc-js encodes what is written; an error status is emitted as 'error'. */
export function duplexCall<Req, Res>(path: string, call: grpc.ServerDuplexStream<Req, Res>): StreamingCall<Req, Res> {
  let ended = false;
  const end = (status: GrpcStatus) => {
    if (ended) return;
    ended = true;
    if (status.code === 0) call.end();
    else call.emit("error", serviceError(status));
  };
  return {
    path,
    get ended() {
      return ended;
    },
    read(onMessage, onEnd, late) {
      call.on("data", (req: Req) => {
        if (!ended || late) onMessage(req);
      });
      call.on("end", () => {
        if (!ended) onEnd();
      });
    },
    send: (res) => call.write(res),
    reply(res) {
      call.write(res);
      end({ code: 0, details: "" });
    },
    end,
    onCancel(fn) {
      // grpc-js does not always say 'cancelled' when the client is gone: 'error' or 'close' alone may
      // be all there is. fn runs once, whichever comes first (after a normal end it has nothing to do).
      let ran = false;
      const once = () => {
        if (ran) return;
        ran = true;
        fn();
      };
      call.on("cancelled", once);
      call.on("error", once);
      call.on("close", once);
    },
    onDrain: (fn) => void call.on("drain", fn),
    room: () => Infinity,
  };
}
