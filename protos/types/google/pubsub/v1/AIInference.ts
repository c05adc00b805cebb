// Original file: google/pubsub/v1/pubsub.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct';

export interface _google_pubsub_v1_AIInference_UnstructuredInference {
  'parameters'?: (_google_protobuf_Struct | null);
}

export interface _google_pubsub_v1_AIInference_UnstructuredInference__Output {
  'parameters'?: (_google_protobuf_Struct__Output);
}

export interface AIInference {
  'endpoint'?: (string);
  'unstructuredInference'?: (_google_pubsub_v1_AIInference_UnstructuredInference | null);
  'serviceAccountEmail'?: (string);
  'inferenceMode'?: "unstructuredInference";
}

export interface AIInference__Output {
  'endpoint'?: (string);
  'unstructuredInference'?: (_google_pubsub_v1_AIInference_UnstructuredInference__Output);
  'serviceAccountEmail'?: (string);
  'inferenceMode'?: "unstructuredInference";
}
