/** Listening node:net servers on every address a host names (runtime/addresses.ts's listenEach). */
import * as net from "node:net";
import { listenEach, type Resolve } from "../runtime/addresses.ts";

function listenOn(server: net.Server, port: number, address: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (e: Error) => reject(e);
    server.once("error", fail);
    server.listen(port, address, () => {
      server.off("error", fail);
      resolve();
    });
  });
}

/** Servers listening on `port` (0: one free port shared by all) at every address `host` names. */
export function bindAll(host: string, port: number, onConnection: (socket: net.Socket) => void, resolve?: Resolve): Promise<net.Server[]> {
  const listen = async (address: string, p: number) => {
    const server = net.createServer(onConnection);
    await listenOn(server, p, address);
    return server;
  };
  return listenEach(host, port, listen, (s) => (s.address() as net.AddressInfo).port, resolve);
}
