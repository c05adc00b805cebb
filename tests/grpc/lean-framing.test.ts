/** The lean server's reading of gRPC messages and grpc-timeout values, byte by byte. */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MessageReader, TooLarge } from "../../src/grpc/lean/framing.ts";
import { timeoutMs } from "../../src/grpc/lean/deadline.ts";

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
