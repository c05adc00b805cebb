// Original file: google/pubsub/v1/schema.proto


export interface DeleteSchemaRevisionRequest {
  'name'?: (string);
  'revisionId'?: (string);
}

export interface DeleteSchemaRevisionRequest__Output {
  'name'?: (string);
  'revisionId'?: (string);
}
