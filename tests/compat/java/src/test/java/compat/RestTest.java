package compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.SubscriptionAdminSettings;
import com.google.cloud.pubsub.v1.TopicAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminSettings;
import com.google.protobuf.ByteString;
import com.google.protobuf.FieldMask;
import com.google.pubsub.v1.ModifyAckDeadlineRequest;
import com.google.pubsub.v1.PublishResponse;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PullResponse;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.Subscription;
import com.google.pubsub.v1.Topic;
import com.google.pubsub.v1.UpdateSubscriptionRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The admin clients on gax's HttpJson transport (REST/JSON) with an http:// endpoint. */
class RestTest {
  @Test
  void httpJsonClients() throws Exception {
    String endpoint = "http://" + System.getenv("PUBSUB_EMULATOR_HOST");
    try (TopicAdminClient topics =
            TopicAdminClient.create(
                TopicAdminSettings.newHttpJsonBuilder()
                    .setEndpoint(endpoint)
                    .setCredentialsProvider(NoCredentialsProvider.create())
                    .build());
        SubscriptionAdminClient subs =
            SubscriptionAdminClient.create(
                SubscriptionAdminSettings.newHttpJsonBuilder()
                    .setEndpoint(endpoint)
                    .setCredentialsProvider(NoCredentialsProvider.create())
                    .build())) {
      String topic = Emulator.topicPath(Emulator.unique("rest-topic"));
      String sub = Emulator.subPath(Emulator.unique("rest-sub"));
      Topic created = topics.createTopic(Topic.newBuilder().setName(topic).putLabels("team", "a").build());
      assertEquals("a", created.getLabelsMap().get("team"));
      Subscription s =
          subs.createSubscription(
              Subscription.newBuilder().setName(sub).setTopic(topic).setAckDeadlineSeconds(30).build());
      assertEquals(30, s.getAckDeadlineSeconds());
      assertEquals(Subscription.State.ACTIVE, s.getState());
      Subscription updated =
          subs.updateSubscription(
              UpdateSubscriptionRequest.newBuilder()
                  .setSubscription(Subscription.newBuilder().setName(sub).setAckDeadlineSeconds(45))
                  .setUpdateMask(FieldMask.newBuilder().addPaths("ack_deadline_seconds"))
                  .build());
      assertEquals(45, updated.getAckDeadlineSeconds());

      PublishResponse published =
          topics.publish(
              topic,
              List.of(
                  PubsubMessage.newBuilder()
                      .setData(ByteString.copyFrom(new byte[] {0, (byte) 255, 'j'}))
                      .putAttributes("k", "v")
                      .build()));
      assertEquals(1, published.getMessageIdsCount());
      PullResponse pulled = subs.pull(sub, 10);
      assertEquals(1, pulled.getReceivedMessagesCount());
      ReceivedMessage m = pulled.getReceivedMessages(0);
      assertEquals(ByteString.copyFrom(new byte[] {0, (byte) 255, 'j'}), m.getMessage().getData());
      assertEquals("v", m.getMessage().getAttributesMap().get("k"));
      assertEquals(published.getMessageIds(0), m.getMessage().getMessageId());
      subs.acknowledge(sub, List.of(m.getAckId()));

      ApiException bad =
          assertThrows(
              ApiException.class,
              () ->
                  subs.modifyAckDeadline(
                      ModifyAckDeadlineRequest.newBuilder()
                          .setSubscription(sub)
                          .addAckIds("x")
                          .setAckDeadlineSeconds(601)
                          .build()));
      assertEquals(StatusCode.Code.INVALID_ARGUMENT, bad.getStatusCode().getCode());
      assertTrue(bad.getMessage().contains("ack_deadline_seconds"), bad.getMessage());
      assertNotNull(bad.getErrorDetails());
      assertEquals(
          "ack_deadline_seconds",
          bad.getErrorDetails().getBadRequest().getFieldViolations(0).getField());
      // gax's HttpJson transport takes the code from the HTTP status alone: 409 reads as ABORTED,
      // against the real service too; the body's status says ALREADY_EXISTS.
      ApiException exists = assertThrows(ApiException.class, () -> topics.createTopic(topic));
      assertEquals(StatusCode.Code.ABORTED, exists.getStatusCode().getCode());
      assertTrue(exists.getMessage().contains("already exists"), exists.getMessage());

      subs.deleteSubscription(sub);
      topics.deleteTopic(topic);
      ApiException gone = assertThrows(ApiException.class, () -> topics.getTopic(topic));
      assertEquals(StatusCode.Code.NOT_FOUND, gone.getStatusCode().getCode());
    }
  }
}
