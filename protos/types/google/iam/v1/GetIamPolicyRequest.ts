// Original file: google/iam/v1/iam_policy.proto

import type { GetPolicyOptions as _google_iam_v1_GetPolicyOptions, GetPolicyOptions__Output as _google_iam_v1_GetPolicyOptions__Output } from '../../../google/iam/v1/GetPolicyOptions';

export interface GetIamPolicyRequest {
  'resource'?: (string);
  'options'?: (_google_iam_v1_GetPolicyOptions | null);
}

export interface GetIamPolicyRequest__Output {
  'resource'?: (string);
  'options'?: (_google_iam_v1_GetPolicyOptions__Output);
}
