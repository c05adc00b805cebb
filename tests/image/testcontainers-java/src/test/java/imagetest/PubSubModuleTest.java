package imagetest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.GrpcTransportChannel;
import com.google.api.gax.rpc.FixedTransportChannelProvider;
import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.SubscriptionAdminSettings;
import com.google.cloud.pubsub.v1.TopicAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminSettings;
import com.google.cloud.pubsub.v1.stub.GrpcSubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStubSettings;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.AcknowledgeRequest;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.PullResponse;
import com.google.pubsub.v1.PushConfig;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.gcloud.PubSubEmulatorContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Testcontainers' PubSubEmulatorContainer runs our image as it runs the gcloud one: its
 * `/bin/sh -c "gcloud beta emulators pubsub start --host-port 0.0.0.0:8085"` command line and its
 * wait for a log line matching `started`; then the official Java client creates a topic and a
 * subscription, publishes, pulls and acks through the mapped port.
 */
class PubSubModuleTest {
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void theModuleRunsTheImage() throws Exception {
    String imageName = System.getenv("IMAGE");
    assertNotNull(imageName, "IMAGE is not set: .ci/image sets it to the image it built");
    // The lines docs/testcontainers.md shows (tests/docs/testcontainers.test.ts checks it does).
    // docs:java {
    DockerImageName image = DockerImageName.parse(imageName)
        .asCompatibleSubstituteFor("gcr.io/google.com/cloudsdktool/google-cloud-cli");
    try (PubSubEmulatorContainer emulator = new PubSubEmulatorContainer(image)) {
      emulator.start();
      ManagedChannel channel = ManagedChannelBuilder.forTarget(emulator.getEmulatorEndpoint()).usePlaintext().build();
      // docs:java }
      try {
        // docs:java-clients {
        TransportChannelProvider channels = FixedTransportChannelProvider.create(GrpcTransportChannel.create(channel));
        NoCredentialsProvider noCredentials = NoCredentialsProvider.create();
        // docs:java-clients }
        String topic = "projects/tc-project/topics/greetings";
        String sub = "projects/tc-project/subscriptions/greetings-sub";
        try (TopicAdminClient topics = TopicAdminClient.create(TopicAdminSettings.newBuilder()
                .setTransportChannelProvider(channels).setCredentialsProvider(noCredentials).build());
            SubscriptionAdminClient subs = SubscriptionAdminClient.create(SubscriptionAdminSettings.newBuilder()
                .setTransportChannelProvider(channels).setCredentialsProvider(noCredentials).build())) {
          topics.createTopic(topic);
          subs.createSubscription(sub, topic, PushConfig.getDefaultInstance(), 10);
        }
        // docs:java-publisher {
        Publisher publisher = Publisher.newBuilder(topic)
            .setChannelProvider(channels).setCredentialsProvider(noCredentials).build();
        // docs:java-publisher }
        String id;
        try {
          id = publisher.publish(PubsubMessage.newBuilder()
              .setData(ByteString.copyFromUtf8("hello from testcontainers-java")).build()).get(30, TimeUnit.SECONDS);
        } finally {
          publisher.shutdown();
          publisher.awaitTermination(10, TimeUnit.SECONDS);
        }
        try (GrpcSubscriberStub subscriber = GrpcSubscriberStub.create(SubscriberStubSettings.newBuilder()
            .setTransportChannelProvider(channels).setCredentialsProvider(noCredentials).build())) {
          PullResponse pulled = subscriber.pullCallable().call(PullRequest.newBuilder()
              .setSubscription(sub).setMaxMessages(10).build());
          assertEquals(1, pulled.getReceivedMessagesCount());
          assertEquals(id, pulled.getReceivedMessages(0).getMessage().getMessageId());
          assertEquals("hello from testcontainers-java", pulled.getReceivedMessages(0).getMessage().getData().toStringUtf8());
          subscriber.acknowledgeCallable().call(AcknowledgeRequest.newBuilder()
              .setSubscription(sub).addAllAckIds(List.of(pulled.getReceivedMessages(0).getAckId())).build());
        }
      } finally {
        channel.shutdownNow();
      }
    }
  }
}
