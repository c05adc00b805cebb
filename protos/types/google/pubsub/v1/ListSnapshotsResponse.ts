// Original file: google/pubsub/v1/pubsub.proto

import type { Snapshot as _google_pubsub_v1_Snapshot, Snapshot__Output as _google_pubsub_v1_Snapshot__Output } from '../../../google/pubsub/v1/Snapshot';

export interface ListSnapshotsResponse {
  'snapshots'?: (_google_pubsub_v1_Snapshot)[];
  'nextPageToken'?: (string);
}

export interface ListSnapshotsResponse__Output {
  'snapshots'?: (_google_pubsub_v1_Snapshot__Output)[];
  'nextPageToken'?: (string);
}
