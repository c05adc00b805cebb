/** The resource names the inspection methods take, checked before any lookup. */
import { EmulatorError } from "./errors.ts";

export function resourceName(kind: "topics" | "subscriptions", name: unknown): string {
  if (typeof name !== "string" || !new RegExp(`^projects/[^/]{1,100}/${kind}/[^/]{1,255}$`).test(name)) {
    throw new EmulatorError("INVALID_ARGUMENT", `name must be projects/PROJECT/${kind}/ID (got ${JSON.stringify(String(name).slice(0, 100))})`);
  }
  return name;
}

export function projectName(project: unknown): string {
  if (typeof project !== "string" || !/^[^/]{1,100}$/.test(project)) throw new EmulatorError("INVALID_ARGUMENT", "project must be a project id such as \"my-project\"");
  return `projects/${project}`;
}

/** A listing's length: the operator API's default when not given, else clamped to [1, max] as its query parameter is. */
export function limitOf(limit: unknown, range: { fallback: number; max: number }): number {
  if (limit === undefined) return range.fallback;
  if (typeof limit !== "number" || !Number.isInteger(limit)) throw new EmulatorError("INVALID_ARGUMENT", "limit must be an integer");
  return Math.min(range.max, Math.max(1, limit));
}
