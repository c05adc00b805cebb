// Original file: google/pubsub/v1/pubsub.proto


// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_Compression_CompressionAlgorithm = {
  COMPRESSION_ALGORITHM_UNSPECIFIED: 'COMPRESSION_ALGORITHM_UNSPECIFIED',
  ZLIB: 'ZLIB',
  ZSTD: 'ZSTD',
} as const;

export type _google_pubsub_v1_Compression_CompressionAlgorithm =
  | 'COMPRESSION_ALGORITHM_UNSPECIFIED'
  | 0
  | 'ZLIB'
  | 1
  | 'ZSTD'
  | 3

export type _google_pubsub_v1_Compression_CompressionAlgorithm__Output = typeof _google_pubsub_v1_Compression_CompressionAlgorithm[keyof typeof _google_pubsub_v1_Compression_CompressionAlgorithm]

// Original file: google/pubsub/v1/pubsub.proto

export const _google_pubsub_v1_Compression_CompressionMode = {
  COMPRESSION_MODE_UNSPECIFIED: 'COMPRESSION_MODE_UNSPECIFIED',
  COMPRESS: 'COMPRESS',
  DECOMPRESS: 'DECOMPRESS',
} as const;

export type _google_pubsub_v1_Compression_CompressionMode =
  | 'COMPRESSION_MODE_UNSPECIFIED'
  | 0
  | 'COMPRESS'
  | 1
  | 'DECOMPRESS'
  | 2

export type _google_pubsub_v1_Compression_CompressionMode__Output = typeof _google_pubsub_v1_Compression_CompressionMode[keyof typeof _google_pubsub_v1_Compression_CompressionMode]

export interface Compression {
  'compressionAlgorithm'?: (_google_pubsub_v1_Compression_CompressionAlgorithm);
  'compressionMode'?: (_google_pubsub_v1_Compression_CompressionMode);
}

export interface Compression__Output {
  'compressionAlgorithm'?: (_google_pubsub_v1_Compression_CompressionAlgorithm__Output);
  'compressionMode'?: (_google_pubsub_v1_Compression_CompressionMode__Output);
}
