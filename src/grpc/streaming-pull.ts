/**
 * StreamingPull over grpc-js: feeds requests to a core StreamSession and writes its deliveries,
 * honouring write() backpressure ('drain') and ending delivery when the call ends (acks and nacks
 * that arrive after that still count).
 */
import type * as grpc from "@grpc/grpc-js";
import type { PubSubError } from "../core/errors.ts";
import type { DeliveryBatch } from "../core/delivery/delivery-batch.ts";
import type { StreamRequest, StreamSink } from "../core/delivery/stream-session.ts";
import type { ProtoObject, RpcTable, StreamHandle } from "../rpc/table.ts";
import { checkDecoded } from "./malformed.ts";
import { toServiceError } from "./handler.ts";

export function streamingPull(table: RpcTable): grpc.handleBidiStreamingCall<ProtoObject, DeliveryBatch> {
  return (call) => {
    let session: StreamHandle | null = null;
    let ended = false;

    const fail = (err: unknown) => {
      if (ended) return;
      ended = true;
      session?.close();
      call.emit("error", toServiceError(err));
    };
    const sink: StreamSink = {
      send: (batch) => (ended ? true : call.write(batch)),
      fail: (e: PubSubError) => fail(e),
    };

    call.on("data", (req: ProtoObject) => {
      try {
        checkDecoded(req);
        // A client may nack what it holds and cancel at once: the nacks arrive after the end.
        if (ended) return session?.late(req as StreamRequest);
        if (session) session.handle(req as StreamRequest);
        else session = table.openStream(req as StreamRequest, sink);
      } catch (e) {
        fail(e);
      }
    });
    call.on("drain", () => session?.drained());
    const close = () => {
      session?.close();
      ended = true;
    };
    call.on("end", () => {
      close();
      call.end();
    });
    call.on("cancelled", close);
    call.on("error", close);
    call.on("close", close);
  };
}
