/** The grpc-timeout header (gRPC over HTTP/2: up to 8 digits and a unit), in milliseconds. */
const UNITS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };
const TIMEOUT = /^(\d{1,8})\s*([HMSmun])$/;

/** null: no header; NaN: a value that does not parse. */
export function timeoutMs(header: string | string[] | undefined): number | null {
  if (header === undefined) return null;
  const m = TIMEOUT.exec(String(header).trim());
  if (!m) return NaN;
  // Whole milliseconds, as grpc-js rounds them; a 0 ms deadline has already passed.
  return Math.floor(Number(m[1]) * UNITS[m[2]!]!);
}
