// Original file: google/pubsub/v1/pubsub.proto

import type { JavaScriptUDF as _google_pubsub_v1_JavaScriptUDF, JavaScriptUDF__Output as _google_pubsub_v1_JavaScriptUDF__Output } from '../../../google/pubsub/v1/JavaScriptUDF';
import type { AIInference as _google_pubsub_v1_AIInference, AIInference__Output as _google_pubsub_v1_AIInference__Output } from '../../../google/pubsub/v1/AIInference';
import type { Compression as _google_pubsub_v1_Compression, Compression__Output as _google_pubsub_v1_Compression__Output } from '../../../google/pubsub/v1/Compression';

export interface MessageTransform {
  'javascriptUdf'?: (_google_pubsub_v1_JavaScriptUDF | null);
  'enabled'?: (boolean);
  'disabled'?: (boolean);
  'aiInference'?: (_google_pubsub_v1_AIInference | null);
  'compression'?: (_google_pubsub_v1_Compression | null);
  'transform'?: "javascriptUdf"|"compression"|"aiInference";
}

export interface MessageTransform__Output {
  'javascriptUdf'?: (_google_pubsub_v1_JavaScriptUDF__Output);
  'enabled'?: (boolean);
  'disabled'?: (boolean);
  'aiInference'?: (_google_pubsub_v1_AIInference__Output);
  'compression'?: (_google_pubsub_v1_Compression__Output);
  'transform'?: "javascriptUdf"|"compression"|"aiInference";
}
