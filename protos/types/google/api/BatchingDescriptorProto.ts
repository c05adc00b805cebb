// Original file: google/api/client.proto


export interface BatchingDescriptorProto {
  'batchedField'?: (string);
  'discriminatorFields'?: (string)[];
  'subresponseField'?: (string);
}

export interface BatchingDescriptorProto__Output {
  'batchedField'?: (string);
  'discriminatorFields'?: (string)[];
  'subresponseField'?: (string);
}
