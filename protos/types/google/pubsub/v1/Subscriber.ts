// Original file: google/pubsub/v1/pubsub.proto

import type { MethodDefinition } from '@grpc/proto-loader'
import type { AcknowledgeRequest as _google_pubsub_v1_AcknowledgeRequest, AcknowledgeRequest__Output as _google_pubsub_v1_AcknowledgeRequest__Output } from '../../../google/pubsub/v1/AcknowledgeRequest';
import type { CreateSnapshotRequest as _google_pubsub_v1_CreateSnapshotRequest, CreateSnapshotRequest__Output as _google_pubsub_v1_CreateSnapshotRequest__Output } from '../../../google/pubsub/v1/CreateSnapshotRequest';
import type { DeleteSnapshotRequest as _google_pubsub_v1_DeleteSnapshotRequest, DeleteSnapshotRequest__Output as _google_pubsub_v1_DeleteSnapshotRequest__Output } from '../../../google/pubsub/v1/DeleteSnapshotRequest';
import type { DeleteSubscriptionRequest as _google_pubsub_v1_DeleteSubscriptionRequest, DeleteSubscriptionRequest__Output as _google_pubsub_v1_DeleteSubscriptionRequest__Output } from '../../../google/pubsub/v1/DeleteSubscriptionRequest';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from '../../../google/protobuf/Empty';
import type { GetSnapshotRequest as _google_pubsub_v1_GetSnapshotRequest, GetSnapshotRequest__Output as _google_pubsub_v1_GetSnapshotRequest__Output } from '../../../google/pubsub/v1/GetSnapshotRequest';
import type { GetSubscriptionRequest as _google_pubsub_v1_GetSubscriptionRequest, GetSubscriptionRequest__Output as _google_pubsub_v1_GetSubscriptionRequest__Output } from '../../../google/pubsub/v1/GetSubscriptionRequest';
import type { ListSnapshotsRequest as _google_pubsub_v1_ListSnapshotsRequest, ListSnapshotsRequest__Output as _google_pubsub_v1_ListSnapshotsRequest__Output } from '../../../google/pubsub/v1/ListSnapshotsRequest';
import type { ListSnapshotsResponse as _google_pubsub_v1_ListSnapshotsResponse, ListSnapshotsResponse__Output as _google_pubsub_v1_ListSnapshotsResponse__Output } from '../../../google/pubsub/v1/ListSnapshotsResponse';
import type { ListSubscriptionsRequest as _google_pubsub_v1_ListSubscriptionsRequest, ListSubscriptionsRequest__Output as _google_pubsub_v1_ListSubscriptionsRequest__Output } from '../../../google/pubsub/v1/ListSubscriptionsRequest';
import type { ListSubscriptionsResponse as _google_pubsub_v1_ListSubscriptionsResponse, ListSubscriptionsResponse__Output as _google_pubsub_v1_ListSubscriptionsResponse__Output } from '../../../google/pubsub/v1/ListSubscriptionsResponse';
import type { ModifyAckDeadlineRequest as _google_pubsub_v1_ModifyAckDeadlineRequest, ModifyAckDeadlineRequest__Output as _google_pubsub_v1_ModifyAckDeadlineRequest__Output } from '../../../google/pubsub/v1/ModifyAckDeadlineRequest';
import type { ModifyPushConfigRequest as _google_pubsub_v1_ModifyPushConfigRequest, ModifyPushConfigRequest__Output as _google_pubsub_v1_ModifyPushConfigRequest__Output } from '../../../google/pubsub/v1/ModifyPushConfigRequest';
import type { PullRequest as _google_pubsub_v1_PullRequest, PullRequest__Output as _google_pubsub_v1_PullRequest__Output } from '../../../google/pubsub/v1/PullRequest';
import type { PullResponse as _google_pubsub_v1_PullResponse, PullResponse__Output as _google_pubsub_v1_PullResponse__Output } from '../../../google/pubsub/v1/PullResponse';
import type { SeekRequest as _google_pubsub_v1_SeekRequest, SeekRequest__Output as _google_pubsub_v1_SeekRequest__Output } from '../../../google/pubsub/v1/SeekRequest';
import type { SeekResponse as _google_pubsub_v1_SeekResponse, SeekResponse__Output as _google_pubsub_v1_SeekResponse__Output } from '../../../google/pubsub/v1/SeekResponse';
import type { Snapshot as _google_pubsub_v1_Snapshot, Snapshot__Output as _google_pubsub_v1_Snapshot__Output } from '../../../google/pubsub/v1/Snapshot';
import type { StreamingPullRequest as _google_pubsub_v1_StreamingPullRequest, StreamingPullRequest__Output as _google_pubsub_v1_StreamingPullRequest__Output } from '../../../google/pubsub/v1/StreamingPullRequest';
import type { StreamingPullResponse as _google_pubsub_v1_StreamingPullResponse, StreamingPullResponse__Output as _google_pubsub_v1_StreamingPullResponse__Output } from '../../../google/pubsub/v1/StreamingPullResponse';
import type { Subscription as _google_pubsub_v1_Subscription, Subscription__Output as _google_pubsub_v1_Subscription__Output } from '../../../google/pubsub/v1/Subscription';
import type { UpdateSnapshotRequest as _google_pubsub_v1_UpdateSnapshotRequest, UpdateSnapshotRequest__Output as _google_pubsub_v1_UpdateSnapshotRequest__Output } from '../../../google/pubsub/v1/UpdateSnapshotRequest';
import type { UpdateSubscriptionRequest as _google_pubsub_v1_UpdateSubscriptionRequest, UpdateSubscriptionRequest__Output as _google_pubsub_v1_UpdateSubscriptionRequest__Output } from '../../../google/pubsub/v1/UpdateSubscriptionRequest';

export interface SubscriberDefinition {
  Acknowledge: MethodDefinition<_google_pubsub_v1_AcknowledgeRequest, _google_protobuf_Empty, _google_pubsub_v1_AcknowledgeRequest__Output, _google_protobuf_Empty__Output>
  CreateSnapshot: MethodDefinition<_google_pubsub_v1_CreateSnapshotRequest, _google_pubsub_v1_Snapshot, _google_pubsub_v1_CreateSnapshotRequest__Output, _google_pubsub_v1_Snapshot__Output>
  CreateSubscription: MethodDefinition<_google_pubsub_v1_Subscription, _google_pubsub_v1_Subscription, _google_pubsub_v1_Subscription__Output, _google_pubsub_v1_Subscription__Output>
  DeleteSnapshot: MethodDefinition<_google_pubsub_v1_DeleteSnapshotRequest, _google_protobuf_Empty, _google_pubsub_v1_DeleteSnapshotRequest__Output, _google_protobuf_Empty__Output>
  DeleteSubscription: MethodDefinition<_google_pubsub_v1_DeleteSubscriptionRequest, _google_protobuf_Empty, _google_pubsub_v1_DeleteSubscriptionRequest__Output, _google_protobuf_Empty__Output>
  GetSnapshot: MethodDefinition<_google_pubsub_v1_GetSnapshotRequest, _google_pubsub_v1_Snapshot, _google_pubsub_v1_GetSnapshotRequest__Output, _google_pubsub_v1_Snapshot__Output>
  GetSubscription: MethodDefinition<_google_pubsub_v1_GetSubscriptionRequest, _google_pubsub_v1_Subscription, _google_pubsub_v1_GetSubscriptionRequest__Output, _google_pubsub_v1_Subscription__Output>
  ListSnapshots: MethodDefinition<_google_pubsub_v1_ListSnapshotsRequest, _google_pubsub_v1_ListSnapshotsResponse, _google_pubsub_v1_ListSnapshotsRequest__Output, _google_pubsub_v1_ListSnapshotsResponse__Output>
  ListSubscriptions: MethodDefinition<_google_pubsub_v1_ListSubscriptionsRequest, _google_pubsub_v1_ListSubscriptionsResponse, _google_pubsub_v1_ListSubscriptionsRequest__Output, _google_pubsub_v1_ListSubscriptionsResponse__Output>
  ModifyAckDeadline: MethodDefinition<_google_pubsub_v1_ModifyAckDeadlineRequest, _google_protobuf_Empty, _google_pubsub_v1_ModifyAckDeadlineRequest__Output, _google_protobuf_Empty__Output>
  ModifyPushConfig: MethodDefinition<_google_pubsub_v1_ModifyPushConfigRequest, _google_protobuf_Empty, _google_pubsub_v1_ModifyPushConfigRequest__Output, _google_protobuf_Empty__Output>
  Pull: MethodDefinition<_google_pubsub_v1_PullRequest, _google_pubsub_v1_PullResponse, _google_pubsub_v1_PullRequest__Output, _google_pubsub_v1_PullResponse__Output>
  Seek: MethodDefinition<_google_pubsub_v1_SeekRequest, _google_pubsub_v1_SeekResponse, _google_pubsub_v1_SeekRequest__Output, _google_pubsub_v1_SeekResponse__Output>
  StreamingPull: MethodDefinition<_google_pubsub_v1_StreamingPullRequest, _google_pubsub_v1_StreamingPullResponse, _google_pubsub_v1_StreamingPullRequest__Output, _google_pubsub_v1_StreamingPullResponse__Output>
  UpdateSnapshot: MethodDefinition<_google_pubsub_v1_UpdateSnapshotRequest, _google_pubsub_v1_Snapshot, _google_pubsub_v1_UpdateSnapshotRequest__Output, _google_pubsub_v1_Snapshot__Output>
  UpdateSubscription: MethodDefinition<_google_pubsub_v1_UpdateSubscriptionRequest, _google_pubsub_v1_Subscription, _google_pubsub_v1_UpdateSubscriptionRequest__Output, _google_pubsub_v1_Subscription__Output>
}
