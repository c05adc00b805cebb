// Original file: google/api/client.proto

export const FlowControlLimitExceededBehaviorProto = {
  UNSET_BEHAVIOR: 'UNSET_BEHAVIOR',
  THROW_EXCEPTION: 'THROW_EXCEPTION',
  BLOCK: 'BLOCK',
  IGNORE: 'IGNORE',
} as const;

export type FlowControlLimitExceededBehaviorProto =
  | 'UNSET_BEHAVIOR'
  | 0
  | 'THROW_EXCEPTION'
  | 1
  | 'BLOCK'
  | 2
  | 'IGNORE'
  | 3

export type FlowControlLimitExceededBehaviorProto__Output = typeof FlowControlLimitExceededBehaviorProto[keyof typeof FlowControlLimitExceededBehaviorProto]
