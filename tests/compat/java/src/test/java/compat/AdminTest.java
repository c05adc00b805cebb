package compat;

import static compat.Emulator.PROJECT_PATH;
import static compat.Emulator.SUBS;
import static compat.Emulator.TOPICS;
import static compat.Emulator.assertCode;
import static compat.Emulator.newSubscription;
import static compat.Emulator.subPath;
import static compat.Emulator.topicPath;
import static compat.Emulator.unique;
import static compat.Emulator.updateSubscription;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.gax.rpc.StatusCode.Code;
import com.google.cloud.pubsub.v1.TopicAdminClient.ListTopicSubscriptionsPage;
import com.google.cloud.pubsub.v1.TopicAdminClient.ListTopicsPage;
import com.google.protobuf.FieldMask;
import com.google.pubsub.v1.ListTopicSubscriptionsRequest;
import com.google.pubsub.v1.ListTopicsRequest;
import com.google.pubsub.v1.Subscription;
import com.google.pubsub.v1.Topic;
import com.google.pubsub.v1.UpdateTopicRequest;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AdminTest extends CompatBase {

  @Test
  void topicCreateGetListDelete() {
    String name = res.topic(Topic.newBuilder().putLabels("team", "compat"));
    Topic got = TOPICS.getTopic(name);
    assertEquals(name, got.getName());
    assertEquals(Map.of("team", "compat"), got.getLabelsMap());
    assertTrue(
        StreamSupport.stream(TOPICS.listTopics(PROJECT_PATH).iterateAll().spliterator(), false)
            .anyMatch(t -> t.getName().equals(name)));
    TOPICS.deleteTopic(name);
    assertCode(Code.NOT_FOUND, () -> TOPICS.getTopic(name), "GetTopic after delete");
  }

  @Test
  void createExistingIsAlreadyExists() {
    String topic = res.topic();
    assertCode(Code.ALREADY_EXISTS, () -> TOPICS.createTopic(topic), "CreateTopic twice");
    String sub = res.sub(topic);
    assertCode(
        Code.ALREADY_EXISTS,
        () -> SUBS.createSubscription(Subscription.newBuilder().setName(sub).setTopic(topic).build()),
        "CreateSubscription twice");
  }

  @Test
  void getMissingIsNotFound() {
    assertCode(Code.NOT_FOUND, () -> TOPICS.getTopic(topicPath(unique("missing"))), "GetTopic");
    assertCode(
        Code.NOT_FOUND, () -> SUBS.getSubscription(subPath(unique("missing"))), "GetSubscription");
    assertCode(Code.NOT_FOUND, () -> TOPICS.deleteTopic(topicPath(unique("missing"))), "DeleteTopic");
    assertCode(
        Code.NOT_FOUND,
        () ->
            SUBS.createSubscription(
                Subscription.newBuilder()
                    .setName(subPath(unique("orphan")))
                    .setTopic(topicPath(unique("missing")))
                    .build()),
        "CreateSubscription on a missing topic");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ab", "9starts-with-digit", "goog-reserved", "has space", "bad*char"})
  void badTopicNameIsInvalidArgument(String id) {
    assertCode(Code.INVALID_ARGUMENT, () -> TOPICS.createTopic(topicPath(id)), "CreateTopic " + id);
  }

  @Test
  void tooLongNamesAreInvalidArgument() {
    String topic = res.topic();
    assertCode(
        Code.INVALID_ARGUMENT, () -> TOPICS.createTopic(topicPath("x".repeat(256))), "256-char topic");
    assertCode(
        Code.INVALID_ARGUMENT,
        () ->
            SUBS.createSubscription(
                Subscription.newBuilder().setName(subPath("goog-sub")).setTopic(topic).build()),
        "CreateSubscription goog-sub");
  }

  @Test
  void updateTopicLabels() {
    String name = res.topic(Topic.newBuilder().putLabels("a", "1"));
    Map<String, String> want = Map.of("a", "2", "b", "3");
    Topic got =
        TOPICS.updateTopic(
            UpdateTopicRequest.newBuilder()
                .setTopic(Topic.newBuilder().setName(name).putAllLabels(want))
                .setUpdateMask(FieldMask.newBuilder().addPaths("labels"))
                .build());
    assertEquals(want, got.getLabelsMap());
    assertEquals(want, TOPICS.getTopic(name).getLabelsMap());
  }

  @Test
  void updateWithEmptyMaskIsInvalidArgument() {
    String topic = res.topic();
    assertCode(
        Code.INVALID_ARGUMENT,
        () ->
            TOPICS.updateTopic(
                UpdateTopicRequest.newBuilder()
                    .setTopic(Topic.newBuilder().setName(topic).putLabels("a", "1"))
                    .setUpdateMask(FieldMask.getDefaultInstance())
                    .build()),
        "UpdateTopic empty mask");
    String sub = res.sub(topic);
    assertCode(
        Code.INVALID_ARGUMENT,
        () ->
            updateSubscription(
                Subscription.newBuilder().setName(sub).setAckDeadlineSeconds(30)),
        "UpdateSubscription empty mask");
  }

  @Test
  void subscriptionCreateGetUpdate() {
    String topic = res.topic();
    String name =
        res.sub(topic, Subscription.newBuilder().setAckDeadlineSeconds(20).putLabels("x", "1"));
    Subscription got = SUBS.getSubscription(name);
    assertEquals(topic, got.getTopic());
    assertEquals(20, got.getAckDeadlineSeconds());
    assertEquals(Map.of("x", "1"), got.getLabelsMap());

    got =
        updateSubscription(
            Subscription.newBuilder().setName(name).setAckDeadlineSeconds(45).putLabels("y", "2"),
            "ack_deadline_seconds",
            "labels");
    assertEquals(45, got.getAckDeadlineSeconds());
    assertEquals(Map.of("y", "2"), got.getLabelsMap());

    // Only the masked field changes.
    got =
        updateSubscription(
            Subscription.newBuilder()
                .setName(name)
                .setAckDeadlineSeconds(30)
                .putLabels("ignored", "1"),
            "ack_deadline_seconds");
    assertEquals(30, got.getAckDeadlineSeconds());
    assertEquals(Map.of("y", "2"), got.getLabelsMap());
    got = SUBS.getSubscription(name);
    assertEquals(30, got.getAckDeadlineSeconds());
    assertEquals(Map.of("y", "2"), got.getLabelsMap());
  }

  @Test
  void ackDeadline601IsInvalidArgument() {
    String topic = res.topic();
    assertCode(
        Code.INVALID_ARGUMENT,
        () ->
            SUBS.createSubscription(newSubscription(topic).setAckDeadlineSeconds(601).build()),
        "CreateSubscription ack_deadline_seconds=601");
    String sub = res.sub(topic);
    assertEquals(10, SUBS.getSubscription(sub).getAckDeadlineSeconds(), "default ack deadline");
    assertCode(
        Code.INVALID_ARGUMENT,
        () ->
            updateSubscription(
                Subscription.newBuilder().setName(sub).setAckDeadlineSeconds(601),
                "ack_deadline_seconds"),
        "UpdateSubscription ack_deadline_seconds=601");
  }

  @Test
  void listTopicsPagination() {
    Set<String> mine = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      mine.add(res.topic());
    }
    ListTopicsPage page =
        TOPICS
            .listTopics(ListTopicsRequest.newBuilder().setProject(PROJECT_PATH).setPageSize(2).build())
            .getPage();
    Map<String, Integer> seen = new HashMap<>();
    int pages = 0;
    while (true) {
      pages++;
      assertTrue(page.getPageElementCount() <= 2, "page of " + page.getPageElementCount());
      for (Topic t : page.getValues()) {
        seen.merge(t.getName(), 1, Integer::sum);
      }
      if (!page.hasNextPage() || pages > 10000) {
        break;
      }
      page = page.getNextPage();
    }
    assertTrue(pages >= 3, "pages=" + pages);
    for (String t : mine) {
      assertEquals(1, seen.getOrDefault(t, 0), t + " seen on pages");
    }
  }

  @Test
  void listTopicSubscriptionsPagination() {
    String topic = res.topic();
    Set<String> mine = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      mine.add(res.sub(topic));
    }
    ListTopicSubscriptionsPage page =
        TOPICS
            .listTopicSubscriptions(
                ListTopicSubscriptionsRequest.newBuilder().setTopic(topic).setPageSize(2).build())
            .getPage();
    Set<String> seen = new HashSet<>();
    int pages = 0;
    while (true) {
      pages++;
      assertTrue(page.getPageElementCount() <= 2);
      page.getValues().forEach(seen::add);
      if (!page.hasNextPage() || pages > 10) {
        break;
      }
      page = page.getNextPage();
    }
    assertTrue(pages >= 2, "pages=" + pages);
    assertEquals(mine, seen);
  }

  @Test
  void deletingTopicDetachesSubscriptions() {
    String topic = res.topic();
    String sub = res.sub(topic);
    TOPICS.deleteTopic(topic);
    assertEquals("_deleted-topic_", SUBS.getSubscription(sub).getTopic());
  }
}
