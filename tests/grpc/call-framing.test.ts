/** The gRPC call layer's reading of gRPC messages and grpc-timeout values, byte by byte. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MessageReader, Overloaded, PartialBytes, TooLarge } from "../../src/grpc/call/framing.ts";
import { timeoutMs } from "../../src/grpc/call/deadline.ts";
import { BodyPool, POOLED_MIN } from "../../src/grpc/call/body-pool.ts";

const frame = (body: Buffer, flag = 0) => {
  const h = Buffer.alloc(5);
  h[0] = flag;
  h.writeUInt32BE(body.length, 1);
  return Buffer.concat([h, body]);
};

describe("MessageReader", () => {
  test("any cut of a stream of messages gives back the same messages, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), (bodies, cutsRaw) => {
        const stream = Buffer.concat(bodies.map((b, i) => frame(Buffer.from(b), i % 2)));
        const cuts = [...new Set(cutsRaw.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        const r = new MessageReader(1000);
        const got: { compressed: boolean; body: Buffer }[] = [];
        let at = 0;
        for (const c of [...cuts, stream.length]) {
          got.push(...r.push(stream.subarray(at, c)));
          at = c;
        }
        expect(got.map((m) => [m.compressed, [...m.body]])).toEqual(bodies.map((b, i) => [i % 2 === 1, [...b]]));
      }),
    );
  });

  test("a message is copied out of the chunk it came in (decoded views never share a chunk)", () => {
    const chunk = Buffer.concat([frame(Buffer.from("ab")), frame(Buffer.from("cd"))]);
    const [a] = new MessageReader(10).push(chunk);
    chunk.fill(0);
    expect(a!.body.toString()).toBe("ab");
  });

  test("a length past the limit throws from its header, before the body comes", () => {
    const r = new MessageReader(10);
    expect(() => r.push(Buffer.from([0, 0, 0, 0, 11]))).toThrow(TooLarge);
    expect(new MessageReader(10).push(frame(Buffer.alloc(10)))[0]!.body.length).toBe(10);
  });
});

describe("BodyPool", () => {
  test("a large message cut across chunks is filled into a pooled buffer, which a give-back lets the next one reuse", () => {
    const partial = new PartialBytes(Infinity);
    const r = new MessageReader(2 ** 24, partial);
    const big = Buffer.alloc(POOLED_MIN + 10, 7);
    const stream = frame(big);
    const [first] = [...r.push(stream.subarray(0, 1000)), ...r.push(stream.subarray(1000))];
    expect(first!.pooled).toBe(true);
    expect(first!.body.equals(big)).toBe(true);
    expect(partial.held).toBe(0);
    r.giveBack(first!.body);
    const again = frame(Buffer.alloc(POOLED_MIN + 20, 9));
    const [second] = [...r.push(again.subarray(0, 3)), ...r.push(again.subarray(3, 5000)), ...r.push(again.subarray(5000))];
    expect(second!.body.buffer).toBe(first!.body.buffer);
    expect(second!.body.equals(Buffer.alloc(POOLED_MIN + 20, 9))).toBe(true);
    // Not given back: the next takes a fresh buffer.
    const [third] = r.push(frame(Buffer.alloc(POOLED_MIN, 1)).subarray(0, 100)).concat(r.push(frame(Buffer.alloc(POOLED_MIN, 1)).subarray(100)));
    expect(third!.body.buffer).not.toBe(second!.body.buffer);
  });

  test("small messages and messages whole in one chunk are not pooled", () => {
    const r = new MessageReader(2 ** 24);
    const small = frame(Buffer.alloc(1000, 1));
    expect([...r.push(small.subarray(0, 10)), ...r.push(small.subarray(10))][0]!.pooled).toBeFalsy();
    expect(r.push(frame(Buffer.alloc(POOLED_MIN, 2)))[0]!.pooled).toBeFalsy();
  });

  test("a buffer is not handed out for a message under half its size", () => {
    const pool = new BodyPool();
    const a = pool.take(4 * POOLED_MIN);
    pool.give(a);
    expect(pool.take(POOLED_MIN).buffer).not.toBe(a.buffer);
    expect(pool.take(3 * POOLED_MIN).buffer).toBe(a.buffer);
  });
});

describe("grpc-timeout", () => {
  test("each unit, and what does not parse", () => {
    expect(timeoutMs(undefined)).toBeNull();
    expect(timeoutMs("1H")).toBe(3_600_000);
    expect(timeoutMs("2M")).toBe(120_000);
    expect(timeoutMs("3S")).toBe(3000);
    expect(timeoutMs("250m")).toBe(250);
    expect(timeoutMs("1500u")).toBe(1);
    expect(timeoutMs("99999999n")).toBe(99);
    for (const bad of ["", "10", "123456789S", "1x", "-1S", "1.5S", "S"]) expect(timeoutMs(bad)).toBeNaN();
  });
});

describe("PartialBytes: what unfinished messages hold, across every call", () => {
  const header = (n: number) => frame(Buffer.alloc(n)).subarray(0, 5);

  test("a call whose chunk would take the pool past its limit is refused and lets go; others keep theirs", () => {
    const pool = new PartialBytes(250);
    const a = new MessageReader(1000, pool);
    const b = new MessageReader(1000, pool);
    a.push(Buffer.concat([header(200), Buffer.alloc(60)]));
    expect(pool.held).toBe(60);
    b.push(header(200));
    expect(pool.held).toBe(60); // a header alone holds nothing
    b.push(Buffer.alloc(100));
    expect(pool.held).toBe(160);
    // b's message would need 200 at once beside a's 60.
    expect(() => b.push(Buffer.alloc(100))).toThrow(Overloaded);
    expect(pool.held).toBe(60);
    // a goes on: it finishes its message and holds nothing.
    expect(a.push(Buffer.alloc(140)).map((m) => m.body.length)).toEqual([200]);
    expect(pool.held).toBe(0);
  });

  test("release gives back what a call held (its stream closed mid-message)", () => {
    const pool = new PartialBytes(1000);
    const r = new MessageReader(1000, pool);
    r.push(Buffer.concat([header(500), Buffer.alloc(30)]));
    r.push(Buffer.alloc(30));
    expect(pool.held).toBe(60);
    r.release();
    expect(pool.held).toBe(0);
  });

  test("held bytes always equal the pool's count, whatever the cuts", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 300 }), { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 10 }), (sizes, cutsRaw) => {
        const stream = Buffer.concat(sizes.map((n) => frame(Buffer.alloc(n))));
        const cuts = [...new Set(cutsRaw.map((c) => c % (stream.length + 1)))].sort((x, y) => x - y);
        const pool = new PartialBytes(Infinity);
        const r = new MessageReader(1000, pool);
        let at = 0;
        for (const c of cuts) {
          r.push(stream.subarray(at, c));
          at = c;
          expect(pool.held).toBeLessThanOrEqual(c);
        }
        r.push(stream.subarray(at));
        expect(pool.held).toBe(0);
      }),
    );
  });
});
