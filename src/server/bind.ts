/**
 * Listening node:net servers on every address a host names (addresses.ts); an address after the
 * first that cannot be bound (IPv6 off, the port taken in the other family) is skipped with a
 * warning, as long as one is bound.
 */
import * as net from "node:net";
import { log } from "../runtime/log.ts";
import { addressesOf, type Resolve } from "../runtime/addresses.ts";

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
export async function bindAll(host: string, port: number, onConnection: (socket: net.Socket) => void, resolve?: Resolve): Promise<net.Server[]> {
  const [first, ...rest] = await addressesOf(host, resolve);
  const main = net.createServer(onConnection);
  await listenOn(main, port, first);
  const servers = [main];
  const bound = (main.address() as net.AddressInfo).port;
  for (const address of rest) {
    const extra = net.createServer(onConnection);
    try {
      await listenOn(extra, bound, address);
      servers.push(extra);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      // A family the machine does not have is no one's address: nothing to warn about.
      const say = code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT" ? log.debug : log.warn;
      say(`${host} is also ${address}, but listening there failed (${code}); clients that connect to ${address} will be refused`);
    }
  }
  return servers;
}
