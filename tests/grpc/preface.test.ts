/** Telling gRPC from HTTP/1.1 by the first bytes of a connection, however they are split. */
import { describe, expect, test } from "bun:test";
import { sniff } from "../../src/server/preface.ts";

const MAGIC = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
const settings = (payload: number[], flags = 0) => Buffer.from([0, 0, payload.length, 4, flags, 0, 0, 0, 0, ...payload]);
const PREFACE = Buffer.concat([MAGIC, settings([0, 3, 0, 0, 0, 100])]);

describe("sniff", () => {
  test("every prefix of the client preface waits; the whole of it is gRPC", () => {
    for (let n = 0; n < PREFACE.length; n++) expect(sniff(PREFACE.subarray(0, n))).toBe("wait");
    expect(sniff(PREFACE)).toBe("grpc");
    expect(sniff(Buffer.concat([PREFACE, Buffer.from([0, 0, 4, 8, 0, 0, 0, 0, 0])]))).toBe("grpc");
  });
  test("an empty SETTINGS frame completes the preface", () => {
    expect(sniff(Buffer.concat([MAGIC, settings([])]))).toBe("grpc");
  });
  test("what departs from the magic is HTTP/1.1 once its first line is a request line", () => {
    expect(sniff(Buffer.from("GET / HTTP/1.1\r\n"))).toBe("http");
    expect(sniff(Buffer.from("PRI * HTTP/1.1\r\n"))).toBe("http");
    expect(sniff(Buffer.from("\r\nGET /health HTTP/1.0\r\n"))).toBe("http"); // an empty line first is ignored
    expect(sniff(Buffer.from("GET / HTTP/1.1\nHost: x\n\n"))).toBe("http"); // bare LF: the HTTP server refuses it
    for (const part of ["POST", "PRI * HTTP/1.1", "GET /a", "GET /a HTT"]) expect(sniff(Buffer.from(part))).toBe("wait");
  });
  test("neither an HTTP/2 preface nor an HTTP/1.x request line is bad, as soon as a byte shows it", () => {
    expect(sniff(Buffer.from("INVALID CONNECTION PREFACE\r\n\r\n"))).toBe("bad"); // h2spec 3.5/2
    expect(sniff(Buffer.from("GET / HTTP/2.0\r\n"))).toBe("bad");
    expect(sniff(Buffer.from("GET /\r\n"))).toBe("bad"); // HTTP/0.9
    expect(sniff(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]))).toBe("bad"); // a TLS ClientHello
    expect(sniff(Buffer.from("GE\0"))).toBe("bad");
  });
  test("a first line longer than 8 KiB is left to the HTTP server to refuse", () => {
    expect(sniff(Buffer.from(`GET /${"a".repeat(9000)}`))).toBe("http");
  });
  test("the magic followed by something no HTTP/2 client sends first is bad", () => {
    expect(sniff(Buffer.concat([MAGIC, Buffer.from([0, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 1])]))).toBe("bad");
    expect(sniff(Buffer.concat([MAGIC, settings([], 1)]))).toBe("bad"); // an ACK
    expect(sniff(Buffer.concat([MAGIC, settings([1, 2, 3])]))).toBe("bad"); // not a multiple of 6
    expect(sniff(Buffer.concat([MAGIC, Buffer.from([0xff, 0xff, 0xff, 4, 0, 0, 0, 0, 0])]))).toBe("bad"); // past the frame limit
  });
});
