// Original file: google/pubsub/v1/schema.proto


export interface DeleteSchemaRequest {
  'name'?: (string);
}

export interface DeleteSchemaRequest__Output {
  'name'?: (string);
}
