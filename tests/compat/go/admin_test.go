package compat

import (
	"errors"
	"maps"
	"strings"
	"testing"

	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/api/iterator"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

func TestTopicCreateGetListDelete(t *testing.T) {
	ctx := ctxFor(t, wait)
	name := newTopic(t, &pb.Topic{Labels: map[string]string{"team": "compat"}})
	got, err := client.TopicAdminClient.GetTopic(ctx, &pb.GetTopicRequest{Topic: name})
	if err != nil {
		t.Fatalf("GetTopic: %v", err)
	}
	if got.Name != name || got.Labels["team"] != "compat" {
		t.Errorf("GetTopic = %v", got)
	}
	found := false
	it := client.TopicAdminClient.ListTopics(ctx, &pb.ListTopicsRequest{Project: projectPath})
	for {
		tp, err := it.Next()
		if errors.Is(err, iterator.Done) {
			break
		}
		if err != nil {
			t.Fatalf("ListTopics: %v", err)
		}
		found = found || tp.Name == name
	}
	if !found {
		t.Errorf("ListTopics did not return %s", name)
	}
	if err := client.TopicAdminClient.DeleteTopic(ctx, &pb.DeleteTopicRequest{Topic: name}); err != nil {
		t.Fatalf("DeleteTopic: %v", err)
	}
	_, err = client.TopicAdminClient.GetTopic(ctx, &pb.GetTopicRequest{Topic: name})
	wantCode(t, err, codes.NotFound, "GetTopic after delete")
}

func TestCreateExistingIsAlreadyExists(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	_, err := client.TopicAdminClient.CreateTopic(ctx, &pb.Topic{Name: topic})
	wantCode(t, err, codes.AlreadyExists, "CreateTopic twice")
	sub := newSub(t, topic, nil)
	_, err = client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{Name: sub, Topic: topic})
	wantCode(t, err, codes.AlreadyExists, "CreateSubscription twice")
}

func TestGetMissingIsNotFound(t *testing.T) {
	ctx := ctxFor(t, wait)
	_, err := client.TopicAdminClient.GetTopic(ctx, &pb.GetTopicRequest{Topic: topicPath(unique("missing"))})
	wantCode(t, err, codes.NotFound, "GetTopic missing")
	_, err = client.SubscriptionAdminClient.GetSubscription(ctx, &pb.GetSubscriptionRequest{Subscription: subPath(unique("missing"))})
	wantCode(t, err, codes.NotFound, "GetSubscription missing")
	err = client.TopicAdminClient.DeleteTopic(ctx, &pb.DeleteTopicRequest{Topic: topicPath(unique("missing"))})
	wantCode(t, err, codes.NotFound, "DeleteTopic missing")
	_, err = client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{Name: subPath(unique("orphan")), Topic: topicPath(unique("missing"))})
	wantCode(t, err, codes.NotFound, "CreateSubscription on missing topic")
}

func TestBadNamesAreInvalidArgument(t *testing.T) {
	ctx := ctxFor(t, wait)
	for _, id := range []string{"ab", "9starts-with-digit", "goog-reserved", "has space", "bad*char", strings.Repeat("x", 256)} {
		_, err := client.TopicAdminClient.CreateTopic(ctx, &pb.Topic{Name: topicPath(id)})
		wantCode(t, err, codes.InvalidArgument, "CreateTopic "+id)
	}
	topic := newTopic(t, nil)
	_, err := client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{Name: subPath("goog-sub"), Topic: topic})
	wantCode(t, err, codes.InvalidArgument, "CreateSubscription goog-sub")
}

func TestUpdateTopicLabels(t *testing.T) {
	ctx := ctxFor(t, wait)
	name := newTopic(t, &pb.Topic{Labels: map[string]string{"a": "1"}})
	want := map[string]string{"a": "2", "b": "3"}
	got, err := client.TopicAdminClient.UpdateTopic(ctx, &pb.UpdateTopicRequest{
		Topic:      &pb.Topic{Name: name, Labels: want},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"labels"}},
	})
	if err != nil {
		t.Fatalf("UpdateTopic: %v", err)
	}
	if !maps.Equal(got.Labels, want) {
		t.Errorf("UpdateTopic labels = %v, want %v", got.Labels, want)
	}
	got, err = client.TopicAdminClient.GetTopic(ctx, &pb.GetTopicRequest{Topic: name})
	if err != nil || !maps.Equal(got.Labels, want) {
		t.Errorf("GetTopic after update = %v, %v", got, err)
	}
}

func TestUpdateEmptyMaskIsInvalidArgument(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	_, err := client.TopicAdminClient.UpdateTopic(ctx, &pb.UpdateTopicRequest{
		Topic:      &pb.Topic{Name: topic, Labels: map[string]string{"a": "1"}},
		UpdateMask: &fieldmaskpb.FieldMask{},
	})
	wantCode(t, err, codes.InvalidArgument, "UpdateTopic empty mask")
	sub := newSub(t, topic, nil)
	_, err = client.SubscriptionAdminClient.UpdateSubscription(ctx, &pb.UpdateSubscriptionRequest{
		Subscription: &pb.Subscription{Name: sub, AckDeadlineSeconds: 30},
		UpdateMask:   &fieldmaskpb.FieldMask{},
	})
	wantCode(t, err, codes.InvalidArgument, "UpdateSubscription empty mask")
}

func TestSubscriptionCreateGetUpdate(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	name := newSub(t, topic, &pb.Subscription{AckDeadlineSeconds: 20, Labels: map[string]string{"x": "1"}})
	got, err := client.SubscriptionAdminClient.GetSubscription(ctx, &pb.GetSubscriptionRequest{Subscription: name})
	if err != nil {
		t.Fatalf("GetSubscription: %v", err)
	}
	if got.Topic != topic || got.AckDeadlineSeconds != 20 || got.Labels["x"] != "1" {
		t.Errorf("GetSubscription = %v", got)
	}
	got, err = client.SubscriptionAdminClient.UpdateSubscription(ctx, &pb.UpdateSubscriptionRequest{
		Subscription: &pb.Subscription{Name: name, AckDeadlineSeconds: 45, Labels: map[string]string{"y": "2"}},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"ack_deadline_seconds", "labels"}},
	})
	if err != nil {
		t.Fatalf("UpdateSubscription: %v", err)
	}
	if got.AckDeadlineSeconds != 45 || !maps.Equal(got.Labels, map[string]string{"y": "2"}) {
		t.Errorf("UpdateSubscription = %v", got)
	}
	// Only the masked field changes.
	got, err = client.SubscriptionAdminClient.UpdateSubscription(ctx, &pb.UpdateSubscriptionRequest{
		Subscription: &pb.Subscription{Name: name, AckDeadlineSeconds: 30, Labels: map[string]string{"ignored": "1"}},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"ack_deadline_seconds"}},
	})
	if err != nil {
		t.Fatalf("UpdateSubscription: %v", err)
	}
	if got.AckDeadlineSeconds != 30 || !maps.Equal(got.Labels, map[string]string{"y": "2"}) {
		t.Errorf("UpdateSubscription(ack_deadline_seconds only) = %v", got)
	}
	got, err = client.SubscriptionAdminClient.GetSubscription(ctx, &pb.GetSubscriptionRequest{Subscription: name})
	if err != nil || got.AckDeadlineSeconds != 30 || got.Labels["y"] != "2" {
		t.Errorf("GetSubscription after update = %v, %v", got, err)
	}
}

func TestAckDeadline601IsInvalidArgument(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	_, err := client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{Name: subPath(unique("sub")), Topic: topic, AckDeadlineSeconds: 601})
	wantCode(t, err, codes.InvalidArgument, "CreateSubscription ack_deadline_seconds=601")
	sub := newSub(t, topic, nil)
	_, err = client.SubscriptionAdminClient.UpdateSubscription(ctx, &pb.UpdateSubscriptionRequest{
		Subscription: &pb.Subscription{Name: sub, AckDeadlineSeconds: 601},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"ack_deadline_seconds"}},
	})
	wantCode(t, err, codes.InvalidArgument, "UpdateSubscription ack_deadline_seconds=601")
	got, err := client.SubscriptionAdminClient.GetSubscription(ctx, &pb.GetSubscriptionRequest{Subscription: sub})
	if err != nil || got.AckDeadlineSeconds != 10 {
		t.Errorf("default ack deadline = %v (err %v), want 10", got.GetAckDeadlineSeconds(), err)
	}
}

func TestListTopicsPagination(t *testing.T) {
	ctx := ctxFor(t, wait)
	mine := map[string]bool{}
	for i := 0; i < 5; i++ {
		mine[newTopic(t, nil)] = true
	}
	pager := iterator.NewPager(client.TopicAdminClient.ListTopics(ctx, &pb.ListTopicsRequest{Project: projectPath}), 2, "")
	seen := map[string]int{}
	pages := 0
	for {
		var page []*pb.Topic
		tok, err := pager.NextPage(&page)
		if err != nil {
			t.Fatalf("ListTopics page %d: %v", pages, err)
		}
		pages++
		if len(page) > 2 {
			t.Errorf("page %d has %d topics, page_size was 2", pages, len(page))
		}
		for _, tp := range page {
			seen[tp.Name]++
		}
		if tok == "" {
			break
		}
		if pages > 10000 {
			t.Fatal("pagination does not terminate")
		}
	}
	if pages < 3 {
		t.Errorf("got %d pages, want >= 3", pages)
	}
	for n := range mine {
		if seen[n] != 1 {
			t.Errorf("%s seen %d times across pages", n, seen[n])
		}
	}
}

func TestListTopicSubscriptionsPagination(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	mine := map[string]bool{}
	for i := 0; i < 3; i++ {
		mine[newSub(t, topic, nil)] = true
	}
	pager := iterator.NewPager(client.TopicAdminClient.ListTopicSubscriptions(ctx, &pb.ListTopicSubscriptionsRequest{Topic: topic}), 2, "")
	seen := map[string]bool{}
	pages := 0
	for {
		var page []string
		tok, err := pager.NextPage(&page)
		if err != nil {
			t.Fatalf("ListTopicSubscriptions: %v", err)
		}
		pages++
		if len(page) > 2 {
			t.Errorf("page of %d, page_size was 2", len(page))
		}
		for _, s := range page {
			seen[s] = true
		}
		if tok == "" || pages > 10 {
			break
		}
	}
	if pages < 2 || !maps.Equal(seen, mine) {
		t.Errorf("pages=%d seen=%v want %v", pages, seen, mine)
	}
}

func TestDeletingTopicDetachesSubscriptions(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	if err := client.TopicAdminClient.DeleteTopic(ctx, &pb.DeleteTopicRequest{Topic: topic}); err != nil {
		t.Fatal(err)
	}
	got, err := client.SubscriptionAdminClient.GetSubscription(ctx, &pb.GetSubscriptionRequest{Subscription: sub})
	if err != nil || got.Topic != "_deleted-topic_" {
		t.Errorf("subscription topic after delete = %q (err %v), want _deleted-topic_", got.GetTopic(), err)
	}
}
