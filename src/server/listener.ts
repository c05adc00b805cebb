/**
 * One port for gRPC and HTTP/1.1, as the gcloud emulator has: a connection that opens with the
 * HTTP/2 client preface goes to the gRPC transport (the lean or grpc-js server; the raw server's port is server/raw-front.ts), anything else to
 * the HTTP handler. A connection that
 * does not finish its preface, or the headers of its next HTTP request, within the handshake
 * timeout is closed; a gRPC connection, once handed over, is never timed out by us (idle
 * streams live on HTTP/2 keepalive pings).
 */
import * as http from "node:http";
import type * as net from "node:net";
import type { GrpcTransport } from "../grpc/transport.ts";
import { bindAll } from "./bind.ts";
import { sniff } from "./preface.ts";

export interface Listener {
  port: number;
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Most time a connection may take to send its preface, or an HTTP request its headers. */
  handshakeTimeoutMs: number;
  /** Most time shutdown waits for calls in flight before closing every connection. */
  shutdownGraceMs: number;
  /** Called first on close, to end streams with UNAVAILABLE. */
  onClosing?: () => void;
}

export async function listen(
  host: string,
  port: number,
  grpc: GrpcTransport,
  httpHandler: http.RequestListener,
  o: ListenOptions,
): Promise<Listener> {
  const web = http.createServer(httpHandler);
  const sockets = new Set<net.Socket>();
  /** Sockets whose protocol is not known yet (closed at once on shutdown). */
  const sniffing = new Set<net.Socket>();
  /** HTTP sockets between requests (and their deadline for the next request's headers). */
  const idleHttp = new Map<net.Socket, ReturnType<typeof setTimeout>>();
  let closing = false;
  let allClosed: (() => void) | null = null;

  const deadline = (socket: net.Socket) => {
    const t = setTimeout(() => socket.destroy(), o.handshakeTimeoutMs);
    t.unref?.();
    return t;
  };
  const awaitHeaders = (socket: net.Socket) => {
    if (closing) return void socket.destroy();
    idleHttp.set(socket, deadline(socket));
  };
  web.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket as net.Socket;
    clearTimeout(idleHttp.get(socket));
    idleHttp.delete(socket);
    res.on("finish", () => awaitHeaders(socket));
  });

  const tcp = await bindAll(host, port, (socket) => {
    sockets.add(socket);
    sniffing.add(socket);
    const timer = deadline(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      sniffing.delete(socket);
      clearTimeout(timer);
      clearTimeout(idleHttp.get(socket));
      idleHttp.delete(socket);
      if (sockets.size === 0) allClosed?.();
    });
    socket.on("error", () => socket.destroy());
    let head: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const kind = sniff(head);
      if (kind === "wait") return;
      // Not answered; node's end() reads on until the client's FIN (or the handshake timeout).
      if (kind === "bad") return void (socket.off("data", onData), socket.resume(), socket.end());
      sniffing.delete(socket);
      socket.off("data", onData);
      socket.pause();
      socket.unshift(head);
      clearTimeout(timer);
      if (kind === "grpc") grpc.accept(socket);
      else {
        awaitHeaders(socket);
        web.emit("connection", socket);
      }
      socket.resume();
    };
    socket.on("data", onData);
  });

  return {
    port: (tcp[0].address() as net.AddressInfo).port,
    async close() {
      closing = true;
      for (const t of tcp) t.close();
      o.onClosing?.();
      for (const s of [...idleHttp.keys(), ...sniffing]) s.destroy();
      // GOAWAY: each gRPC connection closes once its calls in flight have finished.
      grpc.drain(o.shutdownGraceMs);
      await new Promise<void>((resolve) => {
        if (sockets.size === 0) return resolve();
        allClosed = resolve;
        setTimeout(resolve, o.shutdownGraceMs).unref?.();
      });
      grpc.close();
      web.close();
      for (const s of sockets) s.destroy();
    },
  };
}
