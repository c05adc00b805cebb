package compat

// The generated REST clients (apiv1's NewTopicAdminRESTClient / NewSubscriptionAdminRESTClient)
// against the emulator's REST/JSON API, which it serves on the gRPC port.

import (
	"errors"
	"os"
	"testing"

	apiv1 "cloud.google.com/go/pubsub/v2/apiv1"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"github.com/googleapis/gax-go/v2/apierror"
	"google.golang.org/api/option"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

func TestRESTClients(t *testing.T) {
	ctx := ctxFor(t, wait)
	opts := []option.ClientOption{option.WithEndpoint("http://" + os.Getenv("PUBSUB_EMULATOR_HOST")), option.WithoutAuthentication()}
	topics, err := apiv1.NewTopicAdminRESTClient(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer topics.Close()
	subs, err := apiv1.NewSubscriptionAdminRESTClient(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer subs.Close()

	topic := topicPath(unique("rest-topic"))
	sub := subPath(unique("rest-sub"))
	if _, err := topics.CreateTopic(ctx, &pb.Topic{Name: topic, Labels: map[string]string{"team": "a"}}); err != nil {
		t.Fatal("CreateTopic:", err)
	}
	created, err := subs.CreateSubscription(ctx, &pb.Subscription{
		Name: sub, Topic: topic, AckDeadlineSeconds: 30,
		RetryPolicy: &pb.RetryPolicy{MinimumBackoff: durationpb.New(1500 * 1e6)},
	})
	if err != nil {
		t.Fatal("CreateSubscription:", err)
	}
	if created.AckDeadlineSeconds != 30 || created.RetryPolicy.MinimumBackoff.AsDuration().Milliseconds() != 1500 || created.State != pb.Subscription_ACTIVE {
		t.Fatalf("created subscription: %v", created)
	}
	updated, err := subs.UpdateSubscription(ctx, &pb.UpdateSubscriptionRequest{
		Subscription: &pb.Subscription{Name: sub, AckDeadlineSeconds: 45},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"ack_deadline_seconds"}},
	})
	if err != nil || updated.AckDeadlineSeconds != 45 {
		t.Fatalf("UpdateSubscription: %v %v", updated, err)
	}

	published, err := topics.Publish(ctx, &pb.PublishRequest{Topic: topic, Messages: []*pb.PubsubMessage{
		{Data: []byte{0, 255, 'g', 'o'}, Attributes: map[string]string{"k": "v"}},
	}})
	if err != nil || len(published.MessageIds) != 1 {
		t.Fatalf("Publish: %v %v", published, err)
	}
	pulled, err := subs.Pull(ctx, &pb.PullRequest{Subscription: sub, MaxMessages: 10})
	if err != nil || len(pulled.ReceivedMessages) != 1 {
		t.Fatalf("Pull: %v %v", pulled, err)
	}
	m := pulled.ReceivedMessages[0]
	if string(m.Message.Data) != "\x00\xffgo" || m.Message.Attributes["k"] != "v" || m.Message.MessageId != published.MessageIds[0] {
		t.Fatalf("pulled message: %v", m)
	}
	if err := subs.Acknowledge(ctx, &pb.AcknowledgeRequest{Subscription: sub, AckIds: []string{m.AckId}}); err != nil {
		t.Fatal("Acknowledge:", err)
	}

	// Errors arrive with the HTTP status of their code and the BadRequest detail.
	err = subs.ModifyAckDeadline(ctx, &pb.ModifyAckDeadlineRequest{Subscription: sub, AckIds: []string{"x"}, AckDeadlineSeconds: 601})
	var ae *apierror.APIError
	if !errors.As(err, &ae) || ae.HTTPCode() != 400 || ae.Details().BadRequest == nil ||
		ae.Details().BadRequest.GetFieldViolations()[0].GetField() != "ack_deadline_seconds" {
		t.Fatalf("ModifyAckDeadline 601: %v", err)
	}
	if _, err := topics.CreateTopic(ctx, &pb.Topic{Name: topic}); !hasHTTPCode(err, 409) {
		t.Fatalf("CreateTopic again: %v", err)
	}
	if err := subs.DeleteSubscription(ctx, &pb.DeleteSubscriptionRequest{Subscription: sub}); err != nil {
		t.Fatal("DeleteSubscription:", err)
	}
	if err := topics.DeleteTopic(ctx, &pb.DeleteTopicRequest{Topic: topic}); err != nil {
		t.Fatal("DeleteTopic:", err)
	}
	if _, err := topics.GetTopic(ctx, &pb.GetTopicRequest{Topic: topic}); !hasHTTPCode(err, 404) {
		t.Fatalf("GetTopic after delete: %v", err)
	}
}

// hasHTTPCode: a REST client's error is the APIError parsed from the body, with the HTTP status
// of its code (409 ALREADY_EXISTS, 404 NOT_FOUND…).
func hasHTTPCode(err error, want int) bool {
	var ae *apierror.APIError
	return errors.As(err, &ae) && ae.HTTPCode() == want
}
