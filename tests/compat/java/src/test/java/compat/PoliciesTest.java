package compat;

import static compat.Emulator.SUBS;
import static compat.Emulator.WAIT;
import static compat.Emulator.assertCode;
import static compat.Emulator.newSubscription;
import static compat.Emulator.publishTo;
import static compat.Emulator.pullFor;
import static compat.Emulator.pullUntil;
import static compat.Emulator.topicPath;
import static compat.Emulator.unique;
import static compat.Emulator.updateSubscription;
import static compat.MessagingTest.ids;
import static compat.MessagingTest.msg;
import static compat.MessagingTest.nackThenAck;
import static compat.MessagingTest.receive;
import static compat.MessagingTest.subscriber;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.gax.rpc.StatusCode.Code;
import com.google.cloud.pubsub.v1.Subscriber;
import com.google.pubsub.v1.DeadLetterPolicy;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.RetryPolicy;
import com.google.pubsub.v1.Subscription;
import compat.MessagingTest.Delivery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dead-letter policy and delivery attempts, filters, retry policy. Delivery goes through the
 * high-level streaming Subscriber, as applications receive it; status codes through the raw
 * generated admin client.
 */
class PoliciesTest extends CompatBase {

  /** A done() that turns true {@code after} once {@code mark} holds a start time (nanoTime). */
  static BooleanSupplier graceAfter(AtomicLong mark, Duration after) {
    return () -> mark.get() != 0 && System.nanoTime() - mark.get() > after.toNanos();
  }

  static com.google.protobuf.Duration seconds(long s) {
    return com.google.protobuf.Duration.newBuilder().setSeconds(s).build();
  }

  // ---- dead-letter policy and delivery attempts ----

  @Test
  void deadLetterAfterMaxDeliveryAttempts() throws Exception {
    String topic = res.topic();
    String deadTopic = res.topic();
    String deadSub = res.sub(deadTopic);
    String sub =
        res.sub(
            topic,
            Subscription.newBuilder()
                .setDeadLetterPolicy(
                    DeadLetterPolicy.newBuilder()
                        .setDeadLetterTopic(deadTopic)
                        .setMaxDeliveryAttempts(5)));
    DeadLetterPolicy got = SUBS.getSubscription(sub).getDeadLetterPolicy();
    assertEquals(deadTopic, got.getDeadLetterTopic());
    assertEquals(5, got.getMaxDeliveryAttempts());
    String id = publishTo(topic, List.of(msg("poison", Map.of("kind", "dlq")))).get(0);

    List<PubsubMessage> dead = Collections.synchronizedList(new ArrayList<>());
    AtomicLong deadAt = new AtomicLong();
    Subscriber deadSubscriber =
        subscriber(
                deadSub,
                (m, reply) -> {
                  dead.add(m);
                  reply.ack();
                  deadAt.compareAndSet(0, System.nanoTime());
                })
            .build();
    deadSubscriber.startAsync().awaitRunning(30, TimeUnit.SECONDS);
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    List<Integer> attempts = Collections.synchronizedList(new ArrayList<>());
    try {
      // Keep nacking until the message shows up on the dead-letter topic, then 1 s more.
      receive(
          subscriber(
              sub,
              (m, reply) -> {
                ids.add(m.getMessageId());
                attempts.add(Subscriber.getDeliveryAttempt(m));
                reply.nack();
              }),
          graceAfter(deadAt, Duration.ofSeconds(1)));
    } finally {
      deadSubscriber.stopAsync().awaitTerminated(20, TimeUnit.SECONDS);
    }
    assertEquals(List.of(1, 2, 3, 4, 5), attempts, "delivery attempts");
    assertEquals(Collections.nCopies(5, id), ids);
    assertEquals(1, dead.size(), "dead-lettered " + dead);
    assertEquals("poison", dead.get(0).getData().toStringUtf8());
    assertEquals("dlq", dead.get(0).getAttributesOrDefault("kind", null));
  }

  @Test
  void deliveryAttemptIsNullWithoutDeadLetterPolicy() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    publishTo(topic, List.of(msg("plain", Map.of())));
    List<Integer> attempts =
        nackThenAck(sub).stream()
            .map(d -> Subscriber.getDeliveryAttempt(d.message()))
            .collect(Collectors.toList());
    assertTrue(attempts.size() >= 2, "deliveries " + attempts);
    assertEquals(Arrays.asList(null, null), attempts.subList(0, 2));
  }

  @Test
  void deadLetterPolicyValidation() {
    String topic = res.topic();
    String deadTopic = res.topic();
    assertAll(
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () -> SUBS.createSubscription(withDeadLetter(topic, deadTopic, 4)),
                "max_delivery_attempts 4"),
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () -> SUBS.createSubscription(withDeadLetter(topic, deadTopic, 101)),
                "max_delivery_attempts 101"),
        () ->
            assertCode(
                Code.NOT_FOUND,
                () ->
                    SUBS.createSubscription(
                        withDeadLetter(topic, topicPath(unique("missing")), 5)),
                "missing dead-letter topic"));
  }

  static Subscription withDeadLetter(String topic, String deadTopic, int maxAttempts) {
    return newSubscription(topic)
        .setDeadLetterPolicy(
            DeadLetterPolicy.newBuilder()
                .setDeadLetterTopic(deadTopic)
                .setMaxDeliveryAttempts(maxAttempts))
        .build();
  }

  // ---- filters ----

  @Test
  void filterDeliversOnlyMatchingMessages() throws Exception {
    String topic = res.topic();
    String filter = "attributes.color = \"red\"";
    String sub = res.sub(topic, Subscription.newBuilder().setFilter(filter));
    assertEquals(filter, SUBS.getSubscription(sub).getFilter());
    List<String> ids =
        publishTo(
            topic,
            List.of(
                msg("red-1", Map.of("color", "red")),
                msg("blue-1", Map.of("color", "blue")),
                msg("none-1", Map.of()),
                msg("red-2", Map.of("color", "red", "size", "L")),
                msg("red-upper", Map.of("color", "RED")),
                msg("other-key", Map.of("colour", "red"))));
    Map<String, String> received = Collections.synchronizedMap(new HashMap<>());
    AtomicLong bothAt = new AtomicLong();
    // Both red messages, then 2 s more in which nothing else may arrive.
    receive(
        subscriber(
            sub,
            (m, reply) -> {
              received.put(m.getMessageId(), m.getData().toStringUtf8());
              reply.ack();
              if (received.size() >= 2) {
                bothAt.compareAndSet(0, System.nanoTime());
              }
            }),
        graceAfter(bothAt, Duration.ofSeconds(2)));
    assertEquals(Map.of(ids.get(0), "red-1", ids.get(3), "red-2"), Map.copyOf(received));
  }

  /** Filters with their messages and the data of those they deliver, sorted. */
  static Stream<Arguments> filterFunctions() {
    return Stream.of(
        Arguments.of(
            "hasPrefix(attributes.path, \"/api/\")",
            List.of("api"),
            List.of(
                msg("api", Map.of("path", "/api/v1/users")),
                msg("apis", Map.of("path", "/apis")),
                msg("web", Map.of("path", "/web/api/")),
                msg("none", Map.of()))),
        Arguments.of(
            "NOT attributes:x",
            List.of("has-y", "no-attrs"),
            List.of(
                msg("has-x", Map.of("x", "1")),
                msg("empty-x", Map.of("x", "")),
                msg("has-y", Map.of("y", "1")),
                msg("no-attrs", Map.of()))));
  }

  /** Publishes msgs to a new subscription with filter; everything it delivers is want. */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void filterFunctions(String filter, List<String> want, List<PubsubMessage> msgs)
      throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic, Subscription.newBuilder().setFilter(filter));
    publishTo(topic, msgs);
    List<ReceivedMessage> got = new ArrayList<>(pullUntil(sub, want.size(), WAIT));
    got.addAll(pullFor(sub, Duration.ofSeconds(1)));
    assertEquals(
        want,
        got.stream()
            .map(r -> r.getMessage().getData().toStringUtf8())
            .sorted()
            .collect(Collectors.toList()));
  }

  @Test
  void filterValidation() {
    String topic = res.topic();
    String filter = "attributes.color = \"red\"";
    String sub = res.sub(topic, Subscription.newBuilder().setFilter(filter));
    assertAll(
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () ->
                    SUBS.createSubscription(
                        newSubscription(topic).setFilter("attributes.color = = (").build()),
                "unparsable filter"),
        () ->
            assertCode(
                Code.INVALID_ARGUMENT,
                () ->
                    updateSubscription(
                        Subscription.newBuilder().setName(sub).setFilter("attributes:x"), "filter"),
                "UpdateSubscription filter (immutable)"),
        () -> assertEquals(filter, SUBS.getSubscription(sub).getFilter(), "filter after update"));
  }

  // ---- retry policy ----

  @Test
  void retryPolicyDelaysRedeliveryAfterNack() throws Exception {
    String topic = res.topic();
    String sub =
        res.sub(
            topic,
            Subscription.newBuilder()
                .setRetryPolicy(
                    RetryPolicy.newBuilder()
                        .setMinimumBackoff(seconds(2))
                        .setMaximumBackoff(seconds(2))));
    RetryPolicy got = SUBS.getSubscription(sub).getRetryPolicy();
    assertEquals(seconds(2), got.getMinimumBackoff());
    assertEquals(seconds(2), got.getMaximumBackoff());
    String id = publishTo(topic, List.of(msg("backoff", Map.of()))).get(0);
    List<Delivery> deliveries = nackThenAck(sub);
    List<String> ids = ids(deliveries);
    assertTrue(ids.size() >= 2, "deliveries " + ids);
    assertEquals(List.of(id, id), ids.subList(0, 2));
    long gapMs = (deliveries.get(1).nanoTime() - deliveries.get(0).nanoTime()) / 1_000_000;
    assertTrue(
        gapMs >= 1800, "redelivered " + gapMs + " ms after the nack; minimum_backoff is 2 s");
  }
}
