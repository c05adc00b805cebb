// Original file: google/iam/v1/policy.proto

import type { Expr as _google_type_Expr, Expr__Output as _google_type_Expr__Output } from '../../../google/type/Expr';

export interface Binding {
  'role'?: (string);
  'members'?: (string)[];
  'condition'?: (_google_type_Expr | null);
}

export interface Binding__Output {
  'role'?: (string);
  'members'?: (string)[];
  'condition'?: (_google_type_Expr__Output);
}
