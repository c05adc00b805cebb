/**
 * The raw gRPC server (`--grpc-server raw`, the default): the gRPC call layer (call/) over our own
 * HTTP/2 connection (connection.ts) instead of Bun's node:http2. Its connections come from the raw
 * front (server/raw-front.ts) on Bun sockets, or through the node:net port as a GrpcTransport. Same
 * routing, codecs and answers as the lean server (lean/server.ts).
 */
import type * as net from "node:net";
import type { RpcTable } from "../../rpc/table.ts";
import { PartialBytes } from "../call/framing.ts";
import { RECEIVE_WINDOW, streamHandler, type LeanOptions } from "../call/routes.ts";
import { trailersOnly } from "../call/call.ts";
import { Code } from "../status.ts";
import { drainConnections, type GrpcTransport } from "../transport.ts";
import { H2Connection } from "./connection.ts";
import { netWire } from "./wire.ts";

/** A gRPC client sends a few hundred bytes of headers; grpc-js's own limit for metadata is 8 KiB (we allow 64). */
const MAX_HEADER_LIST = 64 * 1024;
/** Streams open at once per connection; a client past it waits (grpc clients queue calls). */
const MAX_STREAMS = 1000;

export interface RawServer extends GrpcTransport {
  /** A new connection, not yet attached to its wire. */
  connection(): H2Connection;
}

export function rawServer(table: RpcTable, o: LeanOptions = {}): RawServer {
  const handle = streamHandler(table, new PartialBytes(o.partialBytes ?? Infinity), o.health);
  const window = o.receiveWindow ?? RECEIVE_WINDOW;
  const connections = new Set<H2Connection>();
  const connection = () => {
    const c = new H2Connection({
      window,
      maxConcurrentStreams: MAX_STREAMS,
      maxHeaderListSize: MAX_HEADER_LIST,
      onStream: handle,
      onOversized: (stream) =>
        trailersOnly(stream, { code: Code.RESOURCE_EXHAUSTED, details: `The request's headers are larger than ${MAX_HEADER_LIST} bytes.` }),
    });
    connections.add(c);
    c.onClose = () => connections.delete(c);
    return c;
  };
  return {
    connection,
    accept(socket: net.Socket) {
      const c = connection();
      c.attach(netWire(socket, c));
    },
    drain: (graceMs) => drainConnections(connections, (c) => c.drain(), (c) => c.destroy(), graceMs),
    close() {
      for (const c of [...connections]) c.destroy();
    },
  };
}
