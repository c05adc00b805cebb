// Original file: google/pubsub/v1/schema.proto


export interface ValidateSchemaResponse {
}

export interface ValidateSchemaResponse__Output {
}
