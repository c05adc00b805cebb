// Original file: google/iam/v1/iam_policy.proto

import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetIamPolicyRequest as _google_iam_v1_GetIamPolicyRequest, GetIamPolicyRequest__Output as _google_iam_v1_GetIamPolicyRequest__Output } from '../../../google/iam/v1/GetIamPolicyRequest';
import type { Policy as _google_iam_v1_Policy, Policy__Output as _google_iam_v1_Policy__Output } from '../../../google/iam/v1/Policy';
import type { SetIamPolicyRequest as _google_iam_v1_SetIamPolicyRequest, SetIamPolicyRequest__Output as _google_iam_v1_SetIamPolicyRequest__Output } from '../../../google/iam/v1/SetIamPolicyRequest';
import type { TestIamPermissionsRequest as _google_iam_v1_TestIamPermissionsRequest, TestIamPermissionsRequest__Output as _google_iam_v1_TestIamPermissionsRequest__Output } from '../../../google/iam/v1/TestIamPermissionsRequest';
import type { TestIamPermissionsResponse as _google_iam_v1_TestIamPermissionsResponse, TestIamPermissionsResponse__Output as _google_iam_v1_TestIamPermissionsResponse__Output } from '../../../google/iam/v1/TestIamPermissionsResponse';

export interface IAMPolicyDefinition {
  GetIamPolicy: MethodDefinition<_google_iam_v1_GetIamPolicyRequest, _google_iam_v1_Policy, _google_iam_v1_GetIamPolicyRequest__Output, _google_iam_v1_Policy__Output>
  SetIamPolicy: MethodDefinition<_google_iam_v1_SetIamPolicyRequest, _google_iam_v1_Policy, _google_iam_v1_SetIamPolicyRequest__Output, _google_iam_v1_Policy__Output>
  TestIamPermissions: MethodDefinition<_google_iam_v1_TestIamPermissionsRequest, _google_iam_v1_TestIamPermissionsResponse, _google_iam_v1_TestIamPermissionsRequest__Output, _google_iam_v1_TestIamPermissionsResponse__Output>
}
