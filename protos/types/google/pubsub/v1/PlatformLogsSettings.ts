// Original file: google/pubsub/v1/pubsub.proto


// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_PlatformLogsSettings_Severity = {
  SEVERITY_UNSPECIFIED: 'SEVERITY_UNSPECIFIED',
  DISABLED: 'DISABLED',
  DEBUG: 'DEBUG',
  INFO: 'INFO',
  WARNING: 'WARNING',
  ERROR: 'ERROR',
} as const;

export type _google_pubsub_v1_PlatformLogsSettings_Severity =
  | 'SEVERITY_UNSPECIFIED'
  | 0
  | 'DISABLED'
  | 1
  | 'DEBUG'
  | 2
  | 'INFO'
  | 3
  | 'WARNING'
  | 4
  | 'ERROR'
  | 5

export type _google_pubsub_v1_PlatformLogsSettings_Severity__Output = typeof _google_pubsub_v1_PlatformLogsSettings_Severity[keyof typeof _google_pubsub_v1_PlatformLogsSettings_Severity]

export interface PlatformLogsSettings {
  'severity'?: (_google_pubsub_v1_PlatformLogsSettings_Severity);
}

export interface PlatformLogsSettings__Output {
  'severity'?: (_google_pubsub_v1_PlatformLogsSettings_Severity__Output);
}
