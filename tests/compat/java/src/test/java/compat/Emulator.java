package compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.api.core.ApiFuture;
import com.google.api.gax.batching.BatchingSettings;
import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcCallContext;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.DeadlineExceededException;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.StatusCode;
import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.SubscriptionAdminSettings;
import com.google.cloud.pubsub.v1.TopicAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminSettings;
import com.google.protobuf.FieldMask;
import com.google.pubsub.v1.ModifyAckDeadlineRequest;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.Subscription;
import com.google.pubsub.v1.Topic;
import com.google.pubsub.v1.UpdateSubscriptionRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.function.Executable;

/**
 * Connection to the emulator named by PUBSUB_EMULATOR_HOST. The Java client does not read that
 * variable itself; applications build a plaintext channel and pass it as a fixed channel provider
 * with no credentials, which is what this class does.
 */
final class Emulator {
  static final String PROJECT = "compat-test";
  static final String PROJECT_PATH = "projects/" + PROJECT;
  static final Duration WAIT = Duration.ofSeconds(30);

  static final ManagedChannel CHANNEL;
  static final TransportChannelProvider CHANNELS;
  static final CredentialsProvider NO_CREDENTIALS = NoCredentialsProvider.create();
  static final TopicAdminClient TOPICS;
  static final SubscriptionAdminClient SUBS;

  static {
    String host = System.getenv("PUBSUB_EMULATOR_HOST");
    if (host == null || host.isEmpty()) {
      throw new IllegalStateException("PUBSUB_EMULATOR_HOST must point at a running emulator");
    }
    CHANNEL =
        ManagedChannelBuilder.forTarget(host)
            .usePlaintext()
            // gRPC's 4 MiB inbound default is too small for ~9 MB messages.
            .maxInboundMessageSize(20 * 1024 * 1024)
            .build();
    CHANNELS = FixedTransportChannelProvider.create(GrpcTransportChannel.create(CHANNEL));
    try {
      TopicAdminSettings.Builder topics =
          TopicAdminSettings.newBuilder()
              .setTransportChannelProvider(CHANNELS)
              .setCredentialsProvider(NO_CREDENTIALS);
      // One PublishRequest per publish() call, so validation tests control request contents.
      topics
          .publishSettings()
          .setBatchingSettings(BatchingSettings.newBuilder().setIsEnabled(false).build());
      TOPICS = TopicAdminClient.create(topics.build());
      SUBS =
          SubscriptionAdminClient.create(
              SubscriptionAdminSettings.newBuilder()
                  .setTransportChannelProvider(CHANNELS)
                  .setCredentialsProvider(NO_CREDENTIALS)
                  .build());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  TOPICS.close();
                  SUBS.close();
                  CHANNEL.shutdownNow();
                }));
  }

  private Emulator() {}

  static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  static String topicPath(String id) {
    return PROJECT_PATH + "/topics/" + id;
  }

  static String subPath(String id) {
    return PROJECT_PATH + "/subscriptions/" + id;
  }

  /** Tracks created resources so each test class can delete them afterwards. */
  static final class Resources implements AutoCloseable {
    final List<String> topics = new ArrayList<>();
    final List<String> subs = new ArrayList<>();
    final List<Runnable> others = new ArrayList<>();

    String topic(Topic.Builder tmpl) {
      String name = TOPICS.createTopic(tmpl.setName(topicPath(unique("topic"))).build()).getName();
      topics.add(name);
      return name;
    }

    String topic() {
      return topic(Topic.newBuilder());
    }

    String sub(String topic, Subscription.Builder tmpl) {
      String name =
          SUBS.createSubscription(tmpl.setName(subPath(unique("sub"))).setTopic(topic).build())
              .getName();
      subs.add(name);
      return name;
    }

    String sub(String topic) {
      return sub(topic, Subscription.newBuilder());
    }

    /** Runs {@code delete} at close, before the subscriptions and topics are deleted. */
    void deleteLater(Runnable delete) {
      others.add(delete);
    }

    /** Deletes everything tracked; a deletion that fails (already gone) is passed over. */
    @Override
    public void close() {
      others.forEach(Resources::quietly);
      subs.forEach(s -> quietly(() -> SUBS.deleteSubscription(s)));
      topics.forEach(t -> quietly(() -> TOPICS.deleteTopic(t)));
      others.clear();
      subs.clear();
      topics.clear();
    }

    private static void quietly(Runnable delete) {
      try {
        delete.run();
      } catch (RuntimeException ignored) {
      }
    }
  }

  static Publisher.Builder publisher(String topic) {
    return Publisher.newBuilder(topic)
        .setChannelProvider(CHANNELS)
        .setCredentialsProvider(NO_CREDENTIALS);
  }

  static void shutdown(Publisher p) throws InterruptedException {
    p.shutdown();
    p.awaitTermination(30, TimeUnit.SECONDS);
  }

  static List<String> publishAll(Publisher p, List<PubsubMessage> msgs) throws Exception {
    List<ApiFuture<String>> futures = new ArrayList<>();
    for (PubsubMessage m : msgs) {
      futures.add(p.publish(m));
    }
    List<String> ids = new ArrayList<>();
    for (ApiFuture<String> f : futures) {
      ids.add(f.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }
    return ids;
  }

  /** Publishes msgs through a default publisher (shut down afterwards); their message IDs. */
  static List<String> publishTo(String topic, List<PubsubMessage> msgs) throws Exception {
    Publisher p = publisher(topic).build();
    try {
      return publishAll(p, msgs);
    } finally {
      shutdown(p);
    }
  }

  /** A subscription to {@code topic} under a new unique name, to fill in and create. */
  static Subscription.Builder newSubscription(String topic) {
    return Subscription.newBuilder().setName(subPath(unique("sub"))).setTopic(topic);
  }

  /** UpdateSubscription of {@code sub} with an update mask of {@code paths} (none: empty mask). */
  static Subscription updateSubscription(Subscription.Builder sub, String... paths) {
    return SUBS.updateSubscription(
        UpdateSubscriptionRequest.newBuilder()
            .setSubscription(sub)
            .setUpdateMask(FieldMask.newBuilder().addAllPaths(List.of(paths)))
            .build());
  }

  /** Unary Pull until {@code want} messages arrived or {@code within} elapsed. */
  static List<ReceivedMessage> pullUntil(String sub, int want, Duration within) {
    List<ReceivedMessage> got = new ArrayList<>();
    long end = System.nanoTime() + within.toNanos();
    while (got.size() < want) {
      long remainingMs = (end - System.nanoTime()) / 1_000_000;
      if (remainingMs <= 0) {
        break;
      }
      long attemptMs = Math.max(500, Math.min(remainingMs, 5000));
      GrpcCallContext ctx =
          GrpcCallContext.createDefault()
              .withTimeoutDuration(Duration.ofMillis(attemptMs))
              .withRetryableCodes(Set.of());
      try {
        got.addAll(
            SUBS.pullCallable()
                .call(
                    PullRequest.newBuilder().setSubscription(sub).setMaxMessages(100).build(), ctx)
                .getReceivedMessagesList());
      } catch (DeadlineExceededException e) {
        // nothing arrived in this attempt
      }
    }
    return got;
  }

  static List<ReceivedMessage> pullFor(String sub, Duration d) {
    return pullUntil(sub, Integer.MAX_VALUE, d);
  }

  static void modAck(String sub, int seconds, String... ackIds) {
    SUBS.modifyAckDeadlineCallable()
        .call(
            ModifyAckDeadlineRequest.newBuilder()
                .setSubscription(sub)
                .addAllAckIds(List.of(ackIds))
                .setAckDeadlineSeconds(seconds)
                .build(),
            GrpcCallContext.createDefault().withTimeoutDuration(WAIT).withRetryableCodes(Set.of()));
  }

  static void ack(String sub, List<String> ackIds) {
    SUBS.acknowledge(sub, ackIds);
  }

  /** Runs {@code call} and asserts it fails with exactly {@code code}. */
  static void assertCode(StatusCode.Code code, Executable call, String what) {
    try {
      call.execute();
    } catch (ApiException e) {
      assertEquals(code, e.getStatusCode().getCode(), what + ": " + e.getMessage());
      return;
    } catch (Throwable t) {
      if (t.getCause() instanceof ApiException e) {
        assertEquals(code, e.getStatusCode().getCode(), what + ": " + e.getMessage());
        return;
      }
      fail(what + ": expected " + code + " but got " + t, t);
    }
    fail(what + ": expected " + code + " but the call succeeded");
  }
}
