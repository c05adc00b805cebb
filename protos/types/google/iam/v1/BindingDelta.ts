// Original file: google/iam/v1/policy.proto

import type { Expr as _google_type_Expr, Expr__Output as _google_type_Expr__Output } from '../../../google/type/Expr';

// Original file: google/iam/v1/policy.proto

export const _google_iam_v1_BindingDelta_Action = {
  ACTION_UNSPECIFIED: 'ACTION_UNSPECIFIED',
  ADD: 'ADD',
  REMOVE: 'REMOVE',
} as const;

export type _google_iam_v1_BindingDelta_Action =
  | 'ACTION_UNSPECIFIED'
  | 0
  | 'ADD'
  | 1
  | 'REMOVE'
  | 2

export type _google_iam_v1_BindingDelta_Action__Output = typeof _google_iam_v1_BindingDelta_Action[keyof typeof _google_iam_v1_BindingDelta_Action]

export interface BindingDelta {
  'action'?: (_google_iam_v1_BindingDelta_Action);
  'role'?: (string);
  'member'?: (string);
  'condition'?: (_google_type_Expr | null);
}

export interface BindingDelta__Output {
  'action'?: (_google_iam_v1_BindingDelta_Action__Output);
  'role'?: (string);
  'member'?: (string);
  'condition'?: (_google_type_Expr__Output);
}
