/**
 * StreamingPull over grpc-js: feeds requests to a core StreamSession and writes its deliveries,
 * honouring write() backpressure ('drain') and ending delivery when the call ends.
 */
import type * as grpc from "@grpc/grpc-js";
import type { Broker } from "../core/broker.ts";
import { PubSubError } from "../core/errors.ts";
import { StreamSession, type StreamRequest } from "../core/stream-session.ts";
import type { DeliveryResponse } from "./codec/messages.ts";
import { checkDecoded } from "./malformed.ts";
import { toStatus } from "./status.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

export function streamingPull(broker: Broker): grpc.handleBidiStreamingCall<Obj, Obj> {
  return (call) => {
    let session: StreamSession | null = null;
    let ended = false;
    let properties: DeliveryResponse["properties"];
    let withAttempt = false;

    const fail = (err: unknown) => {
      if (ended) return;
      ended = true;
      session?.close();
      call.emit("error", toStatus(err));
    };
    const sink = {
      send: (deliveries: import("../core/message.ts").Delivery[]) => {
        if (ended) return true;
        const res: DeliveryResponse = { deliveries, withAttempt, properties };
        return call.write(res);
      },
      fail: (e: PubSubError) => fail(e),
    };

    call.on("data", (req: Obj) => {
      if (ended) return;
      try {
        checkDecoded(req);
        if (session) return session.handle(req as StreamRequest);
        const sub = broker.subscription(req.subscription || "");
        properties = { exactlyOnce: sub.config.enableExactlyOnceDelivery, ordering: sub.config.enableMessageOrdering };
        withAttempt = !!sub.config.deadLetterPolicy;
        session = new StreamSession(broker, req as StreamRequest, sink);
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
