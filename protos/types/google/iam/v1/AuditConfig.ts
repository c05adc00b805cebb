// Original file: google/iam/v1/policy.proto

import type { AuditLogConfig as _google_iam_v1_AuditLogConfig, AuditLogConfig__Output as _google_iam_v1_AuditLogConfig__Output } from '../../../google/iam/v1/AuditLogConfig';

export interface AuditConfig {
  'service'?: (string);
  'auditLogConfigs'?: (_google_iam_v1_AuditLogConfig)[];
}

export interface AuditConfig__Output {
  'service'?: (string);
  'auditLogConfigs'?: (_google_iam_v1_AuditLogConfig__Output)[];
}
