package compat;

import static compat.Emulator.WAIT;
import static compat.Emulator.ack;
import static compat.Emulator.modAck;
import static compat.Emulator.publishAll;
import static compat.Emulator.publishTo;
import static compat.Emulator.publisher;
import static compat.Emulator.pullFor;
import static compat.Emulator.pullUntil;
import static compat.Emulator.shutdown;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.gax.batching.BatchingSettings;
import com.google.api.gax.batching.FlowControlSettings;
import com.google.cloud.pubsub.v1.MessageReceiver;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.cloud.pubsub.v1.Subscriber;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.Subscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MessagingTest extends CompatBase {

  static PubsubMessage msg(String data, Map<String, String> attrs) {
    return PubsubMessage.newBuilder()
        .setData(ByteString.copyFromUtf8(data))
        .putAllAttributes(attrs)
        .build();
  }

  /** Streaming pull through the high-level Subscriber until done() or the deadline. */
  static void receive(Subscriber.Builder b, BooleanSupplier done) throws Exception {
    Subscriber s = b.build();
    s.startAsync().awaitRunning(30, TimeUnit.SECONDS);
    long end = System.nanoTime() + WAIT.toNanos();
    try {
      while (!done.getAsBoolean() && System.nanoTime() < end) {
        if (!s.isRunning()) {
          throw new AssertionError("subscriber failed", s.failureCause());
        }
        Thread.sleep(20);
      }
    } finally {
      s.stopAsync();
      try {
        s.awaitTerminated(20, TimeUnit.SECONDS);
      } catch (Exception ignored) {
        // a failed subscriber is reported above
      }
    }
  }

  static Subscriber.Builder subscriber(String sub, MessageReceiver r) {
    return Subscriber.newBuilder(sub, r)
        .setChannelProvider(Emulator.CHANNELS)
        .setCredentialsProvider(Emulator.NO_CREDENTIALS)
        .setParallelPullCount(1);
  }

  /** One message as the streaming Subscriber handed it over, and when (nanoTime). */
  record Delivery(PubsubMessage message, long nanoTime) {}

  /**
   * Streaming pull from {@code sub} until two deliveries arrived (or WAIT ran out): nacks the
   * first delivery and acks every later one.
   */
  static List<Delivery> nackThenAck(String sub) throws Exception {
    List<Delivery> got = Collections.synchronizedList(new ArrayList<>());
    receive(
        subscriber(
            sub,
            (m, reply) -> {
              got.add(new Delivery(m, System.nanoTime()));
              if (got.size() == 1) {
                reply.nack();
              } else {
                reply.ack();
              }
            }),
        () -> got.size() >= 2);
    synchronized (got) {
      return new ArrayList<>(got);
    }
  }

  /** The message IDs of {@code deliveries}, in order. */
  static List<String> ids(List<Delivery> deliveries) {
    return deliveries.stream().map(d -> d.message().getMessageId()).collect(Collectors.toList());
  }

  @Test
  void batchedPublishWithAttributesAndUnaryPull() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    Publisher p =
        publisher(topic)
            .setBatchingSettings(
                BatchingSettings.newBuilder()
                    .setElementCountThreshold(10L)
                    .setRequestByteThreshold(1_000_000L)
                    .setDelayThresholdDuration(Duration.ofMillis(50))
                    .build())
            .build();
    List<String> ids;
    try {
      List<PubsubMessage> msgs = new ArrayList<>();
      for (int i = 0; i < 25; i++) {
        msgs.add(msg("msg-" + i, Map.of("index", "" + i, "kind", "compat")));
      }
      ids = publishAll(p, msgs);
    } finally {
      shutdown(p);
    }
    assertEquals(25, new HashSet<>(ids).size());

    List<ReceivedMessage> got = pullUntil(sub, 25, WAIT);
    assertEquals(25, got.size());
    for (ReceivedMessage r : got) {
      int i = Integer.parseInt(r.getMessage().getAttributesOrThrow("index"));
      assertEquals("msg-" + i, r.getMessage().getData().toStringUtf8());
      assertEquals(Map.of("index", "" + i, "kind", "compat"), r.getMessage().getAttributesMap());
      assertEquals(ids.get(i), r.getMessage().getMessageId());
      assertTrue(r.getMessage().getPublishTime().getSeconds() > 0);
      assertTrue(!r.getAckId().isEmpty());
    }
    ack(sub, got.stream().map(ReceivedMessage::getAckId).collect(Collectors.toList()));
    assertEquals(List.of(), pullFor(sub, Duration.ofSeconds(2)), "acked messages redelivered");
  }

  @Test
  void attributesOnlyMessage() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    publishTo(topic, List.of(PubsubMessage.newBuilder().putAttributes("only", "attrs").build()));
    List<ReceivedMessage> got = pullUntil(sub, 1, WAIT);
    assertEquals(1, got.size());
    assertTrue(got.get(0).getMessage().getData().isEmpty());
    assertEquals(Map.of("only", "attrs"), got.get(0).getMessage().getAttributesMap());
  }

  @Test
  void streamingPullWithFlowControl() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    List<PubsubMessage> msgs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      msgs.add(msg("fc" + i, Map.of("n", "" + i)));
    }
    List<String> ids = publishTo(topic, msgs);
    Set<String> received = ConcurrentHashMap.newKeySet();
    AtomicInteger outstanding = new AtomicInteger();
    AtomicInteger maxOutstanding = new AtomicInteger();
    List<String> bad = Collections.synchronizedList(new ArrayList<>());
    receive(
        subscriber(
                sub,
                (m, reply) -> {
                  maxOutstanding.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  if (!m.getData().toStringUtf8().equals("fc" + m.getAttributesOrDefault("n", "?"))) {
                    bad.add(m.toString());
                  }
                  outstanding.decrementAndGet();
                  received.add(m.getMessageId());
                  reply.ack();
                })
            .setFlowControlSettings(
                FlowControlSettings.newBuilder().setMaxOutstandingElementCount(2L).build()),
        () -> received.size() >= 12);
    assertEquals(new HashSet<>(ids), received);
    assertEquals(List.of(), bad);
    assertTrue(
        maxOutstanding.get() >= 1 && maxOutstanding.get() <= 2, "max outstanding " + maxOutstanding);
    assertEquals(List.of(), pullFor(sub, Duration.ofSeconds(2)), "acked messages redelivered");
  }

  @Test
  void streamingNackIsRedelivered() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    String id = publishTo(topic, List.of(msg("nack-me", Map.of()))).get(0);
    List<String> deliveries = ids(nackThenAck(sub));
    assertTrue(deliveries.size() >= 2, "deliveries " + deliveries);
    assertEquals(List.of(id, id), deliveries.subList(0, 2));
  }

  @Test
  void orderingKeys() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic, Subscription.newBuilder().setEnableMessageOrdering(true));
    Publisher p =
        publisher(topic)
            .setEnableMessageOrdering(true)
            .setBatchingSettings(
                BatchingSettings.newBuilder()
                    .setElementCountThreshold(5L)
                    .setRequestByteThreshold(1_000_000L)
                    .setDelayThresholdDuration(Duration.ofMillis(20))
                    .build())
            .build();
    List<String> keys = List.of("alpha", "beta", "gamma");
    try {
      List<PubsubMessage> msgs = new ArrayList<>();
      for (int i = 0; i < 15; i++) {
        for (String k : keys) {
          msgs.add(
              PubsubMessage.newBuilder()
                  .setData(ByteString.copyFromUtf8(k + "-" + i))
                  .setOrderingKey(k)
                  .putAttributes("seq", "" + i)
                  .build());
        }
      }
      publishAll(p, msgs);
    } finally {
      shutdown(p);
    }
    Map<String, List<Integer>> seen = new HashMap<>();
    AtomicInteger total = new AtomicInteger();
    receive(
        subscriber(
            sub,
            (m, reply) -> {
              synchronized (seen) {
                seen.computeIfAbsent(m.getOrderingKey(), k -> new ArrayList<>())
                    .add(Integer.parseInt(m.getAttributesOrThrow("seq")));
              }
              // Uneven handling time: concurrent handling of one key would reorder it.
              try {
                Thread.sleep(ThreadLocalRandom.current().nextInt(10));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              total.incrementAndGet();
              reply.ack();
            }),
        () -> total.get() >= 45);
    List<Integer> want = IntStream.range(0, 15).boxed().collect(Collectors.toList());
    synchronized (seen) {
      assertEquals(new HashSet<>(keys), seen.keySet());
      for (String k : keys) {
        List<Integer> got = seen.get(k);
        assertEquals(want, got.subList(0, Math.min(15, got.size())), "order for key " + k);
      }
    }
  }

  @Test
  void unaryNackViaModifyAckDeadlineZero() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    String id = publishTo(topic, List.of(msg("x", Map.of()))).get(0);
    List<ReceivedMessage> first = pullUntil(sub, 1, WAIT);
    assertEquals(1, first.size());
    modAck(sub, 0, first.get(0).getAckId());
    List<ReceivedMessage> again = pullUntil(sub, 1, WAIT);
    assertEquals(1, again.size());
    assertEquals(id, again.get(0).getMessage().getMessageId());
    ack(sub, List.of(again.get(0).getAckId()));
  }

  /**
   * A: left alone, redelivered after the 10 s subscription deadline. B: extended to 60 s, still
   * leased when A comes back. C: shortened to 1 s, back well before A.
   */
  @Test
  void ackDeadlineExpiryAndModifyAckDeadline() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic, Subscription.newBuilder().setAckDeadlineSeconds(10));
    publishTo(topic, List.of(msg("A", Map.of()), msg("B", Map.of()), msg("C", Map.of())));
    List<ReceivedMessage> first = pullUntil(sub, 3, WAIT);
    assertEquals(3, first.size());
    long t0 = System.nanoTime();
    Map<String, ReceivedMessage> byName = new HashMap<>();
    first.forEach(r -> byName.put(r.getMessage().getData().toStringUtf8(), r));
    modAck(sub, 60, byName.get("B").getAckId());
    modAck(sub, 1, byName.get("C").getAckId());

    List<ReceivedMessage> c = pullUntil(sub, 1, Duration.ofSeconds(8));
    assertEquals(1, c.size(), "C back within 8 s of a 1 s modack");
    assertEquals("C", c.get(0).getMessage().getData().toStringUtf8());
    ack(sub, List.of(c.get(0).getAckId()));

    List<ReceivedMessage> a = pullUntil(sub, 1, Duration.ofSeconds(25));
    assertEquals(1, a.size(), "A redelivered after its 10 s deadline");
    assertEquals("A", a.get(0).getMessage().getData().toStringUtf8());
    long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
    assertTrue(elapsedMs >= 7000, "A redelivered after " + elapsedMs + " ms, before its deadline");
    ack(sub, List.of(a.get(0).getAckId()));

    assertEquals(List.of(), pullFor(sub, Duration.ofSeconds(2)), "B (60 s lease) redelivered early");
    ack(sub, List.of(byName.get("B").getAckId()));
  }

  @Test
  void largeMessageRoundTrip() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    byte[] payload = new byte[9 * 1024 * 1024]; // 9 MiB
    for (int i = 0; i < payload.length; i++) {
      payload[i] = (byte) (i * 31 + 7);
    }
    String id =
        publishTo(
                topic,
                List.of(
                    PubsubMessage.newBuilder()
                        .setData(ByteString.copyFrom(payload))
                        .putAttributes("size", "9MiB")
                        .build()))
            .get(0);
    AtomicReference<PubsubMessage> got = new AtomicReference<>();
    receive(
        subscriber(
            sub,
            (m, reply) -> {
              got.compareAndSet(null, m);
              reply.ack();
            }),
        () -> got.get() != null);
    assertNotNull(got.get(), "9 MiB message not received");
    assertEquals(id, got.get().getMessageId());
    assertArrayEquals(payload, got.get().getData().toByteArray());
  }

  /**
   * A handler slower than the 10 s ack deadline: the client extends the lease (ModifyAckDeadline)
   * and the message is not redelivered meanwhile.
   */
  @Test
  void leaseExtensionBeyondAckDeadline() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic, Subscription.newBuilder().setAckDeadlineSeconds(10));
    String id = publishTo(topic, List.of(msg("slow", Map.of()))).get(0);
    List<String> deliveries = Collections.synchronizedList(new ArrayList<>());
    AtomicReference<Long> ackedAt = new AtomicReference<>();
    receive(
        subscriber(
            sub,
            (m, reply) -> {
              deliveries.add(m.getMessageId());
              if (deliveries.size() == 1) {
                try {
                  Thread.sleep(14_000);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                reply.ack();
                ackedAt.set(System.nanoTime());
              } else {
                reply.ack();
              }
            }),
        () -> ackedAt.get() != null && System.nanoTime() - ackedAt.get() > 2_000_000_000L);
    assertNotNull(ackedAt.get(), "slow handler never acked");
    assertEquals(List.of(id), deliveries, "redelivered while the handler held the lease");
  }
}
