/**
 * The one handler of each call shape over the RPC table, on every gRPC server (the call layer's
 * codecCall for raw and lean, grpc-js/calls.ts for grpc-js): unary (one request, one response, as
 * grpc-js's handleUnary checks) and StreamingPull (requests fed to a core StreamSession, its
 * deliveries written with backpressure, late acks still applied). The standard services' methods
 * (../std/), whatever their shape, are served by serveStd on the call layer.
 */
import type { DeliveryBatch } from "../../core/delivery/delivery-batch.ts";
import type { StreamRequest, StreamSink } from "../../core/delivery/stream-session.ts";
import type { CallContext, RpcTable, StreamHandle, UnaryRpc } from "../../rpc/table.ts";
import { releasesRequest } from "../../rpc/contract.ts";
import { withFrame } from "../framed.ts";
import { checkDecoded } from "../malformed.ts";
import { Code, statusOf, type GrpcStatus } from "../status.ts";
import { whenLoaded, type StdMethod } from "../std/contract.ts";
import type { Call } from "./call.ts";
import { OK, type ServerCall, type StreamingCall } from "./server-call.ts";

export function serveUnary(call: ServerCall<unknown, unknown>, fn: UnaryRpc): void {
  let req: unknown;
  let got = false;
  const fail = (e: unknown) => call.end(statusOf(e));
  const ctx: CallContext = { onCancel: (cancel) => call.onCancel(cancel) };
  call.read(
    (m) => {
      if (!got) return void ((got = true), (req = m));
      call.end({ code: Code.UNIMPLEMENTED, details: `Received a second request message for server streaming method ${call.path}` });
    },
    () => {
      if (!got) return call.end({ code: Code.UNIMPLEMENTED, details: `Received no request message for server streaming method ${call.path}` });
      let result: unknown;
      try {
        checkDecoded(req);
        result = fn(req, ctx);
      } catch (e) {
        return fail(e);
      }
      if (result instanceof Promise) result.then((r) => call.reply(r), fail);
      else {
        call.reply(result);
        if (releasesRequest(result)) call.giveBack?.();
      }
    },
  );
}

export function serveStreamingPull(call: StreamingCall<StreamRequest, DeliveryBatch>, table: RpcTable): void {
  let session: StreamHandle | null = null;
  let ended = false;
  const close = () => {
    ended = true;
    session?.close();
  };
  const end = (status: GrpcStatus) => {
    if (ended) return;
    close();
    call.end(status);
  };
  const fail = (err: unknown) => end(statusOf(err));
  const sink: StreamSink = {
    send: (batch) => {
      if (ended || call.ended) return true;
      const sent = call.send(batch);
      if (typeof sent === "boolean") return sent;
      end(sent);
      return true;
    },
    fail,
    room: () => call.room(),
  };
  call.onCancel(close);
  call.onDrain(() => session?.drained());
  call.read(
    (req) => {
      try {
        checkDecoded(req);
        // A client may nack what it holds and cancel at once: the nacks arrive after the end.
        if (ended) return session?.late(req);
        if (session) session.handle(req);
        else session = table.openStream(req, sink);
      } catch (e) {
        fail(e);
      }
    },
    () => {
      close();
      call.end(OK);
    },
    true,
  );
}

/** A standard service's call: its messages wait (in order) for the method's first load. */
export function serveStd(call: Call, method: StdMethod): void {
  const handler = whenLoaded(method, {
    send: (bytes) => void (call.ended || call.send(withFrame(bytes))),
    end: (status) => call.finish(status),
  });
  call.onCancel(() => handler.cancel());
  call.read((b) => handler.message(b), () => handler.halfClose());
}
