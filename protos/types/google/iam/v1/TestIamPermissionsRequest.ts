// Original file: google/iam/v1/iam_policy.proto


export interface TestIamPermissionsRequest {
  'resource'?: (string);
  'permissions'?: (string)[];
}

export interface TestIamPermissionsRequest__Output {
  'resource'?: (string);
  'permissions'?: (string)[];
}
