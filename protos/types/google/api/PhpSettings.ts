// Original file: google/api/client.proto

import type { CommonLanguageSettings as _google_api_CommonLanguageSettings, CommonLanguageSettings__Output as _google_api_CommonLanguageSettings__Output } from '../../google/api/CommonLanguageSettings';

export interface PhpSettings {
  'common'?: (_google_api_CommonLanguageSettings | null);
  'libraryPackage'?: (string);
}

export interface PhpSettings__Output {
  'common'?: (_google_api_CommonLanguageSettings__Output);
  'libraryPackage'?: (string);
}
