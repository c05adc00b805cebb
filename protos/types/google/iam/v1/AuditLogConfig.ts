// Original file: google/iam/v1/policy.proto


// Original file: google/iam/v1/policy.proto

export const _google_iam_v1_AuditLogConfig_LogType = {
  LOG_TYPE_UNSPECIFIED: 'LOG_TYPE_UNSPECIFIED',
  ADMIN_READ: 'ADMIN_READ',
  DATA_WRITE: 'DATA_WRITE',
  DATA_READ: 'DATA_READ',
} as const;

export type _google_iam_v1_AuditLogConfig_LogType =
  | 'LOG_TYPE_UNSPECIFIED'
  | 0
  | 'ADMIN_READ'
  | 1
  | 'DATA_WRITE'
  | 2
  | 'DATA_READ'
  | 3

export type _google_iam_v1_AuditLogConfig_LogType__Output = typeof _google_iam_v1_AuditLogConfig_LogType[keyof typeof _google_iam_v1_AuditLogConfig_LogType]

export interface AuditLogConfig {
  'logType'?: (_google_iam_v1_AuditLogConfig_LogType);
  'exemptedMembers'?: (string)[];
}

export interface AuditLogConfig__Output {
  'logType'?: (_google_iam_v1_AuditLogConfig_LogType__Output);
  'exemptedMembers'?: (string)[];
}
