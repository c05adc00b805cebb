// Original file: google/iam/v1/options.proto


export interface GetPolicyOptions {
  'requestedPolicyVersion'?: (number);
}

export interface GetPolicyOptions__Output {
  'requestedPolicyVersion'?: (number);
}
