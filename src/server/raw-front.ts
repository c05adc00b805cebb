/**
 * The shared port on Bun's own sockets, for `--grpc-server raw`: a connection that opens with the
 * HTTP/2 preface becomes a raw HTTP/2 connection on its Bun socket (no node:net stream between);
 * any other is relayed byte for byte to the HTTP server of listener.ts, started on a loopback
 * port with the first such connection, which answers it exactly as on the node:net port. The
 * handshake timeout, GOAWAY on shutdown and the grace period are the same as there.
 */
import type { Socket, TCPSocketListener } from "bun";
import type * as http from "node:http";
import { BunWire, Outbox, closeGently } from "../grpc/h2/wire.ts";
import type { RawServer } from "../grpc/h2/server.ts";
import { listenEach } from "../runtime/addresses.ts";
import type { ListenOptions, Listener } from "./listener.ts";
import { sniff } from "./preface.ts";
import { quickHealth } from "./quick-health.ts";

/** Bytes one side of a relay may have waiting for the other before the sender is paused. */
const RELAY_HIGH_WATER = 1024 * 1024;

interface Conn {
  head: Buffer | null;
  /** Known to be HTTP/1: health probes are answered here until a request that is not one. */
  http: boolean;
  /** Neither HTTP/2 nor HTTP/1.x: closing, what else it sends is dropped. */
  refused: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
  wire: BunWire | null;
  relay: Relay | null;
}

/** One HTTP/1 connection relayed to the HTTP server on loopback. */
class Relay {
  private backend: Socket<Relay> | null = null;
  private readonly toBackend = new Outbox();
  private readonly toFront = new Outbox();
  private frontEnded = false;
  private closed = false;

  constructor(
    private readonly front: Socket<Conn>,
    head: Buffer,
    port: Promise<number>,
  ) {
    this.toBackend.push(head);
    port.then(
      (p) => {
        if (this.closed) return;
        Bun.connect<Relay>({
          hostname: "127.0.0.1",
          port: p,
          data: this,
          socket: {
            open: (b) => {
              if (this.closed) return void b.terminate();
              this.backend = b;
              this.flushToBackend();
              if (this.frontEnded) b.shutdown();
            },
            data: (_b, chunk) => this.fromBackend(chunk as Buffer),
            drain: () => this.flushToBackend(),
            close: () => this.backendClosed(),
            error: () => {},
            connectError: () => this.backendClosed(),
          },
        }).catch(() => this.backendClosed());
      },
      () => this.backendClosed(),
    );
  }

  fromFront(chunk: Buffer): void {
    this.toBackend.push(chunk);
    this.flushToBackend();
  }

  private flushToBackend(): void {
    if (this.backend) this.toBackend.flush(this.backend);
    throttle(this.front, this.toBackend);
  }

  private fromBackend(chunk: Buffer): void {
    this.toFront.push(chunk);
    this.flushToFront();
  }

  flushToFront(): void {
    const done = this.toFront.flush(this.front);
    if (this.backend) throttle(this.backend, this.toFront);
    if (this.closed && done) this.front.end();
  }

  /** The client sent FIN: the HTTP server hears it too, and still answers what it has. */
  frontEnd(): void {
    this.frontEnded = true;
    this.backend?.shutdown();
  }

  frontClosed(): void {
    this.closed = true;
    this.toBackend.clear();
    this.backend?.end();
  }

  private backendClosed(): void {
    if (this.closed && this.toFront.empty) return;
    this.closed = true;
    this.flushToFront();
  }
}

/** The side that fills `waiting` reads no more while it holds more than RELAY_HIGH_WATER. */
function throttle(sender: Socket<unknown>, waiting: Outbox): void {
  if (waiting.bytes > RELAY_HIGH_WATER) sender.pause();
  else sender.resume();
}

export async function listenRaw(host: string, port: number, grpc: RawServer, web: http.RequestListener, o: ListenOptions): Promise<Listener> {
  const sockets = new Set<Socket<Conn>>();
  let closing = false;
  let allClosed: (() => void) | null = null;
  // The HTTP side (listener.ts on node:http) starts with the first HTTP connection.
  let backend: Promise<Listener> | null = null;
  const backendPort = () =>
    (backend ??= import("./listener.ts").then(({ listen }) => listen("127.0.0.1", 0, grpc, web, { handshakeTimeoutMs: o.handshakeTimeoutMs, shutdownGraceMs: o.shutdownGraceMs }))).then((l) => l.port);

  const deadline = (s: Socket<Conn>) => setTimeout(() => s.terminate(), o.handshakeTimeoutMs);

  /** Health probes here (quick-health.ts); the first other request starts the relay, with every byte from it on. */
  const answerHttp = (s: Socket<Conn>, head: Buffer) => {
    const c = s.data;
    for (;;) {
      const q = quickHealth(head);
      if (q === "wait") return void (c.head = head);
      c.head = null;
      if (q === "relay") {
        clearTimeout(c.timer);
        c.relay = new Relay(s, head, backendPort());
        return;
      }
      // A probe's answer is a few hundred bytes: a client that does not take it is let go.
      if (s.write(q.reply) < q.reply.length || q.close) return void s.end();
      // As between requests on the HTTP server: the next one's headers within the handshake timeout.
      clearTimeout(c.timer);
      c.timer = deadline(s);
      if (q.rest.length === 0) return;
      head = q.rest;
    }
  };

  const handlers = {
    open(s: Socket<Conn>) {
      if (closing) return void s.terminate();
      sockets.add(s);
      s.data = { head: null, http: false, refused: false, timer: deadline(s), wire: null, relay: null };
    },
    data(s: Socket<Conn>, chunk: Buffer) {
      const c = s.data;
      if (c.wire) return c.wire.conn.read(chunk);
      if (c.relay) return c.relay.fromFront(chunk);
      if (c.refused) return;
      const head: Buffer = c.head ? Buffer.concat([c.head, chunk]) : chunk;
      if (c.http) return answerHttp(s, head);
      const kind = sniff(head);
      if (kind === "wait") return void (c.head = head);
      c.head = null;
      if (kind === "bad") {
        // An invalid preface (RFC 9113 §3.4) is not answered, not even with an HTTP/1.1 400.
        c.refused = true;
        clearTimeout(c.timer);
        return closeGently(s);
      }
      if (kind === "http") {
        c.http = true;
        return answerHttp(s, head);
      }
      clearTimeout(c.timer);
      const conn = grpc.connection();
      c.wire = new BunWire(s, conn);
      conn.attach(c.wire);
      conn.read(head);
    },
    drain(s: Socket<Conn>) {
      s.data.wire?.onDrain();
      s.data.relay?.flushToFront();
    },
    end(s: Socket<Conn>) {
      const c = s.data;
      if (c.relay) c.relay.frontEnd();
      else if (c.wire) c.wire.end();
      else s.end();
    },
    close(s: Socket<Conn>) {
      const c = s.data;
      clearTimeout(c?.timer);
      c?.wire?.onClose();
      c?.relay?.frontClosed();
      sockets.delete(s);
      if (sockets.size === 0) allClosed?.();
    },
    error() {},
  };

  const listen = async (hostname: string, p: number) => Bun.listen<Conn>({ hostname, port: p, allowHalfOpen: true, socket: handlers });
  const listeners: TCPSocketListener<Conn>[] = await listenEach(host, port, listen, (l) => l.port);
  const bound = listeners[0]!.port;

  return {
    port: bound,
    async close() {
      closing = true;
      for (const l of listeners) l.stop();
      o.onClosing?.();
      for (const s of sockets) if (!s.data?.wire && !s.data?.relay) s.terminate();
      grpc.drain(o.shutdownGraceMs);
      const web = backend ? (await backend).close() : Promise.resolve();
      await new Promise<void>((resolve) => {
        if (sockets.size === 0) return resolve();
        allClosed = resolve;
        setTimeout(resolve, o.shutdownGraceMs).unref?.();
      });
      await web;
      grpc.close();
      for (const s of sockets) s.terminate();
    },
  };
}
