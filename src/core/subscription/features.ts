/** Small lifecycle features of a subscription that belong to no other part. */
import type { Lifecycle } from "../lifecycle.ts";
import type { SubscriptionResource } from "../resources.ts";
import type { Subscription } from "./subscription.ts";

/** On its topic's fan-out list from create (or restart) until detached or removed. */
export const topicLink: Lifecycle<Subscription, SubscriptionResource> = {
  created: (s) => void s.topic?.subscriptions.add(s),
  restored: (s) => void s.topic?.subscriptions.add(s),
  detached: (s) => void s.topic?.subscriptions.delete(s),
  removed: (s) => void s.topic?.subscriptions.delete(s),
};

/** A changed retention re-arms the retention timer (and may drop what is now past it). */
export const retention: Lifecycle<Subscription, SubscriptionResource> = {
  updated(s, prev) {
    if (prev.messageRetentionDuration !== s.config.messageRetentionDuration || prev.retainAckedMessages !== s.config.retainAckedMessages) {
      s.retentionChanged();
    }
  },
};
