// Original file: google/pubsub/v1/pubsub.proto


export interface _google_pubsub_v1_PushConfig_NoWrapper {
  'writeMetadata'?: (boolean);
}

export interface _google_pubsub_v1_PushConfig_NoWrapper__Output {
  'writeMetadata'?: (boolean);
}

export interface _google_pubsub_v1_PushConfig_OidcToken {
  'serviceAccountEmail'?: (string);
  'audience'?: (string);
}

export interface _google_pubsub_v1_PushConfig_OidcToken__Output {
  'serviceAccountEmail'?: (string);
  'audience'?: (string);
}

export interface _google_pubsub_v1_PushConfig_PubsubWrapper {
}

export interface _google_pubsub_v1_PushConfig_PubsubWrapper__Output {
}

export interface PushConfig {
  'pushEndpoint'?: (string);
  'attributes'?: ({[key: string]: string});
  'oidcToken'?: (_google_pubsub_v1_PushConfig_OidcToken | null);
  'pubsubWrapper'?: (_google_pubsub_v1_PushConfig_PubsubWrapper | null);
  'noWrapper'?: (_google_pubsub_v1_PushConfig_NoWrapper | null);
  'authenticationMethod'?: "oidcToken";
  'wrapper'?: "pubsubWrapper"|"noWrapper";
}

export interface PushConfig__Output {
  'pushEndpoint'?: (string);
  'attributes'?: ({[key: string]: string});
  'oidcToken'?: (_google_pubsub_v1_PushConfig_OidcToken__Output);
  'pubsubWrapper'?: (_google_pubsub_v1_PushConfig_PubsubWrapper__Output);
  'noWrapper'?: (_google_pubsub_v1_PushConfig_NoWrapper__Output);
  'authenticationMethod'?: "oidcToken";
  'wrapper'?: "pubsubWrapper"|"noWrapper";
}
