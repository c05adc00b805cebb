/**
 * What the gRPC server layer itself answers, on every server (forEachGrpcServer: raw, lean and grpc-js):
 * requests compressed by the client, a message split across DATA frames, deadlines sent as
 * grpc-timeout, a content type that is not gRPC, an unknown method, an oversized or
 * unknown-encoding message, PINGs answered, and trailers with percent-encoded messages.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as http2 from "node:http2";
import * as zlib from "node:zlib";
import * as grpc from "@grpc/grpc-js";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";
import { method } from "../helpers/raw-bytes.ts";
import { CLIENT_OPTIONS, grpcClients, statusOf } from "../helpers/raw-grpc.ts";
import { forEachGrpcServer } from "../helpers/grpc-servers.ts";

const S = grpc.status;
const PUBLISH = "/google.pubsub.v1.Publisher/Publish";

interface Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  trailers: http2.IncomingHttpHeaders;
  body: Buffer;
  /** grpc-status from the trailers, or from the headers of a trailers-only answer. */
  code: number | null;
  message: string;
}

const frame = (body: Buffer, flag = 0) => Buffer.concat([Buffer.from([flag]), u32(body.length), body]);
const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };

/** One raw HTTP/2 request; `pieces` are written one by one, 20 ms apart; bounded by `ms`. */
function request(port: number, headers: http2.OutgoingHttpHeaders, pieces: Buffer[], ms = 5000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", () => {});
    const req = session.request({ ":method": "POST", "content-type": "application/grpc", te: "trailers", ...headers });
    const out: Answer = { status: 0, headers: {}, trailers: {}, body: Buffer.alloc(0), code: null, message: "" };
    const bound = setTimeout(() => (session.destroy(), reject(new Error("no answer in time"))), ms);
    req.on("response", (h) => ((out.headers = h), (out.status = Number(h[":status"]))));
    req.on("trailers", (t) => (out.trailers = t));
    req.on("data", (d: Buffer) => (out.body = Buffer.concat([out.body, d])));
    req.on("error", () => {});
    req.on("close", () => {
      clearTimeout(bound);
      const s = out.trailers["grpc-status"] ?? out.headers["grpc-status"];
      out.code = s === undefined ? null : Number(s);
      out.message = decodeURIComponent(String(out.trailers["grpc-message"] ?? out.headers["grpc-message"] ?? ""));
      session.close();
      resolve(out);
    });
    (async () => {
      for (let i = 0; i < pieces.length; i++) {
        if (i) await Bun.sleep(20);
        if (i === pieces.length - 1) req.end(pieces[i]);
        else req.write(pieces[i]);
      }
      if (!pieces.length) req.end();
    })();
  });
}

forEachGrpcServer((server) => {
  let emu: TestEmulator;
  let topic: string;
  const publishBody = () => method("Publisher", "Publish").encode({ topic, messages: [{ data: Buffer.from("hello") }] });

  beforeAll(async () => {
    emu = await startTestEmulator({ grpcServer: server, pullWaitMs: 60_000 });
    topic = `projects/${PROJECT}/topics/${unique("t")}`;
    const c = grpcClients(emu.endpoint);
    await c.call(c.publisher, "CreateTopic", { name: topic });
    c.close();
  });
  afterAll(() => emu.close());

  for (const [name, algorithm] of [["gzip", 2], ["deflate", 1]] as const) {
    test(`a client that compresses with ${name} is served`, async () => {
      const c = new (grpc.makeGenericClientConstructor({}, ""))(emu.endpoint, grpc.credentials.createInsecure(), {
        ...CLIENT_OPTIONS,
        "grpc.default_compression_algorithm": algorithm,
      });
      const body = method("Publisher", "Publish").encode({ topic, messages: [{ data: Buffer.alloc(100_000, 7) }] });
      const err = await new Promise<grpc.ServiceError | null>((resolve) =>
        c.makeUnaryRequest(PUBLISH, (b: Buffer) => b, (b: Buffer) => b, body, { deadline: Date.now() + 5000 }, (e) => resolve(e)),
      );
      c.close();
      expect(err).toBeNull();
    });
  }

  test("a request compressed by hand (flag 1, grpc-encoding gzip) is inflated", async () => {
    const a = await request(emu.port, { ":path": PUBLISH, "grpc-encoding": "gzip" }, [frame(zlib.gzipSync(publishBody()), 1)]);
    expect(a.code).toBe(S.OK);
    expect(a.body.length).toBeGreaterThan(5);
  });

  test("a compressed message in an encoding the server does not know is UNIMPLEMENTED", async () => {
    const a = await request(emu.port, { ":path": PUBLISH, "grpc-encoding": "snappy" }, [frame(publishBody(), 1)]);
    expect(a.code).toBe(S.UNIMPLEMENTED);
    expect(a.message).toContain("snappy");
  });

  test("a message split across DATA frames, its header too, is read whole", async () => {
    const f = frame(publishBody());
    const a = await request(emu.port, { ":path": PUBLISH }, [f.subarray(0, 2), f.subarray(2, 9), f.subarray(9)]);
    expect(a.code).toBe(S.OK);
    expect(a.headers["content-type"]).toStartWith("application/grpc");
  });

  test("a request larger than the HTTP/2 receive window is read whole and answered", async () => {
    const big = method("Publisher", "Publish").encode({ topic, messages: [{ data: Buffer.alloc(9 * 2 ** 20, 1) }, { data: Buffer.alloc(9 * 2 ** 20, 2) }] });
    const a = await request(emu.port, { ":path": PUBLISH }, [frame(big)], 20_000);
    expect(a.code).toBe(S.INVALID_ARGUMENT); // past the 10 MB request limit, named by our validation
    expect(a.message).toContain("request");
    const ok = method("Publisher", "Publish").encode({ topic, messages: [{ data: Buffer.alloc(9 * 2 ** 20, 1) }] });
    expect((await request(emu.port, { ":path": PUBLISH }, [frame(ok)], 20_000)).code).toBe(S.OK);
  }, 30_000);

  test("a message longer than the receive limit is RESOURCE_EXHAUSTED before it is sent", async () => {
    const a = await request(emu.port, { ":path": PUBLISH }, [Buffer.concat([Buffer.from([0]), u32(65 * 2 ** 20)])]);
    expect(a.code).toBe(S.RESOURCE_EXHAUSTED);
  });

  test("a content type that is not gRPC is HTTP 415", async () => {
    const a = await request(emu.port, { ":path": PUBLISH, "content-type": "application/json" }, [Buffer.from("{}")]);
    expect(a.status).toBe(415);
    expect(a.code).toBeNull();
  });

  test("an unknown method is UNIMPLEMENTED naming it, trailers-only", async () => {
    const a = await request(emu.port, { ":path": "/google.pubsub.v1.Publisher/Nope" }, [frame(Buffer.alloc(0))]);
    expect(a.code).toBe(S.UNIMPLEMENTED);
    expect(a.message).toContain("/google.pubsub.v1.Publisher/Nope");
    expect(a.headers["grpc-status"]).toBe(String(S.UNIMPLEMENTED));
  });

  test("a unary call with no request message is UNIMPLEMENTED", async () => {
    const a = await request(emu.port, { ":path": PUBLISH }, []);
    expect(a.code).toBe(S.UNIMPLEMENTED);
  });

  test("grpc-timeout ends a waiting Pull with DEADLINE_EXCEEDED from the server, and the wait is released", async () => {
    const sub = `projects/${PROJECT}/subscriptions/${unique("s")}`;
    const c = grpcClients(emu.endpoint);
    await c.call(c.subscriber, "CreateSubscription", { name: sub, topic });
    const body = method("Subscriber", "Pull").encode({ subscription: sub, maxMessages: 1 });
    const t0 = Date.now();
    const a = await request(emu.port, { ":path": "/google.pubsub.v1.Subscriber/Pull", "grpc-timeout": "200m" }, [frame(body)]);
    expect(a.code).toBe(S.DEADLINE_EXCEEDED);
    expect(Date.now() - t0).toBeLessThan(3000);
    // The cancelled Pull holds nothing: a publish now reaches the next Pull.
    await c.call(c.publisher, "Publish", { topic, messages: [{ data: Buffer.from("after") }] });
    const res = await c.call(c.subscriber, "Pull", { subscription: sub, maxMessages: 1 });
    expect(res.receivedMessages[0].message.data.toString()).toBe("after");
    c.close();
  });

  test("a client that resets a waiting Pull (RST_STREAM) releases its wait: the next message goes to the next Pull", async () => {
    const sub = `projects/${PROJECT}/subscriptions/${unique("s")}`;
    const c = grpcClients(emu.endpoint);
    await c.call(c.subscriber, "CreateSubscription", { name: sub, topic });
    const session = http2.connect(`http://127.0.0.1:${emu.port}`);
    session.on("error", () => {});
    const req = session.request({ ":method": "POST", ":path": "/google.pubsub.v1.Subscriber/Pull", "content-type": "application/grpc", te: "trailers" });
    req.on("error", () => {});
    req.end(frame(method("Subscriber", "Pull").encode({ subscription: sub, maxMessages: 1 })));
    await Bun.sleep(150);
    req.close(http2.constants.NGHTTP2_CANCEL);
    await Bun.sleep(50);
    await c.call(c.publisher, "Publish", { topic, messages: [{ data: Buffer.from("to the next") }] });
    const res = await c.call(c.subscriber, "Pull", { subscription: sub, maxMessages: 1 });
    expect(res.receivedMessages[0].message.data.toString()).toBe("to the next");
    session.close();
    c.close();
  });

  test("an error's message is percent-encoded in grpc-message", async () => {
    const body = method("Publisher", "GetTopic").encode({ topic: `projects/${PROJECT}/topics/é-x` });
    const a = await request(emu.port, { ":path": "/google.pubsub.v1.Publisher/GetTopic" }, [frame(body)]);
    expect(a.code).toBe(S.INVALID_ARGUMENT);
    expect(String(a.headers["grpc-message"] ?? a.trailers["grpc-message"])).toContain("%C3%A9");
    expect(a.message).toContain("é");
    const c = grpcClients(emu.endpoint);
    expect((await statusOf(c.call(c.publisher, "GetTopic", { topic: `projects/${PROJECT}/topics/é-x` }))).details).toContain("é");
    c.close();
  });

  test("PINGs are answered", async () => {
    const session = http2.connect(`http://127.0.0.1:${emu.port}`);
    const ms = await new Promise<number>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error("no PING ack")), 3000);
      session.ping((err, duration) => (clearTimeout(t), err ? reject(err) : resolve(duration)));
    });
    session.close();
    expect(ms).toBeGreaterThanOrEqual(0);
  });
});
