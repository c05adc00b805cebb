package compat;

import static compat.Emulator.PROJECT_PATH;
import static compat.Emulator.SUBS;
import static compat.Emulator.TOPICS;
import static compat.Emulator.WAIT;
import static compat.Emulator.ack;
import static compat.Emulator.assertCode;
import static compat.Emulator.publishTo;
import static compat.Emulator.pullFor;
import static compat.Emulator.pullUntil;
import static compat.Emulator.unique;
import static compat.MessagingTest.msg;
import static compat.MessagingTest.receive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.gax.rpc.StatusCode.Code;
import com.google.cloud.pubsub.v1.AckReplyConsumerWithResponse;
import com.google.cloud.pubsub.v1.AckResponse;
import com.google.cloud.pubsub.v1.MessageReceiverWithAckResponse;
import com.google.cloud.pubsub.v1.Subscriber;
import com.google.protobuf.FieldMask;
import com.google.protobuf.Timestamp;
import com.google.pubsub.v1.ReceivedMessage;
import com.google.pubsub.v1.SeekRequest;
import com.google.pubsub.v1.Snapshot;
import com.google.pubsub.v1.Subscription;
import com.google.pubsub.v1.UpdateSnapshotRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * Snapshots, seek and exactly-once delivery: admin and Seek through the generated clients,
 * exactly-once acks through the Subscriber's MessageReceiverWithAckResponse.
 */
class ReplayTest extends CompatBase {
  private Snapshot snapshot(String sub) {
    Snapshot s = SUBS.createSnapshot(PROJECT_PATH + "/snapshots/" + unique("snap"), sub);
    res.deleteLater(() -> SUBS.deleteSnapshot(s.getName()));
    return s;
  }

  private static Timestamp at(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }

  private static void seekTime(String sub, Instant t) {
    SUBS.seek(SeekRequest.newBuilder().setSubscription(sub).setTime(at(t)).build());
  }

  /** Pulls n messages, acks them, and returns their data sorted. */
  private static List<String> pullAndAck(String sub, int n) {
    List<ReceivedMessage> got = pullUntil(sub, n, java.time.Duration.ofSeconds(10));
    if (!got.isEmpty()) {
      ack(sub, got.stream().map(ReceivedMessage::getAckId).collect(Collectors.toList()));
    }
    return got.stream().map(r -> r.getMessage().getData().toStringUtf8()).sorted().collect(Collectors.toList());
  }

  @Test
  void snapshotCreateGetListUpdateDelete() {
    String topic = res.topic();
    String sub = res.sub(topic);
    Snapshot s = snapshot(sub);
    assertEquals(topic, s.getTopic());
    long life = s.getExpireTime().getSeconds() - Instant.now().getEpochSecond();
    assertTrue(life > 6 * 86400 && life <= 7 * 86400, "lifetime " + life);
    assertEquals(s.getName(), SUBS.getSnapshot(s.getName()).getName());
    List<String> listed =
        StreamSupport.stream(SUBS.listSnapshots(PROJECT_PATH).iterateAll().spliterator(), false)
            .map(Snapshot::getName)
            .collect(Collectors.toList());
    assertTrue(listed.contains(s.getName()));
    List<String> byTopic = new ArrayList<>();
    TOPICS.listTopicSnapshots(topic).iterateAll().forEach(byTopic::add);
    assertEquals(List.of(s.getName()), byTopic);
    Snapshot up =
        SUBS.updateSnapshot(
            UpdateSnapshotRequest.newBuilder()
                .setSnapshot(Snapshot.newBuilder().setName(s.getName()).putLabels("k", "v"))
                .setUpdateMask(FieldMask.newBuilder().addPaths("labels"))
                .build());
    assertEquals(Map.of("k", "v"), up.getLabelsMap());
    assertCode(Code.ALREADY_EXISTS, () -> SUBS.createSnapshot(s.getName(), sub), "CreateSnapshot of an existing name");
    SUBS.deleteSnapshot(s.getName());
    assertCode(Code.NOT_FOUND, () -> SUBS.getSnapshot(s.getName()), "GetSnapshot after delete");
  }

  @Test
  void seekToSnapshotReplays() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic);
    Snapshot s = snapshot(sub);
    publishTo(topic, List.of(msg("after", Map.of())));
    assertEquals(List.of("after"), pullAndAck(sub, 1));
    SUBS.seek(SeekRequest.newBuilder().setSubscription(sub).setSnapshot(s.getName()).build());
    assertEquals(List.of("after"), pullAndAck(sub, 1));
  }

  @Test
  void seekToTimeReplaysRetainedAckedAndFuturePurges() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic, Subscription.newBuilder().setRetainAckedMessages(true));
    Instant start = Instant.now().minusSeconds(1);
    publishTo(topic, List.of(msg("a", Map.of()), msg("b", Map.of())));
    assertEquals(List.of("a", "b"), pullAndAck(sub, 2));
    seekTime(sub, start);
    assertEquals(List.of("a", "b"), pullAndAck(sub, 2));
    seekTime(sub, Instant.parse("3000-01-01T00:00:00Z"));
    assertEquals(0, pullFor(sub, java.time.Duration.ofMillis(1500)).size());
  }

  @Test
  void seekToSnapshotOfOtherTopicIsFailedPrecondition() {
    String one = res.sub(res.topic());
    String two = res.sub(res.topic());
    Snapshot s = snapshot(one);
    assertCode(
        Code.FAILED_PRECONDITION,
        () -> SUBS.seek(SeekRequest.newBuilder().setSubscription(two).setSnapshot(s.getName()).build()),
        "Seek to a snapshot of another topic");
  }

  @Test
  void exactlyOnceAckResponses() throws Exception {
    String topic = res.topic();
    String sub = res.sub(topic, Subscription.newBuilder().setEnableExactlyOnceDelivery(true));
    List<AckReplyConsumerWithResponse> got = Collections.synchronizedList(new ArrayList<>());
    AckResponse[] results = new AckResponse[2];
    boolean[] sought = {false};
    publishTo(topic, List.of(msg("once", Map.of())));
    // The acks run while the Subscriber still runs: a seek ends every lease, so the first ack
    // id goes stale and the message comes again.
    receive(
        Subscriber.newBuilder(sub, (MessageReceiverWithAckResponse) (m, reply) -> got.add(reply))
            .setChannelProvider(Emulator.CHANNELS)
            .setCredentialsProvider(Emulator.NO_CREDENTIALS)
            .setParallelPullCount(1),
        () -> {
          if (got.size() == 1 && !sought[0]) {
            sought[0] = true;
            seekTime(sub, Instant.now().minusSeconds(60));
          }
          if (got.size() >= 2 && results[0] == null) {
            try {
              results[0] = got.get(0).ack().get(WAIT.toSeconds(), TimeUnit.SECONDS);
              results[1] = got.get(1).ack().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          }
          return results[0] != null;
        });
    assertEquals(AckResponse.INVALID, results[0], "stale ack id");
    assertEquals(AckResponse.SUCCESSFUL, results[1], "valid ack id");
  }

  @Test
  void exactlyOnceUnaryAckOfUnknownIdIsInvalidArgument() {
    String sub = res.sub(res.topic(), Subscription.newBuilder().setEnableExactlyOnceDelivery(true));
    assertCode(Code.INVALID_ARGUMENT, () -> ack(sub, List.of("no-such-ack-id")), "Acknowledge of an unknown ack id");
  }
}
