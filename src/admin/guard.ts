/**
 * Cross-site protection of every mutating admin request. A web page on another site can make a
 * browser POST a form to localhost:8085 (which once wiped the emulator through /reset), but it
 * cannot add a custom header: a cross-site fetch with one needs a CORS preflight, which we never
 * grant (no Access-Control-* header is ever sent). So a mutating request must carry
 * `X-Emulator-Admin`; a browser's request must also be same-origin by Sec-Fetch-Site and Origin,
 * and name a host that cannot be a DNS-rebinding alias (loopback, an IP literal, or the host the
 * emulator was told to listen on). curl, scripts and tests send no Origin and pass with the header.
 */
import type { IncomingMessage } from "node:http";
import { isIpLiteral } from "../runtime/addresses.ts";

export const ADMIN_HEADER = "x-emulator-admin";

/** Why the request is refused, or null when it may proceed. */
export function crossSiteRefusal(req: IncomingMessage, allowedHosts: ReadonlySet<string>): string | null {
  if (!req.headers[ADMIN_HEADER]) {
    return "Mutating emulator requests must carry the X-Emulator-Admin header (any value), which a cross-site form cannot send.";
  }
  return browserRefusal(req, allowedHosts);
}

/**
 * The browser half of the guard, alone: the REST API (whose clients send no custom header) refuses
 * a mutating request a browser marks as cross-site or cross-origin. Real clients send neither header.
 */
export function browserRefusal(req: IncomingMessage, allowedHosts: ReadonlySet<string>): string | null {
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return `Cross-site requests are refused (Sec-Fetch-Site: ${String(site).slice(0, 40)}).`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return "Requests with an unreadable Origin header are refused.";
  }
  if (host !== req.headers.host) return "Cross-origin requests are refused.";
  return trustedHost(hostnameOf(host), allowedHosts) ? null : "Browser requests must address the emulator by a loopback name or an IP address.";
}

function hostnameOf(host: string): string {
  if (host.startsWith("[")) return host.slice(1, host.indexOf("]"));
  const i = host.lastIndexOf(":");
  return i >= 0 ? host.slice(0, i) : host;
}

function trustedHost(name: string, allowed: ReadonlySet<string>): boolean {
  const n = name.toLowerCase();
  return n === "localhost" || n.endsWith(".localhost") || isIpLiteral(n) || allowed.has(n);
}
