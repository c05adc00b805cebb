// Original file: google/iam/v1/iam_policy.proto


export interface TestIamPermissionsResponse {
  'permissions'?: (string)[];
}

export interface TestIamPermissionsResponse__Output {
  'permissions'?: (string)[];
}
