package compat;

import static compat.Emulator.CHANNELS;
import static compat.Emulator.NO_CREDENTIALS;
import static compat.Emulator.PROJECT_PATH;
import static compat.Emulator.SUBS;
import static compat.Emulator.TOPICS;
import static compat.Emulator.WAIT;
import static compat.Emulator.assertCode;
import static compat.Emulator.publishTo;
import static compat.Emulator.pullUntil;
import static compat.Emulator.topicPath;
import static compat.Emulator.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.api.gax.rpc.StatusCode.Code;
import com.google.cloud.pubsub.v1.SchemaServiceClient;
import com.google.cloud.pubsub.v1.SchemaServiceSettings;
import com.google.iam.v1.Binding;
import com.google.iam.v1.GetIamPolicyRequest;
import com.google.iam.v1.Policy;
import com.google.iam.v1.SetIamPolicyRequest;
import com.google.iam.v1.TestIamPermissionsRequest;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.CommitSchemaRequest;
import com.google.pubsub.v1.CreateSchemaRequest;
import com.google.pubsub.v1.DeleteSchemaRevisionRequest;
import com.google.pubsub.v1.Encoding;
import com.google.pubsub.v1.GetSchemaRequest;
import com.google.pubsub.v1.ListSchemaRevisionsRequest;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.RollbackSchemaRequest;
import com.google.pubsub.v1.Schema;
import com.google.pubsub.v1.SchemaSettings;
import com.google.pubsub.v1.Topic;
import com.google.pubsub.v1.ValidateMessageRequest;
import com.google.pubsub.v1.ValidateSchemaRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Schemas (SchemaServiceClient, topics with schema settings) and IAM on topics, subscriptions and schemas. */
class SchemasIamTest extends CompatBase {
  static final String AVRO =
      "{\"type\":\"record\",\"name\":\"State\",\"namespace\":\"utilities\",\"fields\":"
          + "[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"post_abbr\",\"type\":\"string\"}]}";
  static final String AVRO_V2 =
      "{\"type\":\"record\",\"name\":\"State\",\"namespace\":\"utilities\",\"fields\":"
          + "[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"post_abbr\",\"type\":\"string\"},"
          + "{\"name\":\"capital\",\"type\":\"string\",\"default\":\"\"}]}";

  static SchemaServiceClient schemas;

  @BeforeAll
  static void connect() throws Exception {
    schemas =
        SchemaServiceClient.create(
            SchemaServiceSettings.newBuilder()
                .setTransportChannelProvider(CHANNELS)
                .setCredentialsProvider(NO_CREDENTIALS)
                .build());
  }

  @AfterAll
  static void close() {
    schemas.close();
  }

  Schema newSchema() {
    Schema s =
        schemas.createSchema(
            CreateSchemaRequest.newBuilder()
                .setParent(PROJECT_PATH)
                .setSchemaId(unique("schema"))
                .setSchema(Schema.newBuilder().setType(Schema.Type.AVRO).setDefinition(AVRO))
                .build());
    res.deleteLater(() -> schemas.deleteSchema(s.getName()));
    return s;
  }

  static ByteString json(String s) {
    return ByteString.copyFromUtf8(s);
  }

  @Test
  void schemaCreateGetValidate() {
    Schema s = newSchema();
    assertEquals(8, s.getRevisionId().length());
    Schema got = schemas.getSchema(GetSchemaRequest.newBuilder().setName(s.getName()).build());
    assertEquals(AVRO, got.getDefinition());
    assertCode(
        Code.INVALID_ARGUMENT,
        () ->
            schemas.validateSchema(
                ValidateSchemaRequest.newBuilder()
                    .setParent(PROJECT_PATH)
                    .setSchema(Schema.newBuilder().setType(Schema.Type.AVRO).setDefinition("not avro"))
                    .build()),
        "ValidateSchema of a bad definition");
    ValidateMessageRequest.Builder msg =
        ValidateMessageRequest.newBuilder().setParent(PROJECT_PATH).setName(s.getName()).setEncoding(Encoding.JSON);
    schemas.validateMessage(msg.setMessage(json("{\"name\":\"Alaska\",\"post_abbr\":\"AK\"}")).build());
    assertCode(
        Code.INVALID_ARGUMENT,
        () -> schemas.validateMessage(msg.setMessage(json("{\"name\":1}")).build()),
        "ValidateMessage of a bad message");
  }

  @Test
  void schemaRevisions() {
    Schema s = newSchema();
    Schema v2 =
        schemas.commitSchema(
            CommitSchemaRequest.newBuilder()
                .setName(s.getName())
                .setSchema(Schema.newBuilder().setType(Schema.Type.AVRO).setDefinition(AVRO_V2))
                .build());
    List<String> ids = new ArrayList<>();
    schemas
        .listSchemaRevisions(ListSchemaRevisionsRequest.newBuilder().setName(s.getName()).build())
        .iterateAll()
        .forEach(r -> ids.add(r.getRevisionId()));
    assertEquals(List.of(v2.getRevisionId(), s.getRevisionId()), ids);
    Schema rolled =
        schemas.rollbackSchema(
            RollbackSchemaRequest.newBuilder().setName(s.getName()).setRevisionId(s.getRevisionId()).build());
    assertEquals(AVRO, rolled.getDefinition());
    schemas.deleteSchemaRevision(
        DeleteSchemaRevisionRequest.newBuilder().setName(s.getName() + "@" + v2.getRevisionId()).build());
    assertCode(
        Code.NOT_FOUND,
        () -> schemas.getSchema(GetSchemaRequest.newBuilder().setName(s.getName() + "@" + v2.getRevisionId()).build()),
        "GetSchema of a deleted revision");
  }

  @Test
  void schemaTopicValidatesAndTagsMessages() throws Exception {
    Schema s = newSchema();
    String topic =
        res.topic(
            Topic.newBuilder()
                .setSchemaSettings(SchemaSettings.newBuilder().setSchema(s.getName()).setEncoding(Encoding.JSON)));
    String sub = res.sub(topic);
    publishTo(topic, List.of(PubsubMessage.newBuilder().setData(json("{\"name\":\"Alaska\",\"post_abbr\":\"AK\"}")).build()));
    List<ReceivedMessage> got = pullUntil(sub, 1, WAIT);
    assertEquals(1, got.size());
    Map<String, String> a = got.get(0).getMessage().getAttributesMap();
    assertEquals(s.getName(), a.get("googclient_schemaname"));
    assertEquals("JSON", a.get("googclient_schemaencoding"));
    assertEquals(s.getRevisionId(), a.get("googclient_schemarevisionid"));
    assertCode(
        Code.INVALID_ARGUMENT,
        () -> TOPICS.publish(topic, List.of(PubsubMessage.newBuilder().setData(json("{\"name\":42}")).build())),
        "publishing a non-conforming message");
  }

  @Test
  void iamPolicies() {
    String topic = res.topic();
    String sub = res.sub(topic);
    String schema = newSchema().getName();
    for (String resource : List.of(topic, sub, schema)) {
      Policy p = getPolicy(resource);
      assertEquals(0, p.getBindingsCount(), resource);
      assertEquals(0, p.getVersion(), resource);
      Policy wanted =
          p.toBuilder()
              .addBindings(Binding.newBuilder().setRole("roles/pubsub.editor").addMembers("domain:google.com"))
              .addBindings(Binding.newBuilder().setRole("roles/pubsub.viewer").addMembers("group:cloud-logs@google.com"))
              .build();
      Policy set = setPolicy(resource, wanted);
      Policy again = getPolicy(resource);
      assertEquals(set.getBindingsList(), again.getBindingsList(), resource);
      assertEquals(set.getEtag(), again.getEtag(), resource);
      assertEquals(2, again.getBindingsCount(), resource);
      assertCode(Code.ABORTED, () -> setPolicy(resource, wanted), resource + ": a stale etag");
      List<String> perms = List.of("pubsub.topics.get", "pubsub.subscriptions.consume");
      assertEquals(perms, testPermissions(resource, perms), resource);
    }
    assertCode(Code.NOT_FOUND, () -> getPolicy(topicPath(unique("missing"))), "a missing topic");
  }

  static Policy getPolicy(String resource) {
    GetIamPolicyRequest req = GetIamPolicyRequest.newBuilder().setResource(resource).build();
    return resource.contains("/schemas/") ? schemas.getIamPolicy(req) : resource.contains("/subscriptions/") ? SUBS.getIamPolicy(req) : TOPICS.getIamPolicy(req);
  }

  static Policy setPolicy(String resource, Policy p) {
    SetIamPolicyRequest req = SetIamPolicyRequest.newBuilder().setResource(resource).setPolicy(p).build();
    return resource.contains("/schemas/") ? schemas.setIamPolicy(req) : resource.contains("/subscriptions/") ? SUBS.setIamPolicy(req) : TOPICS.setIamPolicy(req);
  }

  static List<String> testPermissions(String resource, List<String> perms) {
    TestIamPermissionsRequest req = TestIamPermissionsRequest.newBuilder().setResource(resource).addAllPermissions(perms).build();
    return (resource.contains("/schemas/")
            ? schemas.testIamPermissions(req)
            : resource.contains("/subscriptions/") ? SUBS.testIamPermissions(req) : TOPICS.testIamPermissions(req))
        .getPermissionsList();
  }
}
