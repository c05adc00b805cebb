package compat

// Snapshots, seek and exactly-once delivery through cloud.google.com/go/pubsub/v2: admin and
// Seek through the generated clients, exactly-once acks through Message.AckWithResult.

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/api/iterator"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

func snapPath(id string) string { return projectPath + "/snapshots/" + id }

func newSnapshot(t *testing.T, sub string) *pb.Snapshot {
	t.Helper()
	snap, err := client.SubscriptionAdminClient.CreateSnapshot(ctxFor(t, wait), &pb.CreateSnapshotRequest{Name: snapPath(unique("snap")), Subscription: sub})
	if err != nil {
		t.Fatalf("CreateSnapshot: %v", err)
	}
	deleteAtEnd(t, func(ctx context.Context) error {
		return client.SubscriptionAdminClient.DeleteSnapshot(ctx, &pb.DeleteSnapshotRequest{Snapshot: snap.Name})
	})
	return snap
}

func seekTime(t *testing.T, sub string, at time.Time) {
	t.Helper()
	if _, err := client.SubscriptionAdminClient.Seek(ctxFor(t, wait), &pb.SeekRequest{Subscription: sub, Target: &pb.SeekRequest_Time{Time: timestamppb.New(at)}}); err != nil {
		t.Fatalf("Seek(time): %v", err)
	}
}

func pulledData(t *testing.T, sub string, n int) []string {
	t.Helper()
	got := pullUntil(t, sub, n, 10*time.Second)
	var data []string
	var ids []string
	for _, r := range got {
		data = append(data, string(r.Message.Data))
		ids = append(ids, r.AckId)
	}
	if len(ids) > 0 {
		ack(t, sub, ids...)
	}
	slices.Sort(data)
	return data
}

func TestSnapshotCreateGetListUpdateDelete(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	ctx := ctxFor(t, wait)
	snap := newSnapshot(t, sub)
	if snap.Topic != topic {
		t.Errorf("snapshot topic = %q, want %q", snap.Topic, topic)
	}
	if life := time.Until(snap.ExpireTime.AsTime()); life < 6*24*time.Hour || life > 7*24*time.Hour {
		t.Errorf("snapshot lifetime = %v, want about 7 days", life)
	}
	if got, err := client.SubscriptionAdminClient.GetSnapshot(ctx, &pb.GetSnapshotRequest{Snapshot: snap.Name}); err != nil || got.Name != snap.Name {
		t.Fatalf("GetSnapshot = %v, %v", got, err)
	}
	found := false
	it := client.SubscriptionAdminClient.ListSnapshots(ctx, &pb.ListSnapshotsRequest{Project: projectPath, PageSize: 1})
	for {
		s, err := it.Next()
		if err == iterator.Done {
			break
		}
		if err != nil {
			t.Fatalf("ListSnapshots: %v", err)
		}
		found = found || s.Name == snap.Name
	}
	if !found {
		t.Errorf("ListSnapshots did not list %s", snap.Name)
	}
	names := client.TopicAdminClient.ListTopicSnapshots(ctx, &pb.ListTopicSnapshotsRequest{Topic: topic})
	if n, err := names.Next(); err != nil || n != snap.Name {
		t.Errorf("ListTopicSnapshots first = %q, %v", n, err)
	}
	up, err := client.SubscriptionAdminClient.UpdateSnapshot(ctx, &pb.UpdateSnapshotRequest{
		Snapshot:   &pb.Snapshot{Name: snap.Name, Labels: map[string]string{"k": "v"}},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"labels"}},
	})
	if err != nil || up.Labels["k"] != "v" {
		t.Errorf("UpdateSnapshot = %v, %v", up, err)
	}
	_, err = client.SubscriptionAdminClient.CreateSnapshot(ctx, &pb.CreateSnapshotRequest{Name: snap.Name, Subscription: sub})
	wantCode(t, err, codes.AlreadyExists, "CreateSnapshot of an existing name")
	if err := client.SubscriptionAdminClient.DeleteSnapshot(ctx, &pb.DeleteSnapshotRequest{Snapshot: snap.Name}); err != nil {
		t.Fatalf("DeleteSnapshot: %v", err)
	}
	_, err = client.SubscriptionAdminClient.GetSnapshot(ctx, &pb.GetSnapshotRequest{Snapshot: snap.Name})
	wantCode(t, err, codes.NotFound, "GetSnapshot after delete")
}

func TestSeekToSnapshotReplays(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	snap := newSnapshot(t, sub)
	publish(t, topic, []*pubsub.Message{{Data: []byte("after")}})
	if got := pulledData(t, sub, 1); !slices.Equal(got, []string{"after"}) {
		t.Fatalf("first pull = %v", got)
	}
	if _, err := client.SubscriptionAdminClient.Seek(ctxFor(t, wait), &pb.SeekRequest{Subscription: sub, Target: &pb.SeekRequest_Snapshot{Snapshot: snap.Name}}); err != nil {
		t.Fatalf("Seek(snapshot): %v", err)
	}
	if got := pulledData(t, sub, 1); !slices.Equal(got, []string{"after"}) {
		t.Errorf("after seek = %v, want [after]", got)
	}
}

func TestSeekToTimeReplaysRetainedAckedAndFuturePurges(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{RetainAckedMessages: true})
	start := time.Now().Add(-time.Second)
	publish(t, topic, []*pubsub.Message{{Data: []byte("a")}, {Data: []byte("b")}})
	if got := pulledData(t, sub, 2); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("first pull = %v", got)
	}
	seekTime(t, sub, start)
	if got := pulledData(t, sub, 2); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("after seek back = %v, want [a b]", got)
	}
	seekTime(t, sub, time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC))
	if got := pullFor(t, sub, 1500*time.Millisecond); len(got) != 0 {
		t.Errorf("after seek to the future: %d messages, want none", len(got))
	}
}

func TestSeekToSnapshotOfOtherTopicIsFailedPrecondition(t *testing.T) {
	one := newSub(t, newTopic(t, nil), nil)
	two := newSub(t, newTopic(t, nil), nil)
	snap := newSnapshot(t, one)
	_, err := client.SubscriptionAdminClient.Seek(ctxFor(t, wait), &pb.SeekRequest{Subscription: two, Target: &pb.SeekRequest_Snapshot{Snapshot: snap.Name}})
	wantCode(t, err, codes.FailedPrecondition, "Seek to a snapshot of another topic")
}

func TestExactlyOnceAckWithResult(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{EnableExactlyOnceDelivery: true})
	var mu sync.Mutex
	var got []*pubsub.Message
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(got) }
	publish(t, topic, []*pubsub.Message{{Data: []byte("once")}})
	sought, checked := false, false
	var stale, valid pubsub.AcknowledgeStatus
	var staleErr, validErr error
	// The acks run while the subscriber still receives (its ack results need the live iterator).
	receive(t, client.Subscriber(sub), wait, func() bool {
		n := count()
		if n == 1 && !sought {
			// A seek ends every lease: the first ack id goes stale and the message comes again.
			sought = true
			seekTime(t, sub, time.Now().Add(-time.Minute))
		}
		if n >= 2 && !checked {
			checked = true
			ctx := ctxFor(t, wait)
			stale, staleErr = got[0].AckWithResult().Get(ctx)
			valid, validErr = got[1].AckWithResult().Get(ctx)
		}
		return checked
	}, func(ctx context.Context, m *pubsub.Message) {
		mu.Lock()
		got = append(got, m)
		mu.Unlock()
	})
	if !checked {
		t.Fatalf("got %d deliveries, want 2", count())
	}
	if stale != pubsub.AcknowledgeStatusInvalidAckID {
		t.Errorf("stale ack: status %v (err %v), want InvalidAckID", stale, staleErr)
	}
	if valid != pubsub.AcknowledgeStatusSuccess {
		t.Errorf("valid ack: status %v (err %v), want Success", valid, validErr)
	}
}

func TestExactlyOnceUnaryAckOfUnknownIDIsInvalidArgument(t *testing.T) {
	sub := newSub(t, newTopic(t, nil), &pb.Subscription{EnableExactlyOnceDelivery: true})
	err := client.SubscriptionAdminClient.Acknowledge(ctxFor(t, wait), &pb.AcknowledgeRequest{Subscription: sub, AckIds: []string{"no-such-ack-id"}})
	wantCode(t, err, codes.InvalidArgument, "Acknowledge of an unknown ack id")
}
