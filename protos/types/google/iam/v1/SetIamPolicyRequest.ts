// Original file: google/iam/v1/iam_policy.proto

import type { Policy as _google_iam_v1_Policy, Policy__Output as _google_iam_v1_Policy__Output } from '../../../google/iam/v1/Policy';
import type { FieldMask as _google_protobuf_FieldMask, FieldMask__Output as _google_protobuf_FieldMask__Output } from '../../../google/protobuf/FieldMask';

export interface SetIamPolicyRequest {
  'resource'?: (string);
  'policy'?: (_google_iam_v1_Policy | null);
  'updateMask'?: (_google_protobuf_FieldMask | null);
}

export interface SetIamPolicyRequest__Output {
  'resource'?: (string);
  'policy'?: (_google_iam_v1_Policy__Output);
  'updateMask'?: (_google_protobuf_FieldMask__Output);
}
