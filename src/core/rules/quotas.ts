/**
 * The real service's per-project resource limits (cloud.google.com/pubsub/quotas, "Resource
 * limits"): 10,000 topics, 10,000 attached or detached subscriptions, 5,000 snapshots and 10,000
 * schemas per project. A create past one is RESOURCE_EXHAUSTED; a delete frees the slot at once.
 */
import { echo } from "../bounded.ts";
import { PubSubError } from "../errors.ts";

export type QuotaKind = "topics" | "subscriptions" | "snapshots" | "schemas";
export type ProjectQuotas = Readonly<Record<QuotaKind, number>>;

export const PROJECT_QUOTAS: ProjectQuotas = { topics: 10_000, subscriptions: 10_000, snapshots: 5_000, schemas: 10_000 };

/** The real limits, with what the operator lowered or raised (`--project-quotas`). */
export const projectQuotas = (given: Partial<ProjectQuotas> = {}): ProjectQuotas => ({ ...PROJECT_QUOTAS, ...given });

/** `projects/{p}/…` → p; names reach these maps only after they were parsed. */
const projectOf = (name: string) => name.slice(9, name.indexOf("/", 9));

/**
 * A Map of resources by full name that counts its keys per project as they come and go, so a
 * create checks its project's count in O(1) whatever path (delete, expiry, reset, restore) last
 * changed it. Counts live in a Map: project ids are client strings, never object keys.
 */
export class ProjectMap<V> extends Map<string, V> {
  private counts = new Map<string, number>();

  override set(name: string, value: V): this {
    if (!super.has(name)) this.bump(projectOf(name), 1);
    return super.set(name, value);
  }

  override delete(name: string): boolean {
    if (!super.delete(name)) return false;
    this.bump(projectOf(name), -1);
    return true;
  }

  override clear(): void {
    super.clear();
    this.counts.clear();
  }

  countIn(project: string): number {
    return this.counts.get(project) ?? 0;
  }

  /** RESOURCE_EXHAUSTED when `name`'s project already holds `limit` of these. */
  admit(name: string, kind: QuotaKind, limit: number): void {
    const project = projectOf(name);
    const current = this.countIn(project);
    if (current < limit) return;
    throw new PubSubError(
      "RESOURCE_EXHAUSTED",
      `Your project has exceeded a limit: (type="${kind}-per-project", current=${current}, maximum=${limit}). ` +
        `Cannot create ${echo(name, 300)}: project ${echo(project, 100)} already has ${current} ${kind}; delete some first. ` +
        "Refer to https://cloud.google.com/pubsub/quotas for more information.",
    );
  }

  private bump(project: string, by: number): void {
    const n = (this.counts.get(project) ?? 0) + by;
    if (n > 0) this.counts.set(project, n);
    else this.counts.delete(project);
  }
}
