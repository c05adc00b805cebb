/**
 * Bun's floor for a gRPC server on node:http2: answers every unary call with its own request
 * message (a CreateTopic's Topic starts with the same field), nothing else. Compiled like the
 * emulator (`bun build --compile --bytecode --format=esm --minify`), timed by rounds.ts.
 */
import { createServer } from "node:http2";

const at = process.argv.indexOf("--host-port");
const [host, port] = (at > 0 ? process.argv[at + 1]! : "127.0.0.1:0").split(":");
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/grpc" });
    res.addTrailers({ "grpc-status": "0" });
    res.end(Buffer.concat(chunks)); // the request's frame is already a gRPC frame
  });
});
server.listen(Number(port), host, () => {
  const a = server.address();
  console.log(`[pubsub] INFO: Server started, listening on ${typeof a === "object" && a ? a.port : port}`);
});
