// Original file: google/api/client.proto

import type { CommonLanguageSettings as _google_api_CommonLanguageSettings, CommonLanguageSettings__Output as _google_api_CommonLanguageSettings__Output } from '../../google/api/CommonLanguageSettings';

export interface RubySettings {
  'common'?: (_google_api_CommonLanguageSettings | null);
}

export interface RubySettings__Output {
  'common'?: (_google_api_CommonLanguageSettings__Output);
}
