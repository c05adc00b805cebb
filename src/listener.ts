/**
 * One port for gRPC and HTTP/1.1, as the gcloud emulator has: a connection that opens with the
 * HTTP/2 preface goes to grpc-js, anything else to the HTTP handler.
 */
import * as grpc from "@grpc/grpc-js";
import * as http from "node:http";
import * as net from "node:net";

export interface Listener {
  port: number;
  close(): Promise<void>;
}

export async function listen(
  host: string,
  port: number,
  grpcServer: grpc.Server,
  httpHandler: http.RequestListener,
): Promise<Listener> {
  const injector = grpcServer.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  const web = http.createServer(httpHandler);
  const sockets = new Set<net.Socket>();
  const tcp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.once("data", (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (first.toString("latin1", 0, 3) === "PRI") injector.injectConnection(socket);
      else web.emit("connection", socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(port, host, () => resolve());
  });
  return {
    port: (tcp.address() as net.AddressInfo).port,
    // Streams are ended at once: clients treat it as UNAVAILABLE and reconnect, as on a restart.
    close: () =>
      new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        web.close();
        injector.destroy();
        grpcServer.forceShutdown();
        for (const s of sockets) s.destroy();
      }),
  };
}
