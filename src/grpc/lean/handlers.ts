/**
 * The lean server's call shapes: over the RPC table, unary (one request, one response, as
 * grpc-js's handleUnary checks) and StreamingPull (requests fed to a core StreamSession, its
 * deliveries written with backpressure, late acks still applied); and the standard services'
 * methods (../std/), whatever their shape.
 */
import type { DeliveryBatch } from "../../core/delivery/delivery-batch.ts";
import type { PubSubError } from "../../core/errors.ts";
import type { StreamRequest, StreamSink } from "../../core/delivery/stream-session.ts";
import type { CallContext, ProtoObject, RpcTable, StreamHandle, UnaryRpc } from "../../rpc/table.ts";
import { releasesRequest } from "../../rpc/contract.ts";
import { withFrame } from "../framed.ts";
import { checkDecoded } from "../malformed.ts";
import { Code, statusOf, type GrpcStatus } from "../status.ts";
import { whenLoaded, type StdMethod } from "../std/contract.ts";
import type { Call } from "./call.ts";

const OK: GrpcStatus = { code: Code.OK, details: "" };

export interface Codec {
  path: string;
  decode(b: Buffer): unknown;
  encode(v: unknown): Uint8Array;
  max: number;
}

function framed(codec: Codec, value: unknown): Buffer | GrpcStatus {
  try {
    const frame = withFrame(codec.encode(value));
    if (frame.length - 5 > codec.max) return { code: Code.RESOURCE_EXHAUSTED, details: `Sent message larger than max (${frame.length} vs. ${codec.max})` };
    return frame;
  } catch (e) {
    return statusOf(e);
  }
}

export function serveUnary(call: Call, codec: Codec, fn: UnaryRpc): void {
  let req: unknown;
  let got = false;
  const reply = (value: unknown) => {
    const frame = framed(codec, value);
    if (Buffer.isBuffer(frame)) call.finish(OK, frame);
    else call.finish(frame);
  };
  const fail = (e: unknown) => call.finish(statusOf(e));
  const ctx: CallContext = { onCancel: (cancel) => call.onCancel(cancel) };
  call.read(
    codec.decode,
    (m) => {
      if (!got) return void ((got = true), (req = m));
      call.finish({ code: Code.UNIMPLEMENTED, details: `Received a second request message for server streaming method ${codec.path}` });
    },
    () => {
      if (!got) return call.finish({ code: Code.UNIMPLEMENTED, details: `Received no request message for server streaming method ${codec.path}` });
      let result: unknown;
      try {
        checkDecoded(req);
        result = fn(req, ctx);
      } catch (e) {
        return fail(e);
      }
      if (result instanceof Promise) result.then(reply, fail);
      else {
        reply(result);
        if (releasesRequest(result)) call.giveBack();
      }
    },
  );
}

export function serveStreamingPull(call: Call, codec: Codec, table: RpcTable): void {
  let session: StreamHandle | null = null;
  let ended = false;
  const close = () => {
    ended = true;
    session?.close();
  };
  const end = (status: GrpcStatus) => {
    if (ended) return;
    close();
    call.finish(status);
  };
  const fail = (err: unknown) => end(statusOf(err));
  const sink: StreamSink = {
    send: (batch: DeliveryBatch) => {
      if (ended || call.ended) return true;
      const frame = framed(codec, batch);
      if (Buffer.isBuffer(frame)) return call.send(frame);
      end(frame);
      return true;
    },
    fail: (e: PubSubError) => fail(e),
    room: () => call.room(),
  };
  call.onCancel(close);
  call.stream.on("drain", () => session?.drained());
  call.read(
    codec.decode,
    (req) => {
      try {
        checkDecoded(req);
        // A client may nack what it holds and cancel at once: the nacks arrive after the end.
        if (ended) return session?.late(req as StreamRequest);
        if (session) session.handle(req as StreamRequest);
        else session = table.openStream(req as ProtoObject as StreamRequest, sink);
      } catch (e) {
        fail(e);
      }
    },
    () => {
      close();
      call.finish(OK);
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
  call.read((b) => b, (b) => handler.message(b as Buffer), () => handler.halfClose());
}
