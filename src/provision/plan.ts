/** What to create at start: topics first, then subscriptions, each with where it was declared. */
import type { SubscriptionResource, TopicResource } from "../core/resources.ts";

export interface Entry<R> {
  /** Names the entry for a person: the file and path, or the spec and item. */
  where: string;
  resource: R;
}

export interface Plan {
  topics: Entry<TopicResource>[];
  subscriptions: Entry<SubscriptionResource>[];
}

export const emptyPlan = (): Plan => ({ topics: [], subscriptions: [] });

export function mergePlans(plans: readonly Plan[]): Plan {
  return { topics: plans.flatMap((p) => p.topics), subscriptions: plans.flatMap((p) => p.subscriptions) };
}

/** A declaration that cannot be provisioned; the message names the entry. */
export class ProvisionError extends Error {
  override name = "ProvisionError";
}

/** `orders` → `projects/P/topics/orders`; a full name is kept as written. */
export const expandName = (project: string, collection: "topics" | "subscriptions", id: string): string =>
  id.startsWith("projects/") ? id : `projects/${project}/${collection}/${id}`;
