/**
 * Bun's floor for a gRPC server on Bun.listen (as the emulator's raw front): the least HTTP/2 a
 * grpc-js client accepts — SETTINGS both ways, then for each request stream the same message back
 * with grpc-status 0 — and no HPACK decoding. Compiled like the emulator, timed by rounds.ts.
 */
const at = process.argv.indexOf("--host-port");
const [host, port] = (at > 0 ? process.argv[at + 1]! : "127.0.0.1:0").split(":");
const PREFACE = 24;

function frame(type: number, flags: number, stream: number, payload: Uint8Array): Buffer {
  const f = Buffer.alloc(9 + payload.length);
  f.writeUIntBE(payload.length, 0, 3);
  f[3] = type;
  f[4] = flags;
  f.writeUInt32BE(stream, 5);
  f.set(payload, 9);
  return f;
}
/** Literal header fields without indexing; ":status: 200" is static entry 8. */
function block(fields: [string, string][], status: boolean): Buffer {
  const parts = status ? [Buffer.from([0x88])] : [];
  for (const [n, v] of fields) parts.push(Buffer.from([0, n.length]), Buffer.from(n), Buffer.from([v.length]), Buffer.from(v));
  return Buffer.concat(parts);
}

const listener = Bun.listen<{ buf: Buffer; preface: boolean; body: Map<number, Buffer[]> }>({
  hostname: host!,
  port: Number(port),
  socket: {
    open(s) {
      s.data = { buf: Buffer.alloc(0), preface: false, body: new Map() };
      s.write(frame(4, 0, 0, new Uint8Array(0)));
    },
    data(s, chunk) {
      const d = s.data;
      d.buf = Buffer.concat([d.buf, chunk]);
      if (!d.preface) {
        if (d.buf.length < PREFACE) return;
        d.buf = d.buf.subarray(PREFACE);
        d.preface = true;
      }
      while (d.buf.length >= 9) {
        const len = d.buf.readUIntBE(0, 3);
        if (d.buf.length < 9 + len) return;
        const [type, flags, stream] = [d.buf[3]!, d.buf[4]!, d.buf.readUInt32BE(5) & 0x7fffffff];
        const payload = d.buf.subarray(9, 9 + len);
        d.buf = d.buf.subarray(9 + len);
        if (type === 4 && !(flags & 1)) s.write(frame(4, 1, 0, new Uint8Array(0)));
        if (type === 1) d.body.set(stream, []);
        if (type === 0) d.body.get(stream)?.push(Buffer.from(payload));
        if ((type === 0 || type === 1) && flags & 1) {
          s.write(frame(1, 4, stream, block([["content-type", "application/grpc"]], true)));
          s.write(frame(0, 0, stream, Buffer.concat(d.body.get(stream) ?? [])));
          s.write(frame(1, 5, stream, block([["grpc-status", "0"]], false)));
          d.body.delete(stream);
        }
      }
    },
  },
});
console.log(`[pubsub] INFO: Server started, listening on ${listener.port}`);
