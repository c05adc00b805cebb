// Original file: google/pubsub/v1/pubsub.proto

import type { MethodDefinition } from '@grpc/proto-loader'
import type { DeleteTopicRequest as _google_pubsub_v1_DeleteTopicRequest, DeleteTopicRequest__Output as _google_pubsub_v1_DeleteTopicRequest__Output } from '../../../google/pubsub/v1/DeleteTopicRequest';
import type { DetachSubscriptionRequest as _google_pubsub_v1_DetachSubscriptionRequest, DetachSubscriptionRequest__Output as _google_pubsub_v1_DetachSubscriptionRequest__Output } from '../../../google/pubsub/v1/DetachSubscriptionRequest';
import type { DetachSubscriptionResponse as _google_pubsub_v1_DetachSubscriptionResponse, DetachSubscriptionResponse__Output as _google_pubsub_v1_DetachSubscriptionResponse__Output } from '../../../google/pubsub/v1/DetachSubscriptionResponse';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from '../../../google/protobuf/Empty';
import type { GetTopicRequest as _google_pubsub_v1_GetTopicRequest, GetTopicRequest__Output as _google_pubsub_v1_GetTopicRequest__Output } from '../../../google/pubsub/v1/GetTopicRequest';
import type { ListTopicSnapshotsRequest as _google_pubsub_v1_ListTopicSnapshotsRequest, ListTopicSnapshotsRequest__Output as _google_pubsub_v1_ListTopicSnapshotsRequest__Output } from '../../../google/pubsub/v1/ListTopicSnapshotsRequest';
import type { ListTopicSnapshotsResponse as _google_pubsub_v1_ListTopicSnapshotsResponse, ListTopicSnapshotsResponse__Output as _google_pubsub_v1_ListTopicSnapshotsResponse__Output } from '../../../google/pubsub/v1/ListTopicSnapshotsResponse';
import type { ListTopicSubscriptionsRequest as _google_pubsub_v1_ListTopicSubscriptionsRequest, ListTopicSubscriptionsRequest__Output as _google_pubsub_v1_ListTopicSubscriptionsRequest__Output } from '../../../google/pubsub/v1/ListTopicSubscriptionsRequest';
import type { ListTopicSubscriptionsResponse as _google_pubsub_v1_ListTopicSubscriptionsResponse, ListTopicSubscriptionsResponse__Output as _google_pubsub_v1_ListTopicSubscriptionsResponse__Output } from '../../../google/pubsub/v1/ListTopicSubscriptionsResponse';
import type { ListTopicsRequest as _google_pubsub_v1_ListTopicsRequest, ListTopicsRequest__Output as _google_pubsub_v1_ListTopicsRequest__Output } from '../../../google/pubsub/v1/ListTopicsRequest';
import type { ListTopicsResponse as _google_pubsub_v1_ListTopicsResponse, ListTopicsResponse__Output as _google_pubsub_v1_ListTopicsResponse__Output } from '../../../google/pubsub/v1/ListTopicsResponse';
import type { PublishRequest as _google_pubsub_v1_PublishRequest, PublishRequest__Output as _google_pubsub_v1_PublishRequest__Output } from '../../../google/pubsub/v1/PublishRequest';
import type { PublishResponse as _google_pubsub_v1_PublishResponse, PublishResponse__Output as _google_pubsub_v1_PublishResponse__Output } from '../../../google/pubsub/v1/PublishResponse';
import type { Topic as _google_pubsub_v1_Topic, Topic__Output as _google_pubsub_v1_Topic__Output } from '../../../google/pubsub/v1/Topic';
import type { UpdateTopicRequest as _google_pubsub_v1_UpdateTopicRequest, UpdateTopicRequest__Output as _google_pubsub_v1_UpdateTopicRequest__Output } from '../../../google/pubsub/v1/UpdateTopicRequest';

export interface PublisherDefinition {
  CreateTopic: MethodDefinition<_google_pubsub_v1_Topic, _google_pubsub_v1_Topic, _google_pubsub_v1_Topic__Output, _google_pubsub_v1_Topic__Output>
  DeleteTopic: MethodDefinition<_google_pubsub_v1_DeleteTopicRequest, _google_protobuf_Empty, _google_pubsub_v1_DeleteTopicRequest__Output, _google_protobuf_Empty__Output>
  DetachSubscription: MethodDefinition<_google_pubsub_v1_DetachSubscriptionRequest, _google_pubsub_v1_DetachSubscriptionResponse, _google_pubsub_v1_DetachSubscriptionRequest__Output, _google_pubsub_v1_DetachSubscriptionResponse__Output>
  GetTopic: MethodDefinition<_google_pubsub_v1_GetTopicRequest, _google_pubsub_v1_Topic, _google_pubsub_v1_GetTopicRequest__Output, _google_pubsub_v1_Topic__Output>
  ListTopicSnapshots: MethodDefinition<_google_pubsub_v1_ListTopicSnapshotsRequest, _google_pubsub_v1_ListTopicSnapshotsResponse, _google_pubsub_v1_ListTopicSnapshotsRequest__Output, _google_pubsub_v1_ListTopicSnapshotsResponse__Output>
  ListTopicSubscriptions: MethodDefinition<_google_pubsub_v1_ListTopicSubscriptionsRequest, _google_pubsub_v1_ListTopicSubscriptionsResponse, _google_pubsub_v1_ListTopicSubscriptionsRequest__Output, _google_pubsub_v1_ListTopicSubscriptionsResponse__Output>
  ListTopics: MethodDefinition<_google_pubsub_v1_ListTopicsRequest, _google_pubsub_v1_ListTopicsResponse, _google_pubsub_v1_ListTopicsRequest__Output, _google_pubsub_v1_ListTopicsResponse__Output>
  Publish: MethodDefinition<_google_pubsub_v1_PublishRequest, _google_pubsub_v1_PublishResponse, _google_pubsub_v1_PublishRequest__Output, _google_pubsub_v1_PublishResponse__Output>
  UpdateTopic: MethodDefinition<_google_pubsub_v1_UpdateTopicRequest, _google_pubsub_v1_Topic, _google_pubsub_v1_UpdateTopicRequest__Output, _google_pubsub_v1_Topic__Output>
}
