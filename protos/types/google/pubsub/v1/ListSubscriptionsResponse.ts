// Original file: google/pubsub/v1/pubsub.proto

import type { Subscription as _google_pubsub_v1_Subscription, Subscription__Output as _google_pubsub_v1_Subscription__Output } from '../../../google/pubsub/v1/Subscription';

export interface ListSubscriptionsResponse {
  'subscriptions'?: (_google_pubsub_v1_Subscription)[];
  'nextPageToken'?: (string);
}

export interface ListSubscriptionsResponse__Output {
  'subscriptions'?: (_google_pubsub_v1_Subscription__Output)[];
  'nextPageToken'?: (string);
}
