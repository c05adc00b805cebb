// Original file: google/pubsub/v1/schema.proto

import type { MethodDefinition } from '@grpc/proto-loader'
import type { CommitSchemaRequest as _google_pubsub_v1_CommitSchemaRequest, CommitSchemaRequest__Output as _google_pubsub_v1_CommitSchemaRequest__Output } from '../../../google/pubsub/v1/CommitSchemaRequest';
import type { CreateSchemaRequest as _google_pubsub_v1_CreateSchemaRequest, CreateSchemaRequest__Output as _google_pubsub_v1_CreateSchemaRequest__Output } from '../../../google/pubsub/v1/CreateSchemaRequest';
import type { DeleteSchemaRequest as _google_pubsub_v1_DeleteSchemaRequest, DeleteSchemaRequest__Output as _google_pubsub_v1_DeleteSchemaRequest__Output } from '../../../google/pubsub/v1/DeleteSchemaRequest';
import type { DeleteSchemaRevisionRequest as _google_pubsub_v1_DeleteSchemaRevisionRequest, DeleteSchemaRevisionRequest__Output as _google_pubsub_v1_DeleteSchemaRevisionRequest__Output } from '../../../google/pubsub/v1/DeleteSchemaRevisionRequest';
import type { Empty as _google_protobuf_Empty, Empty__Output as _google_protobuf_Empty__Output } from '../../../google/protobuf/Empty';
import type { GetSchemaRequest as _google_pubsub_v1_GetSchemaRequest, GetSchemaRequest__Output as _google_pubsub_v1_GetSchemaRequest__Output } from '../../../google/pubsub/v1/GetSchemaRequest';
import type { ListSchemaRevisionsRequest as _google_pubsub_v1_ListSchemaRevisionsRequest, ListSchemaRevisionsRequest__Output as _google_pubsub_v1_ListSchemaRevisionsRequest__Output } from '../../../google/pubsub/v1/ListSchemaRevisionsRequest';
import type { ListSchemaRevisionsResponse as _google_pubsub_v1_ListSchemaRevisionsResponse, ListSchemaRevisionsResponse__Output as _google_pubsub_v1_ListSchemaRevisionsResponse__Output } from '../../../google/pubsub/v1/ListSchemaRevisionsResponse';
import type { ListSchemasRequest as _google_pubsub_v1_ListSchemasRequest, ListSchemasRequest__Output as _google_pubsub_v1_ListSchemasRequest__Output } from '../../../google/pubsub/v1/ListSchemasRequest';
import type { ListSchemasResponse as _google_pubsub_v1_ListSchemasResponse, ListSchemasResponse__Output as _google_pubsub_v1_ListSchemasResponse__Output } from '../../../google/pubsub/v1/ListSchemasResponse';
import type { RollbackSchemaRequest as _google_pubsub_v1_RollbackSchemaRequest, RollbackSchemaRequest__Output as _google_pubsub_v1_RollbackSchemaRequest__Output } from '../../../google/pubsub/v1/RollbackSchemaRequest';
import type { Schema as _google_pubsub_v1_Schema, Schema__Output as _google_pubsub_v1_Schema__Output } from '../../../google/pubsub/v1/Schema';
import type { ValidateMessageRequest as _google_pubsub_v1_ValidateMessageRequest, ValidateMessageRequest__Output as _google_pubsub_v1_ValidateMessageRequest__Output } from '../../../google/pubsub/v1/ValidateMessageRequest';
import type { ValidateMessageResponse as _google_pubsub_v1_ValidateMessageResponse, ValidateMessageResponse__Output as _google_pubsub_v1_ValidateMessageResponse__Output } from '../../../google/pubsub/v1/ValidateMessageResponse';
import type { ValidateSchemaRequest as _google_pubsub_v1_ValidateSchemaRequest, ValidateSchemaRequest__Output as _google_pubsub_v1_ValidateSchemaRequest__Output } from '../../../google/pubsub/v1/ValidateSchemaRequest';
import type { ValidateSchemaResponse as _google_pubsub_v1_ValidateSchemaResponse, ValidateSchemaResponse__Output as _google_pubsub_v1_ValidateSchemaResponse__Output } from '../../../google/pubsub/v1/ValidateSchemaResponse';

export interface SchemaServiceDefinition {
  CommitSchema: MethodDefinition<_google_pubsub_v1_CommitSchemaRequest, _google_pubsub_v1_Schema, _google_pubsub_v1_CommitSchemaRequest__Output, _google_pubsub_v1_Schema__Output>
  CreateSchema: MethodDefinition<_google_pubsub_v1_CreateSchemaRequest, _google_pubsub_v1_Schema, _google_pubsub_v1_CreateSchemaRequest__Output, _google_pubsub_v1_Schema__Output>
  DeleteSchema: MethodDefinition<_google_pubsub_v1_DeleteSchemaRequest, _google_protobuf_Empty, _google_pubsub_v1_DeleteSchemaRequest__Output, _google_protobuf_Empty__Output>
  DeleteSchemaRevision: MethodDefinition<_google_pubsub_v1_DeleteSchemaRevisionRequest, _google_pubsub_v1_Schema, _google_pubsub_v1_DeleteSchemaRevisionRequest__Output, _google_pubsub_v1_Schema__Output>
  GetSchema: MethodDefinition<_google_pubsub_v1_GetSchemaRequest, _google_pubsub_v1_Schema, _google_pubsub_v1_GetSchemaRequest__Output, _google_pubsub_v1_Schema__Output>
  ListSchemaRevisions: MethodDefinition<_google_pubsub_v1_ListSchemaRevisionsRequest, _google_pubsub_v1_ListSchemaRevisionsResponse, _google_pubsub_v1_ListSchemaRevisionsRequest__Output, _google_pubsub_v1_ListSchemaRevisionsResponse__Output>
  ListSchemas: MethodDefinition<_google_pubsub_v1_ListSchemasRequest, _google_pubsub_v1_ListSchemasResponse, _google_pubsub_v1_ListSchemasRequest__Output, _google_pubsub_v1_ListSchemasResponse__Output>
  RollbackSchema: MethodDefinition<_google_pubsub_v1_RollbackSchemaRequest, _google_pubsub_v1_Schema, _google_pubsub_v1_RollbackSchemaRequest__Output, _google_pubsub_v1_Schema__Output>
  ValidateMessage: MethodDefinition<_google_pubsub_v1_ValidateMessageRequest, _google_pubsub_v1_ValidateMessageResponse, _google_pubsub_v1_ValidateMessageRequest__Output, _google_pubsub_v1_ValidateMessageResponse__Output>
  ValidateSchema: MethodDefinition<_google_pubsub_v1_ValidateSchemaRequest, _google_pubsub_v1_ValidateSchemaResponse, _google_pubsub_v1_ValidateSchemaRequest__Output, _google_pubsub_v1_ValidateSchemaResponse__Output>
}
