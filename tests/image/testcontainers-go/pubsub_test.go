// Testcontainers' own Pub/Sub module (testcontainers-go modules/gcloud/pubsub) starts our image
// in place of the gcloud one: its `/bin/sh -c "gcloud beta emulators pubsub start …"` command
// line, its wait for a `started` log line and a listening port, then the official Go client.
// Run by .ci/image against podman's Docker-compatible socket (DOCKER_HOST), with IMAGE set.
package imagetest

import (
	"context"
	"os"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/testcontainers/testcontainers-go"
	tcpubsub "github.com/testcontainers/testcontainers-go/modules/gcloud/pubsub"
)

func TestPubSubModuleRunsTheImage(t *testing.T) {
	image := os.Getenv("IMAGE")
	if image == "" {
		t.Fatal("IMAGE is not set: .ci/image sets it to the image it built")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// The lines docs/testcontainers.md shows (tests/docs/testcontainers.test.ts checks it does).
	// docs:go {
	ctr, err := tcpubsub.Run(ctx, image, tcpubsub.WithProjectID("tc-project"))
	testcontainers.CleanupContainer(t, ctr)
	if err != nil {
		t.Fatalf("tcpubsub.Run: %v", err)
	}
	client, err := pubsub.NewClient(ctx, ctr.ProjectID(),
		option.WithEndpoint(ctr.URI()),
		option.WithoutAuthentication(),
		option.WithGRPCDialOption(grpc.WithTransportCredentials(insecure.NewCredentials())),
	)
	// docs:go }
	if err != nil {
		t.Fatalf("pubsub.NewClient: %v", err)
	}
	defer client.Close()

	topic := "projects/tc-project/topics/greetings"
	sub := "projects/tc-project/subscriptions/greetings-sub"
	if _, err := client.TopicAdminClient.CreateTopic(ctx, &pb.Topic{Name: topic}); err != nil {
		t.Fatalf("CreateTopic: %v", err)
	}
	if _, err := client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{Name: sub, Topic: topic}); err != nil {
		t.Fatalf("CreateSubscription: %v", err)
	}
	publisher := client.Publisher(topic)
	defer publisher.Stop()
	if _, err := publisher.Publish(ctx, &pubsub.Message{Data: []byte("hello from testcontainers")}).Get(ctx); err != nil {
		t.Fatalf("Publish: %v", err)
	}

	rctx, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	var got string
	err = client.Subscriber(sub).Receive(rctx, func(_ context.Context, m *pubsub.Message) {
		got = string(m.Data)
		m.Ack()
		stop()
	})
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	if got != "hello from testcontainers" {
		t.Fatalf("received %q", got)
	}
}
