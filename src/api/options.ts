/**
 * start()'s options as command-line flags: camelCase names become `--kebab-case` flags and the
 * command line's one reader (loadConfig) checks them, so an option is refused with the words the
 * flag would be. lib/index.cjs hands the same object to src/api/child.ts under Node.
 */
import type { StartOptions } from "../../lib/index.d.ts";

/** Read by the Node side only (how long it waits for the child); not a flag. */
const LAUNCHER_ONLY: ReadonlySet<string> = new Set(["startTimeoutMs"]);

/** The test API's own defaults: a free loopback port, and a quiet log in a test run. */
const API_DEFAULTS = { host: "127.0.0.1", port: 0, logLevel: "warn" } as const;

export const flagOf = (name: string): string => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function flagValue(name: string, v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  throw new Error(`option ${name} must be a string or a number`);
}

export function optionsToArgs(options: StartOptions | undefined): string[] {
  if (options !== undefined && (typeof options !== "object" || options === null || Array.isArray(options))) throw new Error("start() takes an options object");
  const o = options ?? {};
  const host = o.host ?? API_DEFAULTS.host;
  const port = o.port ?? API_DEFAULTS.port;
  if (typeof host !== "string") throw new Error("option host must be a string");
  const args = ["--host-port", `${host.includes(":") ? `[${host}]` : host}:${flagValue("port", port)}`];
  if (o.logLevel === undefined) args.push("--log-level", API_DEFAULTS.logLevel);
  for (const [name, v] of Object.entries(o)) {
    if (name === "host" || name === "port" || LAUNCHER_ONLY.has(name) || v === undefined) continue;
    if (!/^[a-z][a-zA-Z0-9]{0,63}$/.test(name)) throw new Error(`unknown option ${JSON.stringify(name.slice(0, 64))}`);
    for (const one of Array.isArray(v) ? v : [v]) args.push(flagOf(name), flagValue(name, one));
  }
  return args;
}
