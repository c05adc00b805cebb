package compat

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// bucketDir makes a bucket: a folder of the emulator's --storage-dir (COMPAT_STORAGE_DIR, set by .ci/compat).
func bucketDir(t *testing.T) (string, string) {
	t.Helper()
	root := os.Getenv("COMPAT_STORAGE_DIR")
	if root == "" {
		t.Fatal("COMPAT_STORAGE_DIR must name the emulator's --storage-dir")
	}
	name := unique("compat-go")
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return name, dir
}

func TestCloudStorageSubscriptionWritesObjects(t *testing.T) {
	bucket, dir := bucketDir(t)
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{CloudStorageConfig: &pb.CloudStorageConfig{
		Bucket: bucket, FilenamePrefix: "go/", MaxMessages: 1000, MaxDuration: durationpb.New(2 * time.Minute),
	}})
	got, err := client.SubscriptionAdminClient.GetSubscription(ctxFor(t, wait), &pb.GetSubscriptionRequest{Subscription: sub})
	if err != nil {
		t.Fatal(err)
	}
	if c := got.GetCloudStorageConfig(); c.GetState() != pb.CloudStorageConfig_ACTIVE || c.GetMaxDuration().AsDuration() != 2*time.Minute {
		t.Fatalf("config: %v", c)
	}
	p := client.Publisher(topic)
	defer p.Stop()
	msgs := make([]*pubsub.Message, 1000)
	want := make([]string, 1000)
	for i := range msgs {
		want[i] = "g" + strings.Repeat("x", i%7)
		msgs[i] = &pubsub.Message{Data: []byte(want[i])}
	}
	publishAll(t, p, msgs)
	var files []string
	for end := time.Now().Add(wait); len(files) == 0 && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		files, _ = filepath.Glob(filepath.Join(dir, "go", "*"))
	}
	if len(files) != 1 {
		t.Fatalf("objects: %v", files)
	}
	body, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(body), "\n")
	slices.Sort(lines)
	slices.Sort(want)
	if !slices.Equal(lines, want) {
		t.Fatalf("object holds %d lines, want 1000", len(lines))
	}
}

func TestCloudStorageMaxMessagesBelow1000IsInvalid(t *testing.T) {
	topic := newTopic(t, nil)
	_, err := client.SubscriptionAdminClient.CreateSubscription(ctxFor(t, wait), &pb.Subscription{
		Name: subPath(unique("sub")), Topic: topic, CloudStorageConfig: &pb.CloudStorageConfig{Bucket: "some-bucket", MaxMessages: 10},
	})
	wantCode(t, err, codes.InvalidArgument, "max_messages 10")
}

func TestCloudStorageImportTopic(t *testing.T) {
	bucket, dir := bucketDir(t)
	tmp := filepath.Join(dir, ".part")
	if err := os.WriteFile(tmp, []byte("x;y"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "in.txt")); err != nil {
		t.Fatal(err)
	}
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	_, err := client.TopicAdminClient.UpdateTopic(ctxFor(t, wait), &pb.UpdateTopicRequest{
		Topic: &pb.Topic{Name: topic, IngestionDataSourceSettings: &pb.IngestionDataSourceSettings{
			Source: &pb.IngestionDataSourceSettings_CloudStorage_{CloudStorage: &pb.IngestionDataSourceSettings_CloudStorage{
				Bucket:      bucket,
				InputFormat: &pb.IngestionDataSourceSettings_CloudStorage_TextFormat_{TextFormat: &pb.IngestionDataSourceSettings_CloudStorage_TextFormat{Delimiter: ptr(";")}},
				MatchGlob:   "*.txt",
			}},
		}},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"ingestion_data_source_settings"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := pullUntil(t, sub, 2, wait)
	var data []string
	for _, r := range got {
		data = append(data, string(r.GetMessage().GetData()))
	}
	slices.Sort(data)
	if !slices.Equal(data, []string{"x", "y"}) {
		t.Fatalf("messages: %v", data)
	}
}

func ptr[T any](v T) *T { return &v }
