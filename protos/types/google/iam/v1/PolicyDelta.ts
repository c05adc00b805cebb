// Original file: google/iam/v1/policy.proto

import type { BindingDelta as _google_iam_v1_BindingDelta, BindingDelta__Output as _google_iam_v1_BindingDelta__Output } from '../../../google/iam/v1/BindingDelta';
import type { AuditConfigDelta as _google_iam_v1_AuditConfigDelta, AuditConfigDelta__Output as _google_iam_v1_AuditConfigDelta__Output } from '../../../google/iam/v1/AuditConfigDelta';

export interface PolicyDelta {
  'bindingDeltas'?: (_google_iam_v1_BindingDelta)[];
  'auditConfigDeltas'?: (_google_iam_v1_AuditConfigDelta)[];
}

export interface PolicyDelta__Output {
  'bindingDeltas'?: (_google_iam_v1_BindingDelta__Output)[];
  'auditConfigDeltas'?: (_google_iam_v1_AuditConfigDelta__Output)[];
}
