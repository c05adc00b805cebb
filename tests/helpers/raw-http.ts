/**
 * HTTP/1.1 over a raw socket, for what fetch cannot show: pipelined requests on one connection,
 * hand-made chunked bodies, answers that arrive before the body is sent, connections the server closes.
 */
import * as net from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawConnection {
  write(data: string | Buffer): void;
  /** Resolves with the next `n` responses (content-length framed), or rejects after `ms`. */
  responses(n: number, ms?: number): Promise<RawResponse[]>;
  /** Resolves true when the server closes the connection within `ms`. */
  closed(ms?: number): Promise<boolean>;
  destroy(): void;
}

export function connect(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let buf = Buffer.alloc(0);
    let ended = false;
    const waiters: (() => void)[] = [];
    const wake = () => waiters.splice(0).forEach((w) => w());
    socket.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      wake();
    });
    socket.on("close", () => {
      ended = true;
      wake();
    });
    socket.on("error", () => {});

    /** Takes one complete response off the front of the buffer, if there is one. */
    function parseOne(): RawResponse | undefined {
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) return undefined;
      const [statusLine, ...lines] = buf.subarray(0, end).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(":");
        headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      if (buf.length < end + 4 + length) return undefined;
      const body = buf.subarray(end + 4, end + 4 + length).toString("utf8");
      buf = buf.subarray(end + 4 + length);
      return { status: Number(statusLine.split(" ")[1]), headers, body };
    }

    const waitUntil = (cond: () => boolean, ms: number) =>
      new Promise<boolean>((done) => {
        const timer = setTimeout(() => done(false), ms);
        const check = () => {
          if (cond()) {
            clearTimeout(timer);
            done(true);
          } else waiters.push(check);
        };
        check();
      });

    socket.once("connect", () =>
      resolve({
        write: (data) => void socket.write(data),
        async responses(n, ms = 5000) {
          const out: RawResponse[] = [];
          const ok = await waitUntil(() => {
            for (let r = parseOne(); r; r = out.length < n ? parseOne() : undefined) out.push(r);
            return out.length >= n || ended;
          }, ms);
          if (!ok || out.length < n) throw new Error(`got ${out.length} of ${n} responses within ${ms} ms`);
          return out;
        },
        closed: (ms = 5000) => waitUntil(() => ended, ms),
        destroy: () => socket.destroy(),
      }),
    );
    socket.once("error", reject);
  });
}

/** One request as HTTP/1.1 text with a JSON body (content-length framed). */
export function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): string {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const h = { host: "emulator", ...(text ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) } : {}), ...headers };
  return `${method} ${path} HTTP/1.1\r\n${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n${text}`;
}
