package compat

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

func TestBatchedPublishWithAttributesAndUnaryPull(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	p := client.Publisher(topic)
	p.PublishSettings.CountThreshold = 10
	p.PublishSettings.DelayThreshold = 50 * time.Millisecond
	defer p.Stop()
	var msgs []*pubsub.Message
	for i := 0; i < 25; i++ {
		msgs = append(msgs, &pubsub.Message{Data: []byte(fmt.Sprintf("msg-%d", i)), Attributes: map[string]string{"index": strconv.Itoa(i), "kind": "compat"}})
	}
	ids := publishAll(t, p, msgs)
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != 25 {
		t.Fatalf("message ids not unique: %v", ids)
	}

	got := pullUntil(t, sub, 25, wait)
	if len(got) != 25 {
		t.Fatalf("pulled %d messages, want 25", len(got))
	}
	var ackIDs []string
	for _, r := range got {
		i, _ := strconv.Atoi(r.Message.Attributes["index"])
		if string(r.Message.Data) != fmt.Sprintf("msg-%d", i) || r.Message.MessageId != ids[i] ||
			!maps.Equal(r.Message.Attributes, map[string]string{"index": strconv.Itoa(i), "kind": "compat"}) ||
			r.Message.PublishTime == nil || r.AckId == "" {
			t.Errorf("unexpected message %v", r)
		}
		ackIDs = append(ackIDs, r.AckId)
	}
	ack(t, sub, ackIDs...)
	if extra := pullFor(t, sub, 2*time.Second); len(extra) != 0 {
		t.Errorf("acked messages redelivered: %v", extra)
	}
}

func TestAttributesOnlyMessage(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	publish(t, topic, []*pubsub.Message{{Attributes: map[string]string{"only": "attrs"}}})
	got := pullUntil(t, sub, 1, wait)
	if len(got) != 1 || len(got[0].Message.Data) != 0 || got[0].Message.Attributes["only"] != "attrs" {
		t.Errorf("got %v", got)
	}
}

func TestStreamingReceiveWithFlowControl(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	var msgs []*pubsub.Message
	for i := 0; i < 12; i++ {
		msgs = append(msgs, &pubsub.Message{Data: []byte("fc" + strconv.Itoa(i)), Attributes: map[string]string{"n": strconv.Itoa(i)}})
	}
	ids := publish(t, topic, msgs)

	s := client.Subscriber(sub)
	s.ReceiveSettings.MaxOutstandingMessages = 2
	s.ReceiveSettings.NumGoroutines = 1
	var mu sync.Mutex
	received := map[string]bool{}
	outstanding, maxOutstanding := 0, 0
	receive(t, s, wait, func() bool { mu.Lock(); defer mu.Unlock(); return len(received) >= 12 },
		func(ctx context.Context, m *pubsub.Message) {
			mu.Lock()
			outstanding++
			maxOutstanding = max(maxOutstanding, outstanding)
			mu.Unlock()
			time.Sleep(100 * time.Millisecond)
			if string(m.Data) != "fc"+m.Attributes["n"] {
				t.Errorf("data %q attrs %v", m.Data, m.Attributes)
			}
			mu.Lock()
			outstanding--
			received[m.ID] = true
			mu.Unlock()
			m.Ack()
		})
	mu.Lock()
	defer mu.Unlock()
	for _, id := range ids {
		if !received[id] {
			t.Errorf("message %s not received (got %d/12)", id, len(received))
		}
	}
	if maxOutstanding < 1 || maxOutstanding > 2 {
		t.Errorf("max concurrently outstanding = %d, want 1..2", maxOutstanding)
	}
	if extra := pullFor(t, sub, 2*time.Second); len(extra) != 0 {
		t.Errorf("acked messages redelivered: %d", len(extra))
	}
}

func TestStreamingNackIsRedelivered(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	id := publish(t, topic, []*pubsub.Message{{Data: []byte("nack-me")}})[0]
	var deliveries []string
	for _, d := range nackThenAck(t, sub) {
		deliveries = append(deliveries, d.m.ID)
	}
	if len(deliveries) < 2 || deliveries[0] != id || deliveries[1] != id {
		t.Errorf("deliveries = %v, want [%s %s]", deliveries, id, id)
	}
}

func TestOrderingKeys(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{EnableMessageOrdering: true})
	p := client.Publisher(topic)
	p.EnableMessageOrdering = true
	p.PublishSettings.CountThreshold = 5
	p.PublishSettings.DelayThreshold = 20 * time.Millisecond
	defer p.Stop()
	keys := []string{"alpha", "beta", "gamma"}
	var msgs []*pubsub.Message
	for i := 0; i < 15; i++ {
		for _, k := range keys {
			msgs = append(msgs, &pubsub.Message{Data: []byte(fmt.Sprintf("%s-%d", k, i)), OrderingKey: k, Attributes: map[string]string{"seq": strconv.Itoa(i)}})
		}
	}
	publishAll(t, p, msgs)

	var mu sync.Mutex
	seen := map[string][]int{}
	total := 0
	receive(t, client.Subscriber(sub), wait, func() bool { mu.Lock(); defer mu.Unlock(); return total >= 45 },
		func(ctx context.Context, m *pubsub.Message) {
			seq, _ := strconv.Atoi(m.Attributes["seq"])
			mu.Lock()
			seen[m.OrderingKey] = append(seen[m.OrderingKey], seq)
			mu.Unlock()
			// Uneven handling time: concurrent handling of one key would reorder it.
			// (The client only serialises a key when the server's StreamingPullResponse
			// says subscription_properties.message_ordering_enabled.)
			time.Sleep(time.Duration(rand.IntN(10)) * time.Millisecond)
			mu.Lock()
			total++
			mu.Unlock()
			m.Ack()
		})
	for _, k := range keys {
		got := seen[k]
		if len(got) > 15 {
			got = got[:15]
		}
		want := make([]int, 15)
		for i := range want {
			want[i] = i
		}
		if !slices.Equal(got, want) {
			t.Errorf("key %s delivered in order %v, want %v", k, seen[k], want)
		}
	}
}

func TestUnaryNackViaModifyAckDeadlineZero(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	id := publish(t, topic, []*pubsub.Message{{Data: []byte("x")}})[0]
	first := pullUntil(t, sub, 1, wait)
	if len(first) != 1 {
		t.Fatalf("pulled %d", len(first))
	}
	if err := modAck(sub, 0, first[0].AckId); err != nil {
		t.Fatalf("ModifyAckDeadline 0: %v", err)
	}
	again := pullUntil(t, sub, 1, wait)
	if len(again) != 1 || again[0].Message.MessageId != id {
		t.Fatalf("after nack got %v", again)
	}
	ack(t, sub, again[0].AckId)
}

// A: left alone -> redelivered after the 10 s subscription deadline.
// B: deadline extended to 60 s -> still leased when A comes back.
// C: deadline shortened to 1 s -> back well before A.
func TestAckDeadlineExpiryAndModifyAckDeadline(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{AckDeadlineSeconds: 10})
	publish(t, topic, []*pubsub.Message{{Data: []byte("A")}, {Data: []byte("B")}, {Data: []byte("C")}})
	first := pullUntil(t, sub, 3, wait)
	if len(first) != 3 {
		t.Fatalf("pulled %d, want 3", len(first))
	}
	t0 := time.Now()
	byName := map[string]*pb.ReceivedMessage{}
	for _, r := range first {
		byName[string(r.Message.Data)] = r
	}
	if err := modAck(sub, 60, byName["B"].AckId); err != nil {
		t.Fatalf("ModifyAckDeadline 60: %v", err)
	}
	if err := modAck(sub, 1, byName["C"].AckId); err != nil {
		t.Fatalf("ModifyAckDeadline 1: %v", err)
	}
	c := pullUntil(t, sub, 1, 8*time.Second)
	if len(c) != 1 || string(c[0].Message.Data) != "C" {
		t.Fatalf("expected C back within 8s of a 1s modack, got %v", c)
	}
	ack(t, sub, c[0].AckId)
	a := pullUntil(t, sub, 1, 25*time.Second)
	if len(a) != 1 || string(a[0].Message.Data) != "A" {
		t.Fatalf("expected A redelivered after its 10s deadline, got %v", a)
	}
	if el := time.Since(t0); el < 7*time.Second {
		t.Errorf("A redelivered after %v, before its 10 s ack deadline", el)
	}
	ack(t, sub, a[0].AckId)
	if extra := pullFor(t, sub, 2*time.Second); len(extra) != 0 {
		t.Errorf("B (60 s lease) or others redelivered early: %v", extra)
	}
	ack(t, sub, byName["B"].AckId)
}

func TestLargeMessageRoundTrip(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	payload := bytes.Repeat([]byte("0123456789abcdef"), 9*1024*1024/16) // 9 MiB
	id := publish(t, topic, []*pubsub.Message{{Data: payload, Attributes: map[string]string{"size": "9MiB"}}})[0]
	var mu sync.Mutex
	var got *pubsub.Message
	receive(t, client.Subscriber(sub), wait, func() bool { mu.Lock(); defer mu.Unlock(); return got != nil },
		func(ctx context.Context, m *pubsub.Message) {
			mu.Lock()
			got = m
			mu.Unlock()
			m.Ack()
		})
	if got == nil {
		t.Fatal("9 MiB message not received")
	}
	if got.ID != id || !bytes.Equal(got.Data, payload) {
		t.Errorf("received id %s len %d, want id %s len %d", got.ID, len(got.Data), id, len(payload))
	}
}

// Validation through the raw generated client: one PublishRequest per call.
func rawPublish(msgs ...*pb.PubsubMessage) func(topic string) error {
	return func(topic string) error {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_, err := client.TopicAdminClient.Publish(ctx, &pb.PublishRequest{Topic: topic, Messages: msgs})
		return err
	}
}

func TestPublishValidation(t *testing.T) {
	topic := newTopic(t, nil)
	attrs := func(n int) map[string]string {
		m := map[string]string{}
		for i := 0; i < n; i++ {
			m["k"+strconv.Itoa(i)] = "v"
		}
		return m
	}
	if err := rawPublish(
		&pb.PubsubMessage{Data: []byte("x"), Attributes: attrs(100)},
		&pb.PubsubMessage{Data: []byte("x"), Attributes: map[string]string{strings.Repeat("k", 256): strings.Repeat("v", 1024)}},
	)(topic); err != nil {
		t.Errorf("publish at the limits (100 attrs, 256-byte key, 1024-byte value): %v", err)
	}
	cases := []struct {
		name string
		msg  *pb.PubsubMessage
	}{
		{"101 attributes", &pb.PubsubMessage{Data: []byte("x"), Attributes: attrs(101)}},
		{"key 257 bytes", &pb.PubsubMessage{Data: []byte("x"), Attributes: map[string]string{strings.Repeat("k", 257): "v"}}},
		{"key 258 bytes / 129 chars", &pb.PubsubMessage{Data: []byte("x"), Attributes: map[string]string{strings.Repeat("é", 129): "v"}}},
		{"value 1025 bytes", &pb.PubsubMessage{Data: []byte("x"), Attributes: map[string]string{"k": strings.Repeat("v", 1025)}}},
		{"empty message", &pb.PubsubMessage{}},
	}
	for _, c := range cases {
		wantCode(t, rawPublish(c.msg)(topic), codes.InvalidArgument, c.name)
	}
	wantCode(t, rawPublish(&pb.PubsubMessage{Data: []byte("x")})(topicPath(unique("missing"))), codes.NotFound, "publish to missing topic")
}

func TestMixedOrderingKeysIsFailedPrecondition(t *testing.T) {
	topic := newTopic(t, nil)
	err := rawPublish(&pb.PubsubMessage{Data: []byte("1"), OrderingKey: "a"}, &pb.PubsubMessage{Data: []byte("2"), OrderingKey: "b"})(topic)
	wantCode(t, err, codes.FailedPrecondition, "keys a+b in one request")
	err = rawPublish(&pb.PubsubMessage{Data: []byte("1"), OrderingKey: "a"}, &pb.PubsubMessage{Data: []byte("2")})(topic)
	wantCode(t, err, codes.FailedPrecondition, "key a + no key in one request")
	if err := rawPublish(&pb.PubsubMessage{Data: []byte("1"), OrderingKey: "a"}, &pb.PubsubMessage{Data: []byte("2"), OrderingKey: "a"})(topic); err != nil {
		t.Errorf("same key for the whole request: %v", err)
	}
}

func TestModifyAckDeadline601IsInvalidArgument(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	if err := rawPublish(&pb.PubsubMessage{Data: []byte("x")})(topic); err != nil {
		t.Fatal(err)
	}
	got := pullUntil(t, sub, 1, wait)
	if len(got) != 1 {
		t.Fatalf("pulled %d", len(got))
	}
	wantCode(t, modAck(sub, 601, got[0].AckId), codes.InvalidArgument, "ModifyAckDeadline 601")
	if err := modAck(sub, 600, got[0].AckId); err != nil {
		t.Errorf("ModifyAckDeadline 600: %v", err)
	}
}

func TestPublishRequestLimits(t *testing.T) {
	topic := newTopic(t, nil)
	many := func(n int) []*pb.PubsubMessage {
		out := make([]*pb.PubsubMessage, n)
		for i := range out {
			out[i] = &pb.PubsubMessage{Data: []byte("x")}
		}
		return out
	}
	wantCode(t, rawPublish(many(1001)...)(topic), codes.InvalidArgument, "1001 messages in one request")
	if err := rawPublish(many(1000)...)(topic); err != nil {
		t.Errorf("1000 messages in one request: %v", err)
	}
	// 10,000,001 bytes of data: over the 10 MB (decimal) request limit, under 10 MiB.
	wantCode(t, rawPublish(&pb.PubsubMessage{Data: bytes.Repeat([]byte("x"), 10_000_001)})(topic), codes.InvalidArgument, "10,000,001-byte message")
}

func TestUnknownUpdateMaskPathIsInvalidArgument(t *testing.T) {
	ctx := ctxFor(t, wait)
	topic := newTopic(t, nil)
	_, err := client.TopicAdminClient.UpdateTopic(ctx, &pb.UpdateTopicRequest{
		Topic: &pb.Topic{Name: topic}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"not_a_field"}},
	})
	wantCode(t, err, codes.InvalidArgument, "UpdateTopic not_a_field")
	sub := newSub(t, topic, nil)
	_, err = client.SubscriptionAdminClient.UpdateSubscription(ctx, &pb.UpdateSubscriptionRequest{
		Subscription: &pb.Subscription{Name: sub}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"not_a_field"}},
	})
	wantCode(t, err, codes.InvalidArgument, "UpdateSubscription not_a_field")
}

func TestMissingSubscriptionIsNotFound(t *testing.T) {
	missing := subPath(unique("missing"))
	_, err := client.SubscriptionAdminClient.Pull(ctxFor(t, wait), &pb.PullRequest{Subscription: missing, MaxMessages: 1})
	wantCode(t, err, codes.NotFound, "Pull from a missing subscription")
	// The high-level subscriber returns it from Receive.
	err = client.Subscriber(missing).Receive(ctxFor(t, wait), func(ctx context.Context, m *pubsub.Message) { m.Ack() })
	wantCode(t, err, codes.NotFound, "Receive on a missing subscription")
}

// A handler slower than the 10 s ack deadline: the client extends the lease
// (ModifyAckDeadline) and the message is not redelivered meanwhile.
func TestLeaseExtensionBeyondAckDeadline(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{AckDeadlineSeconds: 10})
	id := publish(t, topic, []*pubsub.Message{{Data: []byte("slow")}})[0]
	var mu sync.Mutex
	var deliveries []string
	var ackedAt time.Time
	receive(t, client.Subscriber(sub), wait,
		func() bool {
			mu.Lock()
			defer mu.Unlock()
			return !ackedAt.IsZero() && time.Since(ackedAt) > 2*time.Second
		},
		func(ctx context.Context, m *pubsub.Message) {
			mu.Lock()
			deliveries = append(deliveries, m.ID)
			first := len(deliveries) == 1
			mu.Unlock()
			if first {
				time.Sleep(14 * time.Second)
			}
			m.Ack()
			mu.Lock()
			if first {
				ackedAt = time.Now()
			}
			mu.Unlock()
		})
	mu.Lock()
	defer mu.Unlock()
	if ackedAt.IsZero() || !slices.Equal(deliveries, []string{id}) {
		t.Errorf("deliveries = %v (acked: %v), want exactly one delivery of %s", deliveries, !ackedAt.IsZero(), id)
	}
}
