// Original file: google/pubsub/v1/schema.proto

export const Encoding = {
  ENCODING_UNSPECIFIED: 'ENCODING_UNSPECIFIED',
  JSON: 'JSON',
  BINARY: 'BINARY',
} as const;

export type Encoding =
  | 'ENCODING_UNSPECIFIED'
  | 0
  | 'JSON'
  | 1
  | 'BINARY'
  | 2

export type Encoding__Output = typeof Encoding[keyof typeof Encoding]
