/**
 * Listening sockets for a host name. `localhost` may resolve to ::1, 127.0.0.1 or both, in an order
 * that depends on /etc/hosts; listening on the first alone leaves clients that name the other
 * (`PUBSUB_EMULATOR_HOST=127.0.0.1:8085` beside a server started on `localhost`) refused. So a name
 * is bound on every address it resolves to, on one port; an address after the first that cannot
 * be bound (IPv6 off, the port taken in the other family) is skipped with a warning, as long as
 * one is bound. A literal address is bound alone.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import * as net from "node:net";
import { log } from "../runtime/log.ts";

type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);

async function addressesOf(host: string, resolve: Resolve): Promise<string[]> {
  if (isIP(host) || host === "") return [host];
  const unique = [...new Set(await resolve(host))];
  return unique.length ? unique : [host];
}

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
export async function bindAll(host: string, port: number, onConnection: (socket: net.Socket) => void, resolve = resolveAll): Promise<net.Server[]> {
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
