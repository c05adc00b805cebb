package compat;

import static compat.Emulator.SUBS;
import static compat.Emulator.TOPICS;
import static compat.Emulator.WAIT;
import static compat.Emulator.assertCode;
import static compat.Emulator.modAck;
import static compat.Emulator.pullUntil;
import static compat.Emulator.topicPath;
import static compat.Emulator.unique;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.api.gax.rpc.StatusCode.Code;
import com.google.cloud.pubsub.v1.Subscriber;
import com.google.protobuf.FieldMask;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PublishRequest;
import com.google.pubsub.v1.PublishResponse;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.Subscription;
import com.google.pubsub.v1.Topic;
import com.google.pubsub.v1.UpdateSubscriptionRequest;
import com.google.pubsub.v1.UpdateTopicRequest;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Exact status codes through the raw generated TopicAdminClient (one PublishRequest per call). */
class ValidationTest extends CompatBase {

  static PublishResponse publish(String topic, PubsubMessage... msgs) {
    return TOPICS.publish(
        PublishRequest.newBuilder().setTopic(topic).addAllMessages(List.of(msgs)).build());
  }

  static PubsubMessage withAttrs(Map<String, String> attrs) {
    return PubsubMessage.newBuilder()
        .setData(ByteString.copyFromUtf8("x"))
        .putAllAttributes(attrs)
        .build();
  }

  static Map<String, String> attrs(int n) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < n; i++) {
      m.put("k" + i, "v");
    }
    return m;
  }

  @Test
  void limitsAcceptedAtTheEdge() {
    String topic = res.topic();
    PublishResponse resp =
        publish(topic, withAttrs(attrs(100)), withAttrs(Map.of("k".repeat(256), "v".repeat(1024))));
    assertEquals(2, resp.getMessageIdsCount());
  }

  @Test
  void publishValidationIsInvalidArgument() {
    String topic = res.topic();
    // assertAll: every case is checked and reported, not just the first failure.
    assertAll(
        () -> assertCode(Code.INVALID_ARGUMENT, () -> publish(topic, withAttrs(attrs(101))), "101 attributes"),
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () -> publish(topic, withAttrs(Map.of("k".repeat(257), "v"))),
                "attribute key of 257 bytes"),
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () -> publish(topic, withAttrs(Map.of("\u00e9".repeat(129), "v"))),
                "attribute key of 129 chars = 258 bytes"),
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () -> publish(topic, withAttrs(Map.of("k", "v".repeat(1025)))),
                "attribute value of 1025 bytes"),
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () -> publish(topic, PubsubMessage.getDefaultInstance()),
                "empty message"));
  }

  @Test
  void publishToMissingTopicIsNotFound() {
    assertCode(
        Code.NOT_FOUND,
        () -> publish(topicPath(unique("missing")), withAttrs(Map.of())),
        "publish to a missing topic");
  }

  @Test
  void mixedOrderingKeysIsFailedPrecondition() {
    String topic = res.topic();
    PubsubMessage a1 =
        PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("1")).setOrderingKey("a").build();
    PubsubMessage a2 =
        PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("2")).setOrderingKey("a").build();
    PubsubMessage b =
        PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("2")).setOrderingKey("b").build();
    PubsubMessage none = PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("2")).build();
    assertAll(
        () -> assertCode(Code.FAILED_PRECONDITION, () -> publish(topic, a1, b), "keys a+b in one request"),
        () -> assertCode(Code.FAILED_PRECONDITION, () -> publish(topic, a1, none), "key a + no key"),
        () -> assertEquals(2, publish(topic, a1, a2).getMessageIdsCount(), "one key for the request"));
  }

  @Test
  void modifyAckDeadline601IsInvalidArgument() {
    String topic = res.topic();
    String sub = res.sub(topic);
    publish(topic, withAttrs(Map.of()));
    List<ReceivedMessage> got = pullUntil(sub, 1, WAIT);
    assertEquals(1, got.size());
    String ackId = got.get(0).getAckId();
    assertCode(Code.INVALID_ARGUMENT, () -> modAck(sub, 601, ackId), "ModifyAckDeadline 601");
    modAck(sub, 600, ackId);
    SUBS.acknowledge(sub, List.of(ackId));
  }

  @Test
  void publishRequestLimits() {
    String topic = res.topic();
    PubsubMessage x = withAttrs(Map.of());
    assertAll(
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () -> publish(topic, Collections.nCopies(1001, x).toArray(new PubsubMessage[0])),
                "1001 messages in one request"),
        () ->
            assertEquals(
                1000,
                publish(topic, Collections.nCopies(1000, x).toArray(new PubsubMessage[0]))
                    .getMessageIdsCount(),
                "1000 messages in one request"),
        // 10,000,001 bytes of data: over the 10 MB (decimal) request limit, under 10 MiB.
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () ->
                    publish(
                        topic,
                        PubsubMessage.newBuilder()
                            .setData(ByteString.copyFrom(new byte[10_000_001]))
                            .build()),
                "10,000,001-byte message"));
  }

  @Test
  void unknownUpdateMaskPathIsInvalidArgument() {
    String topic = res.topic();
    String sub = res.sub(topic);
    FieldMask bogus = FieldMask.newBuilder().addPaths("not_a_field").build();
    assertAll(
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () ->
                    TOPICS.updateTopic(
                        UpdateTopicRequest.newBuilder()
                            .setTopic(Topic.newBuilder().setName(topic))
                            .setUpdateMask(bogus)
                            .build()),
                "UpdateTopic not_a_field"),
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () ->
                    SUBS.updateSubscription(
                        UpdateSubscriptionRequest.newBuilder()
                            .setSubscription(Subscription.newBuilder().setName(sub))
                            .setUpdateMask(bogus)
                            .build()),
                "UpdateSubscription not_a_field"));
  }

  @Test
  void missingSubscriptionIsNotFound() throws Exception {
    String missing = Emulator.subPath(unique("missing"));
    assertCode(
        Code.NOT_FOUND,
        () -> SUBS.pull(PullRequest.newBuilder().setSubscription(missing).setMaxMessages(1).build()),
        "Pull from a missing subscription");
    // The high-level Subscriber fails with it (its expected SEVERE log is muted here).
    Logger log = Logger.getLogger("com.google.cloud.pubsub.v1.StreamingSubscriberConnection");
    Level level = log.getLevel();
    log.setLevel(Level.OFF);
    Subscriber s =
        MessagingTest.subscriber(missing, (m, reply) -> reply.ack()).build();
    s.startAsync();
    try {
      s.awaitTerminated(30, TimeUnit.SECONDS);
      fail("subscriber on a missing subscription terminated without an error");
    } catch (IllegalStateException e) {
      assertCode(
          Code.NOT_FOUND,
          () -> {
            throw s.failureCause();
          },
          "Subscriber on a missing subscription");
    } finally {
      s.stopAsync();
      log.setLevel(level);
    }
  }
}
