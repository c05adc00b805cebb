// A StreamingPull reader that opens its HTTP/2 windows wide (16 MiB, as clients with BDP probing
// grow theirs) and prints "got N" as DATA bytes arrive, for benches that stop it with SIGSTOP:
// then the server meets a full socket, not a closed window.
//
//   bun bench/lib/wide-reader-child.ts PORT SUBSCRIPTION
import { Peer, STREAMING_PULL, T, frame, requestBlock, settings, streamingPullRequest, u32 } from "../../tests/helpers/h2-peer.ts";

const [port, subscription] = process.argv.slice(2) as [string, string];
const WINDOW = 16 * 1024 * 1024;
const peer = new Peer(Number(port), Buffer.concat([settings([[4, WINDOW]]), frame(T.WINDOW_UPDATE, 0, 0, u32(WINDOW - 65_535))]), false);
peer.send(frame(T.HEADERS, 4, 1, requestBlock(STREAMING_PULL)), frame(T.DATA, 0, 1, streamingPullRequest(subscription, 10)));
peer.socket.on("data", () => {
  const n = peer.dataBytes.get(1) ?? 0;
  if (n > 0) process.stdout.write(`got ${n}\n`);
});
