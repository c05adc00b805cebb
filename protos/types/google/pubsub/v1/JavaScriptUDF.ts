// Original file: google/pubsub/v1/pubsub.proto


export interface JavaScriptUDF {
  'functionName'?: (string);
  'code'?: (string);
}

export interface JavaScriptUDF__Output {
  'functionName'?: (string);
  'code'?: (string);
}
