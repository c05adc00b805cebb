/**
 * Attacks on the header block: a CONTINUATION flood (CVE-2024-27316: a block that never ends,
 * here in empty frames that never reach the 256 KiB byte bound), an HPACK bomb (one 4 KiB entry
 * in the dynamic table named again and again by a one-byte index) and dynamic-table churn (every
 * field indexed, the table evicting all the time, its size moved up and down).
 */
import { expect, test } from "bun:test";
import { Peer, T, frame, goawayCode, indexed, requestBlock } from "../../helpers/h2-peer.ts";
import { flood, underAttack, sharedTarget, goawayOf, expectUnharmed } from "./harness.ts";

const t = sharedTarget();

const GET_TOPIC = "/google.pubsub.v1.Publisher/GetTopic";

test("a header block continued by 1,000,000 empty CONTINUATION frames ends in GOAWAY ENHANCE_YOUR_CALM after 64", async () => {
  let code = -1;
  const f = await underAttack(t, "CONTINUATION flood", async () => {
    const peer = new Peer(t.port);
    peer.send(frame(T.HEADERS, 0, 1, requestBlock(GET_TOPIC)));
    const empties = Buffer.concat(Array.from({ length: 10_000 }, () => frame(T.CONTINUATION, 0, 1)));
    const sent = await flood(peer, () => empties, 10_000, 1_000_000);
    code = await goawayOf(peer);
    return `${sent.toLocaleString("en")} empty CONTINUATIONs written, GOAWAY code ${code}`;
  });
  expect(code).toBe(11);
  expectUnharmed(f);
  expect(f.ok).toBeGreaterThan(0);
}, 60_000);

test("an HPACK bomb (a 4 KiB table entry named 16,000 times, 64 MB decoded) ends in GOAWAY ENHANCE_YOUR_CALM; blocks after it are not decoded", async () => {
  let code = -1;
  const f = await underAttack(t, "HPACK bomb", async () => {
    const peer = new Peer(t.port);
    // Dynamic index 62 is the entry just added; 0xbe is "indexed field 62" in one byte.
    const bomb = Buffer.concat([requestBlock(GET_TOPIC, [indexed("x-bomb", "b".repeat(4000))]), Buffer.alloc(16_000 - 200, 0xbe)]);
    const blocks = Array.from({ length: 50 }, (_, i) => frame(T.HEADERS, 4, 1 + 2 * i, bomb.subarray(0, 16_000)));
    peer.send(...blocks);
    code = await goawayOf(peer);
    return `50 blocks of 16,000 bytes sent, GOAWAY code ${code}`;
  });
  expect(code).toBe(11);
  expectUnharmed(f);
}, 60_000);

test("dynamic-table churn: 2,000 requests of 100 newly indexed fields each, the table resized between blocks, are all answered; the table stays in step", async () => {
  let answered = 0;
  const N = 2000;
  const f = await underAttack(t, "dynamic-table churn", async () => {
    const peer = new Peer(t.port, undefined, false);
    const churn = (i: number) => Array.from({ length: 100 }, (_, k) => indexed(`x-churn-${k}`, `v${i}-${k}`.padEnd(40, "z")));
    // A table size update (RFC 7541 §6.3) to 0, then back to 4,096, opens every other block.
    const resize = Buffer.from([0x20, 0x3f, 0xe1, 0x1f]);
    const requests = (i: number) =>
      Buffer.concat(
        Array.from({ length: 100 }, (_, k) => {
          const n = i * 100 + k;
          const block = Buffer.concat([n % 2 ? resize : Buffer.alloc(0), requestBlock(GET_TOPIC, churn(n))]);
          return frame(T.HEADERS, 5, 1 + 2 * n, block);
        }),
      );
    await flood(peer, requests, 100, N);
    // In step: a :path indexed now is named by index 62 in the next block, and the answer names it.
    const path = "/google.pubsub.v1.Publisher/ListTopics";
    const rest = requestBlock(GET_TOPIC).subarray(2 + 2 + ":path".length + 1 + GET_TOPIC.length);
    peer.send(frame(T.HEADERS, 5, 1 + 2 * N, Buffer.concat([Buffer.from([0x83, 0x86]), indexed(":path", path), rest])));
    peer.send(frame(T.HEADERS, 5, 3 + 2 * N, Buffer.concat([Buffer.from([0x83, 0x86, 0xbe]), rest])));
    // Every request is answered trailers-only (HEADERS with END_STREAM): no message was sent.
    const done = () => peer.frames.filter((x) => x.type === T.HEADERS && x.flags & 1).length;
    await peer.next(() => done() >= N + 2, 20_000);
    answered = done() - 2;
    expect(peer.frames.some((x) => x.type === T.GOAWAY)).toBe(false);
    const last = peer.frames.find((x) => x.type === T.HEADERS && x.stream === 3 + 2 * N);
    expect(last?.payload.toString("latin1")).toContain(path);
    expect(last?.payload.toString("latin1")).toMatch(/grpc-status.12/);
    peer.destroy();
    return `${N} requests with 100 indexed fields each, ${answered} answered`;
  });
  expect(answered).toBe(N);
  expectUnharmed(f);
}, 60_000);

test("a table size update past our 4,096 bytes is a COMPRESSION_ERROR", async () => {
  const peer = new Peer(t.port);
  // 0x3f 0xe1 0xff 0x03: size update to 65,536 + 31.
  peer.send(frame(T.HEADERS, 5, 1, Buffer.concat([Buffer.from([0x3f, 0xe1, 0xff, 0x03]), requestBlock(GET_TOPIC)])));
  expect(goawayCode(await peer.goaway())).toBe(9);
  peer.destroy();
});
