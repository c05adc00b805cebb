// Original file: google/iam/v1/policy.proto


// Original file: google/iam/v1/policy.proto

export const _google_iam_v1_AuditConfigDelta_Action = {
  ACTION_UNSPECIFIED: 'ACTION_UNSPECIFIED',
  ADD: 'ADD',
  REMOVE: 'REMOVE',
} as const;

export type _google_iam_v1_AuditConfigDelta_Action =
  | 'ACTION_UNSPECIFIED'
  | 0
  | 'ADD'
  | 1
  | 'REMOVE'
  | 2

export type _google_iam_v1_AuditConfigDelta_Action__Output = typeof _google_iam_v1_AuditConfigDelta_Action[keyof typeof _google_iam_v1_AuditConfigDelta_Action]

export interface AuditConfigDelta {
  'action'?: (_google_iam_v1_AuditConfigDelta_Action);
  'service'?: (string);
  'exemptedMember'?: (string);
  'logType'?: (string);
}

export interface AuditConfigDelta__Output {
  'action'?: (_google_iam_v1_AuditConfigDelta_Action__Output);
  'service'?: (string);
  'exemptedMember'?: (string);
  'logType'?: (string);
}
