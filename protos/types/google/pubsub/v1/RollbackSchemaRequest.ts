// Original file: google/pubsub/v1/schema.proto


export interface RollbackSchemaRequest {
  'name'?: (string);
  'revisionId'?: (string);
}

export interface RollbackSchemaRequest__Output {
  'name'?: (string);
  'revisionId'?: (string);
}
