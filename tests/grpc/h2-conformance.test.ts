/**
 * HTTP/2 conformance of the raw server (`--grpc-server raw`), each rule inside a real gRPC call:
 * a ListTopics request written frame by frame, with one defect. A malformed request (RFC 9113
 * §8.1.1: §8.2–§8.3's field rules, content-length) is a stream error PROTOCOL_ERROR and is never
 * served; a well-formed one that gRPC refuses keeps its gRPC or HTTP answer. Also: DATA after the
 * client ended or reset a stream (STREAM_CLOSED), a stream depending on itself, `GET /` over h2c,
 * an invalid preface, and the close after our GOAWAY. h2spec itself runs in .ci/h2spec.
 */
import * as net from "node:net";
import hpack from "hpack.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROJECT, startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { PREFACE, Peer, SETTINGS, fieldsBlock, frame, goawayCode, grpcMessage, literal, rstCode, u32, type Frame } from "../helpers/h2-peer.ts";

const LIST_TOPICS = "/google.pubsub.v1.Publisher/ListTopics";
/** ListTopicsRequest { project } as protobuf: field 1, length-delimited. */
const REQUEST = (() => {
  const project = Buffer.from(`projects/${PROJECT}`);
  return grpcMessage(Buffer.concat([Buffer.from([0x0a, project.length]), project]));
})();
type Fields = [string, string][];
const PSEUDO: Fields = [
  [":method", "POST"],
  [":scheme", "http"],
  [":path", LIST_TOPICS],
  [":authority", "localhost"],
];
const REGULAR: Fields = [
  ["content-type", "application/grpc"],
  ["te", "trailers"],
];
const GOOD: Fields = [...PSEUDO, ...REGULAR];
const without = (name: string) => GOOD.filter(([n]) => n !== name);

const HEADERS = 1;
const DATA = 0;
const RST_STREAM = 3;
const END_STREAM = 1;
const END_HEADERS = 4;
const PROTOCOL_ERROR = 1;
const STREAM_CLOSED = 5;

let emu: TestEmulator;
/** Runs `fn` on a new connection to the emulator, destroyed after. */
async function withPeer<T>(fn: (peer: Peer) => Promise<T>): Promise<T> {
  const peer = new Peer(emu.port);
  try {
    return await fn(peer);
  } finally {
    peer.destroy();
  }
}
beforeAll(async () => {
  emu = await startTestEmulator({ grpcServer: "raw" });
});
afterAll(async () => {
  await emu?.close();
});

/** The server's header fields of every HEADERS frame on `stream`, in order (decoded with the connection's HPACK state). */
function answers(frames: Frame[], stream: number): Map<string, string>[] {
  const d = hpack.decompressor.create({ table: { size: 4096 } });
  const out: Map<string, string>[] = [];
  for (const f of frames) {
    if (f.type !== HEADERS) continue;
    d.write(f.payload);
    d.execute();
    const fields = new Map<string, string>();
    for (let h = d.read(); h; h = d.read()) fields.set(h.name, h.value);
    if (f.stream === stream) out.push(fields);
  }
  return out;
}

interface Outcome {
  /** The RST_STREAM code on stream 1, or null. */
  reset: number | null;
  /** Every header field the server answered on stream 1 with (trailers merged in). */
  answer: Map<string, string> | null;
}

/** One call on stream 1 of a new connection: `fields`, then the DATA frames (END_STREAM on the last). */
async function call(fields: Fields, data: Buffer[] = [REQUEST], trailers?: Fields): Promise<Outcome> {
  return withPeer(async (peer) => {
    const end = data.length === 0 && !trailers ? END_STREAM : 0;
    const frames = [frame(HEADERS, END_HEADERS | end, 1, fieldsBlock(fields))];
    data.forEach((d, i) => frames.push(frame(DATA, i === data.length - 1 && !trailers ? END_STREAM : 0, 1, d)));
    if (trailers) frames.push(frame(HEADERS, END_HEADERS | END_STREAM, 1, fieldsBlock(trailers)));
    peer.send(...frames);
    const last = await peer.next((f) => f.stream === 1 && (f.type === RST_STREAM || (f.type === HEADERS && (f.flags & END_STREAM) !== 0)));
    const rst = peer.frames.find((f) => f.stream === 1 && f.type === RST_STREAM) ?? null;
    const headers = answers(peer.frames, 1);
    return { reset: rst ? rstCode(rst) : null, answer: headers.length && last?.type === HEADERS ? new Map(headers.flatMap((h) => [...h])) : null };
  });
}

describe("well-formed requests are served, and gRPC's refusals stay gRPC answers", () => {
  test("the ListTopics call as built here answers grpc-status 0", async () => {
    const r = await call(GOOD);
    expect(r.reset).toBeNull();
    expect(r.answer?.get(":status")).toBe("200");
    expect(r.answer?.get("grpc-status")).toBe("0");
  });
  test("a content-length that matches its DATA (in two frames) is served", async () => {
    const r = await call([...GOOD, ["content-length", String(REQUEST.length)]], [REQUEST.subarray(0, 3), REQUEST.subarray(3)]);
    expect(r.reset).toBeNull();
    expect(r.answer?.get("grpc-status")).toBe("0");
  });
  test("client trailers without pseudo-header fields end the call", async () => {
    const r = await call(GOOD, [REQUEST], [["x-trailer", "1"]]);
    expect(r.reset).toBeNull();
    expect(r.answer?.get("grpc-status")).toBe("0");
  });
  test("an unknown method is UNIMPLEMENTED (12), a non-gRPC content type 415, a non-POST method 405", async () => {
    const unknown = await call(GOOD.map(([n, v]): [string, string] => [n, n === ":path" ? "/google.pubsub.v1.Publisher/Nope" : v]));
    expect(unknown.answer?.get("grpc-status")).toBe("12");
    const plain = await call(GOOD.map(([n, v]): [string, string] => [n, n === "content-type" ? "text/plain" : v]));
    expect(plain.answer?.get(":status")).toBe("415");
    const put = await call(GOOD.map(([n, v]): [string, string] => [n, n === ":method" ? "PUT" : v]));
    expect(put.answer?.get(":status")).toBe("405");
  });
});

describe("a malformed request is RST_STREAM PROTOCOL_ERROR, never served (RFC 9113 §8.1.1)", () => {
  const cases: [string, () => Promise<Outcome>][] = [
    ["an upper-case field name", () => call([...GOOD, ["X-Custom", "1"]])],
    ["a field name with a space", () => call([...GOOD, ["x custom", "1"]])],
    ["a field value with CR LF", () => call([...GOOD, ["x-custom", "a\r\nb"]])],
    ["a field value with NUL", () => call([...GOOD, ["x-custom", "a\0b"]])],
    ["a field value with leading whitespace", () => call([...GOOD, ["x-custom", " a"]])],
    ["an unknown pseudo-header field", () => call([...PSEUDO, [":foo", "bar"], ...REGULAR])],
    ["the response pseudo-header :status", () => call([...PSEUDO, [":status", "200"], ...REGULAR])],
    ["a pseudo-header field after a regular field", () => call([...without(":authority"), [":authority", "localhost"]])],
    ["connection: keep-alive", () => call([...GOOD, ["connection", "keep-alive"]])],
    ["keep-alive", () => call([...GOOD, ["keep-alive", "timeout=5"]])],
    ["transfer-encoding: chunked", () => call([...GOOD, ["transfer-encoding", "chunked"]])],
    ["upgrade", () => call([...GOOD, ["upgrade", "h2c"]])],
    ["proxy-connection", () => call([...GOOD, ["proxy-connection", "close"]])],
    ["te: trailers, deflate", () => call([...without("te"), ["te", "trailers, deflate"]])],
    ["no :method", () => call(without(":method"))],
    ["no :scheme", () => call(without(":scheme"))],
    ["no :path", () => call(without(":path"))],
    ["an empty :path", () => call([...without(":path").slice(0, 2), [":path", ""], ...REGULAR])],
    [":method twice", () => call([[":method", "POST"], ...GOOD])],
    [":scheme twice", () => call([[":scheme", "http"], ...GOOD])],
    [":path twice", () => call([[":path", LIST_TOPICS], ...GOOD])],
    [":authority twice", () => call([[":authority", "a"], ...GOOD])],
    ["content-length: 1 with the whole request as DATA", () => call([...GOOD, ["content-length", "1"]])],
    ["a content-length larger than the DATA sent", () => call([...GOOD, ["content-length", String(REQUEST.length + 1)]])],
    ["a content-length below the sum of two DATA frames", () => call([...GOOD, ["content-length", String(REQUEST.length - 1)]], [REQUEST.subarray(0, 3), REQUEST.subarray(3)])],
    ["a content-length that is no number", () => call([...GOOD, ["content-length", "12a"]])],
    ["two different content-lengths", () => call([...GOOD, ["content-length", String(REQUEST.length)], ["content-length", "3"]])],
    ["a content-length > 0 on HEADERS with END_STREAM", () => call([...GOOD, ["content-length", "5"]], [])],
    ["trailers with a pseudo-header field", () => call(GOOD, [REQUEST], [[":path", LIST_TOPICS]])],
  ];
  test.each(cases)("%s", async (_name, run) => {
    const r = await run();
    expect(r.answer).toBeNull();
    expect(r.reset).toBe(PROTOCOL_ERROR);
  });

  test("forbidden characters in a field added to the HPACK table end the connection (a later block could name it by index)", () =>
    withPeer(async (peer) => {
      // A literal with incremental indexing (RFC 7541 §6.2.1), new name: 0x40, then name and value.
      const indexed = Buffer.concat([Buffer.from([0x40]), literal("x-custom", "a\r\nb").subarray(1)]);
      peer.send(frame(HEADERS, END_HEADERS, 1, Buffer.concat([fieldsBlock(GOOD), indexed])), frame(DATA, END_STREAM, 1, REQUEST));
      expect(goawayCode(await peer.goaway())).toBe(PROTOCOL_ERROR);
      expect(answers(peer.frames, 1)).toHaveLength(0);
    }));

  test("after a malformed request the connection still serves the next call", () =>
    withPeer(async (peer) => {
      peer.send(frame(HEADERS, END_HEADERS, 1, fieldsBlock([...GOOD, ["Upper", "1"]])), frame(DATA, END_STREAM, 1, REQUEST));
      peer.send(frame(HEADERS, END_HEADERS, 3, fieldsBlock(GOOD)), frame(DATA, END_STREAM, 3, REQUEST));
      await peer.next((f) => f.stream === 3 && f.type === HEADERS && (f.flags & END_STREAM) !== 0);
      expect(rstCode(peer.frames.find((f) => f.stream === 1 && f.type === RST_STREAM) ?? null)).toBe(PROTOCOL_ERROR);
      expect(answers(peer.frames, 3).at(-1)?.get("grpc-status")).toBe("0");
      // DATA and trailers the client had in flight on the stream we reset are not errors.
      peer.send(frame(DATA, 0, 1, Buffer.from("late")), frame(HEADERS, END_HEADERS | END_STREAM, 1, fieldsBlock([["x-trailer", "1"]])), frame(6, 0, 0, Buffer.from("stillup!")));
      expect(await peer.next((f) => f.type === 6 && (f.flags & 1) === 1)).not.toBeNull();
      expect(peer.frames.filter((f) => f.stream === 1 && f.type === RST_STREAM)).toHaveLength(1);
      expect(peer.frames.some((f) => f.type === 7)).toBe(false);
    }));
});

describe("stream states", () => {
  /** A complete call on stream 1, answered; then `after` on the same connection. */
  async function afterCall(after: (peer: Peer) => void): Promise<Frame | null> {
    return withPeer(async (peer) => {
      peer.send(frame(HEADERS, END_HEADERS, 1, fieldsBlock(GOOD)), frame(DATA, END_STREAM, 1, REQUEST));
      expect(await peer.next((f) => f.stream === 1 && f.type === HEADERS && (f.flags & END_STREAM) !== 0)).not.toBeNull();
      after(peer);
      return await peer.next((f) => f.stream === 1 && f.type === RST_STREAM);
    });
  }
  test("DATA on a call the client ended (and the server answered) is RST_STREAM STREAM_CLOSED", async () => {
    expect(rstCode(await afterCall((p) => p.send(frame(DATA, 0, 1, REQUEST))))).toBe(STREAM_CLOSED);
  });
  test("HEADERS on a call the client ended is a connection error STREAM_CLOSED", () =>
    withPeer(async (peer) => {
      peer.send(frame(HEADERS, END_HEADERS, 1, fieldsBlock(GOOD)), frame(DATA, END_STREAM, 1, REQUEST));
      expect(await peer.next((f) => f.stream === 1 && f.type === HEADERS && (f.flags & END_STREAM) !== 0)).not.toBeNull();
      peer.send(frame(HEADERS, END_HEADERS | END_STREAM, 1, fieldsBlock([["x-trailer", "1"]])));
      expect(goawayCode(await peer.goaway())).toBe(STREAM_CLOSED);
    }));
  test("DATA after the client's own RST_STREAM is STREAM_CLOSED", () =>
    withPeer(async (peer) => {
      // A StreamingPull stays open until the client resets it.
      const pull = GOOD.map(([n, v]): [string, string] => [n, n === ":path" ? "/google.pubsub.v1.Subscriber/StreamingPull" : v]);
      peer.send(frame(HEADERS, END_HEADERS, 1, fieldsBlock(pull)), frame(RST_STREAM, 0, 1, u32(8)), frame(DATA, 0, 1, REQUEST));
      expect(rstCode(await peer.next((f) => f.stream === 1 && f.type === RST_STREAM))).toBe(STREAM_CLOSED);
    }));
  test("HEADERS depending on its own stream is PROTOCOL_ERROR and not served", () =>
    withPeer(async (peer) => {
      const priority = Buffer.concat([u32(1), Buffer.from([16])]);
      peer.send(frame(HEADERS, END_HEADERS | 0x20, 1, Buffer.concat([priority, fieldsBlock(GOOD)])), frame(DATA, END_STREAM, 1, REQUEST));
      expect(rstCode(await peer.next((f) => f.stream === 1 && f.type === RST_STREAM))).toBe(PROTOCOL_ERROR);
      expect(answers(peer.frames, 1)).toHaveLength(0);
    }));
  test("PRIORITY making a stream depend on itself is PROTOCOL_ERROR", () =>
    withPeer(async (peer) => {
      peer.send(frame(2, 0, 3, Buffer.concat([u32(3), Buffer.from([16])])));
      expect(rstCode(await peer.next((f) => f.stream === 3 && f.type === RST_STREAM))).toBe(PROTOCOL_ERROR);
    }));
});

describe("h2c probes answered as on HTTP/1.1", () => {
  /** GET or HEAD of `path` on stream 1: the response's fields and its body. */
  async function probe(method: string, path: string): Promise<{ fields: Map<string, string> | undefined; body: string; ended: boolean }> {
    return withPeer(async (peer) => {
      peer.send(frame(HEADERS, END_HEADERS | END_STREAM, 1, fieldsBlock([[":method", method], [":scheme", "http"], [":path", path], [":authority", "x"]])));
      const end = await peer.next((f) => f.stream === 1 && (f.flags & END_STREAM) !== 0 && (f.type === DATA || f.type === HEADERS));
      const body = Buffer.concat(peer.frames.filter((f) => f.stream === 1 && f.type === DATA).map((f) => f.payload)).toString();
      return { fields: answers(peer.frames, 1)[0], body, ended: end !== null };
    });
  }
  test("GET / answers 200 Ok with its body, as the gcloud emulator does", async () => {
    const r = await probe("GET", "/");
    expect(r.ended).toBe(true);
    expect(r.fields?.get(":status")).toBe("200");
    expect(r.body).toBe("Ok\n");
  });
  test("GET /health answers the JSON of the HTTP/1.1 side; HEAD the same without a body", async () => {
    const r = await probe("GET", "/health");
    expect(r.fields?.get("content-type")).toBe("application/json");
    expect(JSON.parse(r.body)).toEqual({ status: "ok" });
    const head = await probe("HEAD", "/health");
    expect(head.ended).toBe(true);
    expect(head.fields?.get(":status")).toBe("200");
    expect(head.body).toBe("");
  });
  test("GET of another path stays 405", async () => {
    expect((await probe("GET", "/v1/projects")).fields?.get(":status")).toBe("405");
  });
});

describe("how connections end", () => {
  /** Writes `bytes`, then what the server sent and how the socket ended (bounded). */
  function exchange(bytes: Buffer): Promise<{ received: Buffer; error: string | null; closed: boolean }> {
    return new Promise((resolve) => {
      const s = net.connect(emu.port, "127.0.0.1");
      let received = Buffer.alloc(0);
      let error: string | null = null;
      const timer = setTimeout(() => (s.destroy(), resolve({ received, error, closed: false })), 5000);
      s.on("data", (d: Buffer) => (received = Buffer.concat([received, d])));
      s.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      s.on("close", () => (clearTimeout(timer), resolve({ received, error, closed: true })));
      s.write(bytes);
    });
  }
  test("a preface that is neither HTTP/2 nor HTTP/1.x is closed without an answer", async () => {
    const r = await exchange(Buffer.from("INVALID CONNECTION PREFACE\r\n\r\n"));
    expect(r.closed).toBe(true);
    expect(r.received.length).toBe(0);
    expect(r.error).toBeNull();
  });
  test("after the client's GOAWAY the server ends with a FIN and still reads: a PING sent then meets no TCP reset", async () => {
    const ping = frame(6, 0, 0, Buffer.from("h2spec\0\0"));
    const goaway = frame(7, 0, 0, Buffer.concat([u32(0), u32(0)]));
    for (let i = 0; i < 5; i++) {
      // The client keeps its side open past the server's FIN, as h2spec's does, and writes a PING after it.
      const r = await new Promise<{ ended: boolean; error: string | null }>((resolve) => {
        const s = net.connect({ port: emu.port, host: "127.0.0.1", allowHalfOpen: true });
        let ended = false;
        let error: string | null = null;
        const timer = setTimeout(() => (s.destroy(), resolve({ ended, error })), 5000);
        s.on("data", () => {});
        s.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
        s.on("end", () => {
          ended = true;
          s.write(ping);
          setTimeout(() => s.end(), 100);
        });
        s.on("close", () => (clearTimeout(timer), resolve({ ended, error })));
        s.write(Buffer.concat([PREFACE, SETTINGS, goaway]));
      });
      expect(r.ended).toBe(true);
      expect(r.error).toBeNull();
    }
  });
});
