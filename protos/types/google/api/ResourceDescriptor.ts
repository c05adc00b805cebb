// Original file: google/api/resource.proto


// Original file: google/api/resource.proto

export const _google_api_ResourceDescriptor_History = {
  HISTORY_UNSPECIFIED: 'HISTORY_UNSPECIFIED',
  ORIGINALLY_SINGLE_PATTERN: 'ORIGINALLY_SINGLE_PATTERN',
  FUTURE_MULTI_PATTERN: 'FUTURE_MULTI_PATTERN',
} as const;

export type _google_api_ResourceDescriptor_History =
  | 'HISTORY_UNSPECIFIED'
  | 0
  | 'ORIGINALLY_SINGLE_PATTERN'
  | 1
  | 'FUTURE_MULTI_PATTERN'
  | 2

export type _google_api_ResourceDescriptor_History__Output = typeof _google_api_ResourceDescriptor_History[keyof typeof _google_api_ResourceDescriptor_History]

// Original file: google/api/resource.proto

export const _google_api_ResourceDescriptor_Style = {
  STYLE_UNSPECIFIED: 'STYLE_UNSPECIFIED',
  DECLARATIVE_FRIENDLY: 'DECLARATIVE_FRIENDLY',
} as const;

export type _google_api_ResourceDescriptor_Style =
  | 'STYLE_UNSPECIFIED'
  | 0
  | 'DECLARATIVE_FRIENDLY'
  | 1

export type _google_api_ResourceDescriptor_Style__Output = typeof _google_api_ResourceDescriptor_Style[keyof typeof _google_api_ResourceDescriptor_Style]

export interface ResourceDescriptor {
  'type'?: (string);
  'pattern'?: (string)[];
  'nameField'?: (string);
  'history'?: (_google_api_ResourceDescriptor_History);
  'plural'?: (string);
  'singular'?: (string);
  'style'?: (_google_api_ResourceDescriptor_Style)[];
}

export interface ResourceDescriptor__Output {
  'type'?: (string);
  'pattern'?: (string)[];
  'nameField'?: (string);
  'history'?: (_google_api_ResourceDescriptor_History__Output);
  'plural'?: (string);
  'singular'?: (string);
  'style'?: (_google_api_ResourceDescriptor_Style__Output)[];
}
