// Original file: google/api/resource.proto


export interface ResourceReference {
  'type'?: (string);
  'childType'?: (string);
}

export interface ResourceReference__Output {
  'type'?: (string);
  'childType'?: (string);
}
