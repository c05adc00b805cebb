// Original file: google/pubsub/v1/pubsub.proto


export interface MessageStoragePolicy {
  'allowedPersistenceRegions'?: (string)[];
  'enforceInTransit'?: (boolean);
}

export interface MessageStoragePolicy__Output {
  'allowedPersistenceRegions'?: (string)[];
  'enforceInTransit'?: (boolean);
}
