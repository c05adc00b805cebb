/**
 * The addresses a listen host names. `localhost` may resolve to ::1, 127.0.0.1 or both, in an order
 * that depends on /etc/hosts; listening on the first alone leaves clients that name the other
 * (`PUBSUB_EMULATOR_HOST=127.0.0.1:8085` beside a server started on `localhost`) refused. So a name
 * is bound on every address it resolves to, on one port; an address after the first that cannot
 * be bound (IPv6 off, the port taken in the other family) is skipped with a warning, as long as
 * one is bound. A literal address is bound alone.
 */
import { log } from "./log.ts";
export type Resolve = (host: string) => Promise<string[]>;

// Bun's resolver, not node:dns (≈ 1.4 MiB of RSS at start); the same getaddrinfo answers, in order.
const resolveAll: Resolve = async (host) => (await Bun.dns.lookup(host, { backend: "system" }).catch(() => [])).map((a) => a.address);

/** An IPv4 or IPv6 literal, as node:net's isIP tells (without loading node:net: ≈ 6 MiB of RSS). */
export function isIpLiteral(host: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return v4.slice(1).every((p) => Number(p) <= 255 && (p === "0" || p[0] !== "0"));
  if (!host.includes(":") || host.includes("[") || host.includes("]") || host.includes("/")) return false;
  try {
    new URL(`http://[${host.replace(/%.*$/, "")}]/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * `listen(address, port)` at every address `host` names: the first on `port` (0: a free one;
 * its failure is the caller's), the others on the port the first got.
 */
export async function listenEach<T>(host: string, port: number, listen: (address: string, port: number) => Promise<T>, portOf: (listener: T) => number, resolve?: Resolve): Promise<T[]> {
  const [first, ...rest] = await addressesOf(host, resolve);
  const listeners = [await listen(first!, port)];
  const bound = portOf(listeners[0]!);
  for (const address of rest) {
    try {
      listeners.push(await listen(address, bound));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      // A family the machine does not have is no one's address: nothing to warn about.
      const say = code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT" ? log.debug : log.warn;
      say(`${host} is also ${address}, but listening there failed (${code}); clients that connect to ${address} will be refused`);
    }
  }
  return listeners;
}

export async function addressesOf(host: string, resolve: Resolve = resolveAll): Promise<string[]> {
  if (isIpLiteral(host) || host === "") return [host];
  const unique = [...new Set(await resolve(host))];
  return unique.length ? unique : [host];
}
