// Original file: google/iam/v1/policy.proto

import type { Binding as _google_iam_v1_Binding, Binding__Output as _google_iam_v1_Binding__Output } from '../../../google/iam/v1/Binding';
import type { AuditConfig as _google_iam_v1_AuditConfig, AuditConfig__Output as _google_iam_v1_AuditConfig__Output } from '../../../google/iam/v1/AuditConfig';

export interface Policy {
  'version'?: (number);
  'etag'?: (Buffer | Uint8Array | string);
  'bindings'?: (_google_iam_v1_Binding)[];
  'auditConfigs'?: (_google_iam_v1_AuditConfig)[];
}

export interface Policy__Output {
  'version'?: (number);
  'etag'?: (Buffer);
  'bindings'?: (_google_iam_v1_Binding__Output)[];
  'auditConfigs'?: (_google_iam_v1_AuditConfig__Output)[];
}
