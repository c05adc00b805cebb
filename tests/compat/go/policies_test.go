package compat

// Dead-letter policy and delivery attempts, filters, retry policy. Delivery goes through the
// high-level streaming subscriber, as applications receive it; status codes through the raw
// admin clients.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// graceAfter returns a done() that turns true d after set() was first called (to catch
// late deliveries).
func graceAfter(d time.Duration) (done func() bool, set func()) {
	var mu sync.Mutex
	var at time.Time
	done = func() bool { mu.Lock(); defer mu.Unlock(); return !at.IsZero() && time.Since(at) > d }
	set = func() {
		mu.Lock()
		defer mu.Unlock()
		if at.IsZero() {
			at = time.Now()
		}
	}
	return done, set
}

func attempt(m *pubsub.Message) int {
	if m.DeliveryAttempt == nil {
		return 0
	}
	return *m.DeliveryAttempt
}

func TestDeadLetterAfterMaxDeliveryAttempts(t *testing.T) {
	topic := newTopic(t, nil)
	deadTopic := newTopic(t, nil)
	deadSub := newSub(t, deadTopic, nil)
	sub := newSub(t, topic, &pb.Subscription{DeadLetterPolicy: &pb.DeadLetterPolicy{DeadLetterTopic: deadTopic, MaxDeliveryAttempts: 5}})
	got, err := client.SubscriptionAdminClient.GetSubscription(ctxFor(t, wait), &pb.GetSubscriptionRequest{Subscription: sub})
	if err != nil || got.GetDeadLetterPolicy().GetDeadLetterTopic() != deadTopic || got.GetDeadLetterPolicy().GetMaxDeliveryAttempts() != 5 {
		t.Errorf("GetSubscription dead_letter_policy = %v (err %v)", got.GetDeadLetterPolicy(), err)
	}
	id := publish(t, topic, []*pubsub.Message{{Data: []byte("poison"), Attributes: map[string]string{"kind": "dlq"}}})[0]

	done, sawDead := graceAfter(time.Second)
	var mu sync.Mutex
	var dead []*pubsub.Message
	deadCtx, stopDead := context.WithTimeout(context.Background(), wait)
	defer stopDead()
	deadErr := make(chan error, 1)
	go func() {
		deadErr <- client.Subscriber(deadSub).Receive(deadCtx, func(ctx context.Context, m *pubsub.Message) {
			mu.Lock()
			dead = append(dead, m)
			mu.Unlock()
			m.Ack()
			sawDead()
		})
	}()

	// Keep nacking until the message shows up on the dead-letter topic, then 1 s more.
	var attempts []int
	var ids []string
	receive(t, client.Subscriber(sub), wait, done, func(ctx context.Context, m *pubsub.Message) {
		mu.Lock()
		attempts = append(attempts, attempt(m))
		ids = append(ids, m.ID)
		mu.Unlock()
		m.Nack()
	})
	stopDead()
	if err := <-deadErr; err != nil {
		t.Errorf("Receive on the dead-letter subscription: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(attempts, []int{1, 2, 3, 4, 5}) {
		t.Errorf("delivery attempts = %v, want [1 2 3 4 5]", attempts)
	}
	for _, got := range ids {
		if got != id {
			t.Errorf("delivered message %s, want only %s", got, id)
		}
	}
	if len(dead) != 1 || string(dead[0].Data) != "poison" || dead[0].Attributes["kind"] != "dlq" {
		t.Errorf("dead-letter subscription received %v, want the one poison message", dead)
	}
}

func TestDeliveryAttemptIsNilWithoutDeadLetterPolicy(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	publish(t, topic, []*pubsub.Message{{Data: []byte("plain")}})
	var attempts []*int
	for _, d := range nackThenAck(t, sub) {
		attempts = append(attempts, d.m.DeliveryAttempt)
	}
	if len(attempts) < 2 || attempts[0] != nil || attempts[1] != nil {
		t.Errorf("DeliveryAttempt on a subscription without a dead-letter policy = %v, want [nil nil]", attempts)
	}
}

func TestDeadLetterPolicyValidation(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	deadTopic := newTopic(t, nil)
	for _, n := range []int32{4, 101} {
		_, err := client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{
			Name: subPath(unique("sub")), Topic: topic,
			DeadLetterPolicy: &pb.DeadLetterPolicy{DeadLetterTopic: deadTopic, MaxDeliveryAttempts: n},
		})
		wantCode(t, err, codes.InvalidArgument, fmt.Sprintf("max_delivery_attempts %d", n))
	}
	_, err := client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{
		Name: subPath(unique("sub")), Topic: topic,
		DeadLetterPolicy: &pb.DeadLetterPolicy{DeadLetterTopic: topicPath(unique("missing")), MaxDeliveryAttempts: 5},
	})
	wantCode(t, err, codes.NotFound, "missing dead-letter topic")
}

func TestFilterDeliversOnlyMatchingMessages(t *testing.T) {
	topic := newTopic(t, nil)
	const filter = `attributes.color = "red"`
	sub := newSub(t, topic, &pb.Subscription{Filter: filter})
	got, err := client.SubscriptionAdminClient.GetSubscription(ctxFor(t, wait), &pb.GetSubscriptionRequest{Subscription: sub})
	if err != nil || got.Filter != filter {
		t.Errorf("GetSubscription filter = %q (err %v), want %q", got.GetFilter(), err, filter)
	}
	ids := publish(t, topic, []*pubsub.Message{
		{Data: []byte("red-1"), Attributes: map[string]string{"color": "red"}},
		{Data: []byte("blue-1"), Attributes: map[string]string{"color": "blue"}},
		{Data: []byte("none-1")},
		{Data: []byte("red-2"), Attributes: map[string]string{"color": "red", "size": "L"}},
		{Data: []byte("red-upper"), Attributes: map[string]string{"color": "RED"}},
		{Data: []byte("other-key"), Attributes: map[string]string{"colour": "red"}},
	})
	// Both red messages, then 2 s more in which nothing else may arrive.
	done, bothSeen := graceAfter(2 * time.Second)
	var mu sync.Mutex
	received := map[string]string{}
	receive(t, client.Subscriber(sub), wait, done, func(ctx context.Context, m *pubsub.Message) {
		mu.Lock()
		received[m.ID] = string(m.Data)
		n := len(received)
		mu.Unlock()
		m.Ack()
		if n >= 2 {
			bothSeen()
		}
	})
	mu.Lock()
	defer mu.Unlock()
	want := map[string]string{ids[0]: "red-1", ids[3]: "red-2"}
	if len(received) != len(want) || received[ids[0]] != "red-1" || received[ids[3]] != "red-2" {
		t.Errorf("received %v, want only %v", received, want)
	}
}

// filtered publishes msgs to a new subscription with filter and returns the data of every
// message it delivers (unary Pull until want arrived, then 1 s more).
func filtered(t *testing.T, filter string, want int, msgs []*pubsub.Message) []string {
	t.Helper()
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{Filter: filter})
	publish(t, topic, msgs)
	got := pullUntil(t, sub, want, wait)
	got = append(got, pullFor(t, sub, time.Second)...)
	var data []string
	for _, r := range got {
		data = append(data, string(r.Message.Data))
	}
	slices.Sort(data)
	return data
}

func TestFilterHasPrefix(t *testing.T) {
	got := filtered(t, `hasPrefix(attributes.path, "/api/")`, 1, []*pubsub.Message{
		{Data: []byte("api"), Attributes: map[string]string{"path": "/api/v1/users"}},
		{Data: []byte("apis"), Attributes: map[string]string{"path": "/apis"}},
		{Data: []byte("web"), Attributes: map[string]string{"path": "/web/api/"}},
		{Data: []byte("none")},
	})
	if !slices.Equal(got, []string{"api"}) {
		t.Errorf("hasPrefix filter delivered %v, want [api]", got)
	}
}

func TestFilterNotHasAttribute(t *testing.T) {
	got := filtered(t, "NOT attributes:x", 2, []*pubsub.Message{
		{Data: []byte("has-x"), Attributes: map[string]string{"x": "1"}},
		{Data: []byte("empty-x"), Attributes: map[string]string{"x": ""}},
		{Data: []byte("has-y"), Attributes: map[string]string{"y": "1"}},
		{Data: []byte("no-attrs")},
	})
	if !slices.Equal(got, []string{"has-y", "no-attrs"}) {
		t.Errorf("NOT attributes:x delivered %v, want [has-y no-attrs]", got)
	}
}

func TestFilterValidation(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	_, err := client.SubscriptionAdminClient.CreateSubscription(ctx, &pb.Subscription{Name: subPath(unique("sub")), Topic: topic, Filter: "attributes.color = = ("})
	wantCode(t, err, codes.InvalidArgument, "unparsable filter")
	const filter = `attributes.color = "red"`
	sub := newSub(t, topic, &pb.Subscription{Filter: filter})
	_, err = client.SubscriptionAdminClient.UpdateSubscription(ctx, &pb.UpdateSubscriptionRequest{
		Subscription: &pb.Subscription{Name: sub, Filter: "attributes:x"},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"filter"}},
	})
	wantCode(t, err, codes.InvalidArgument, "UpdateSubscription filter (immutable)")
	got, err := client.SubscriptionAdminClient.GetSubscription(ctx, &pb.GetSubscriptionRequest{Subscription: sub})
	if err != nil || got.Filter != filter {
		t.Errorf("filter after a rejected update = %q (err %v), want %q", got.GetFilter(), err, filter)
	}
}

func TestRetryPolicyDelaysRedeliveryAfterNack(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{RetryPolicy: &pb.RetryPolicy{
		MinimumBackoff: durationpb.New(2 * time.Second), MaximumBackoff: durationpb.New(2 * time.Second),
	}})
	got, err := client.SubscriptionAdminClient.GetSubscription(ctxFor(t, wait), &pb.GetSubscriptionRequest{Subscription: sub})
	if err != nil || got.GetRetryPolicy().GetMinimumBackoff().AsDuration() != 2*time.Second || got.GetRetryPolicy().GetMaximumBackoff().AsDuration() != 2*time.Second {
		t.Errorf("GetSubscription retry_policy = %v (err %v)", got.GetRetryPolicy(), err)
	}
	id := publish(t, topic, []*pubsub.Message{{Data: []byte("backoff")}})[0]
	var ids []string
	var at []time.Time
	for _, d := range nackThenAck(t, sub) {
		ids = append(ids, d.m.ID)
		at = append(at, d.at)
	}
	if len(ids) < 2 || ids[0] != id || ids[1] != id {
		t.Fatalf("deliveries = %v, want [%s %s]", ids, id, id)
	}
	if gap := at[1].Sub(at[0]); gap < 1800*time.Millisecond {
		t.Errorf("redelivered %v after the nack; minimum_backoff is 2 s", gap)
	}
}
