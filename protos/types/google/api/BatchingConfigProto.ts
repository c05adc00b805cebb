// Original file: google/api/client.proto

import type { BatchingSettingsProto as _google_api_BatchingSettingsProto, BatchingSettingsProto__Output as _google_api_BatchingSettingsProto__Output } from '../../google/api/BatchingSettingsProto';
import type { BatchingDescriptorProto as _google_api_BatchingDescriptorProto, BatchingDescriptorProto__Output as _google_api_BatchingDescriptorProto__Output } from '../../google/api/BatchingDescriptorProto';

export interface BatchingConfigProto {
  'thresholds'?: (_google_api_BatchingSettingsProto | null);
  'batchDescriptor'?: (_google_api_BatchingDescriptorProto | null);
}

export interface BatchingConfigProto__Output {
  'thresholds'?: (_google_api_BatchingSettingsProto__Output);
  'batchDescriptor'?: (_google_api_BatchingDescriptorProto__Output);
}
