/**
 * The lean gRPC server (`--grpc-server lean`; the default is raw, our own HTTP/2 in h2/): the gRPC
 * call layer (call/, shared with raw) over Bun's own node:http2, with no grpc-js on the serving
 * path. Each stream goes to call/routes.ts. HTTP/2 itself (SETTINGS, flow
 * control, PING answers, GOAWAY) is the runtime's.
 */
import * as http2 from "node:http2";
import type { RpcTable } from "../../rpc/table.ts";
import { drainConnections, type GrpcTransport } from "../transport.ts";
import { PartialBytes } from "../call/framing.ts";
import { RECEIVE_WINDOW, streamHandler, type LeanOptions } from "../call/routes.ts";

export function leanTransport(table: RpcTable, o: LeanOptions = {}): GrpcTransport {
  const window = o.receiveWindow ?? RECEIVE_WINDOW;
  const partial = new PartialBytes(o.partialBytes ?? Infinity);
  const settings: http2.Settings = { initialWindowSize: window };
  // As grpc-js sets its server: no header block or session memory limit of its own (and the window above).
  const server = http2.createServer({ maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER, maxSessionMemory: Number.MAX_SAFE_INTEGER, settings });
  // A broken connection is the client's problem, never the process's.
  server.on("sessionError", () => {});
  server.on("error", () => {});
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    if (window > 65_535) session.setLocalWindowSize(window);
    session.on("close", () => sessions.delete(session));
    session.on("error", () => {});
  });
  const handle = streamHandler(table, partial, o.health);
  // node:http2's stream is a CallStream as it is (checked here, not cast).
  server.on("stream", (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => handle(stream, headers));
  return {
    accept: (socket) => server.emit("connection", socket),
    drain: (graceMs) => drainConnections(sessions, (s) => s.close(), (s) => s.destroy(), graceMs),
    close() {
      for (const s of sessions) s.destroy();
      server.close();
    },
  };
}

