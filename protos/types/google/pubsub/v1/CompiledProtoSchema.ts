// Original file: google/pubsub/v1/schema.proto


export interface CompiledProtoSchema {
  'rootMessage'?: (string);
  'compiledBytes'?: (Buffer | Uint8Array | string);
}

export interface CompiledProtoSchema__Output {
  'rootMessage'?: (string);
  'compiledBytes'?: (Buffer);
}
