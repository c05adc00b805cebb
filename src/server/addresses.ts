/**
 * The addresses a listen host names. `localhost` may resolve to ::1, 127.0.0.1 or both, in an order
 * that depends on /etc/hosts; listening on the first alone leaves clients that name the other
 * (`PUBSUB_EMULATOR_HOST=127.0.0.1:8085` beside a server started on `localhost`) refused. So a name
 * is bound on every address it resolves to, on one port; a literal address is bound alone.
 */
import { lookup } from "node:dns/promises";

export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) => (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);

/** An IPv4 or IPv6 literal (what node:net's isIP accepts, without loading node:net). */
function isLiteral(host: string): boolean {
  return /^(\d{1,3}\.){3}\d{1,3}$/.test(host) || (host.includes(":") && /^[0-9a-fA-F:.%a-zA-Z]+$/.test(host));
}

export async function addressesOf(host: string, resolve: Resolve = resolveAll): Promise<string[]> {
  if (isLiteral(host) || host === "") return [host];
  const unique = [...new Set(await resolve(host))];
  return unique.length ? unique : [host];
}
