// Package compat checks the emulator through cloud.google.com/go/pubsub/v2, the way Go
// applications use it. The client reads PUBSUB_EMULATOR_HOST itself.
package compat

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const (
	projectID   = "compat-test"
	projectPath = "projects/" + projectID
	wait        = 30 * time.Second // upper bound for any "eventually"
)

var client *pubsub.Client

func TestMain(m *testing.M) {
	if os.Getenv("PUBSUB_EMULATOR_HOST") == "" {
		fmt.Fprintln(os.Stderr, "PUBSUB_EMULATOR_HOST must point at a running emulator")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	c, err := pubsub.NewClient(ctx, projectID)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "NewClient:", err)
		os.Exit(2)
	}
	client = c
	code := m.Run()
	client.Close()
	os.Exit(code)
}

func unique(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

func topicPath(id string) string { return projectPath + "/topics/" + id }
func subPath(id string) string   { return projectPath + "/subscriptions/" + id }

// ctxFor returns a context bounded by d and cancelled at the end of the test.
func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// deleteAtEnd runs del when the test ends, on a context of its own (the test's may be done); what
// it returns is ignored, as the resource may be gone already.
func deleteAtEnd(t *testing.T, del func(context.Context) error) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = del(ctx)
	})
}

// created makes a resource through create (within wait), fails the test if that fails, and
// deletes it by name through del when the test ends; its name.
func created[R interface{ GetName() string }](t *testing.T, what string, create func(context.Context) (R, error), del func(context.Context, string) error) string {
	t.Helper()
	got, err := create(ctxFor(t, wait))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	deleteAtEnd(t, func(ctx context.Context) error { return del(ctx, got.GetName()) })
	return got.GetName()
}

func newTopic(t *testing.T, tmpl *pb.Topic) string {
	t.Helper()
	if tmpl == nil {
		tmpl = &pb.Topic{}
	}
	tmpl.Name = topicPath(unique("topic"))
	return created(t, "CreateTopic",
		func(ctx context.Context) (*pb.Topic, error) { return client.TopicAdminClient.CreateTopic(ctx, tmpl) },
		func(ctx context.Context, name string) error {
			return client.TopicAdminClient.DeleteTopic(ctx, &pb.DeleteTopicRequest{Topic: name})
		})
}

func newSub(t *testing.T, topic string, tmpl *pb.Subscription) string {
	t.Helper()
	if tmpl == nil {
		tmpl = &pb.Subscription{}
	}
	tmpl.Name = subPath(unique("sub"))
	tmpl.Topic = topic
	return created(t, "CreateSubscription",
		func(ctx context.Context) (*pb.Subscription, error) {
			return client.SubscriptionAdminClient.CreateSubscription(ctx, tmpl)
		},
		func(ctx context.Context, name string) error {
			return client.SubscriptionAdminClient.DeleteSubscription(ctx, &pb.DeleteSubscriptionRequest{Subscription: name})
		})
}

func wantCode(t *testing.T, err error, want codes.Code, what string) {
	t.Helper()
	if got := status.Code(err); got != want {
		t.Errorf("%s: got code %v (err=%v), want %v", what, got, err, want)
	}
}

// pullUntil issues unary Pulls until want messages arrived or within elapsed.
func pullUntil(t *testing.T, sub string, want int, within time.Duration) []*pb.ReceivedMessage {
	t.Helper()
	var got []*pb.ReceivedMessage
	end := time.Now().Add(within)
	for len(got) < want {
		remaining := time.Until(end)
		if remaining <= 0 {
			break
		}
		if remaining > 5*time.Second {
			remaining = 5 * time.Second
		}
		if remaining < 500*time.Millisecond {
			remaining = 500 * time.Millisecond
		}
		ctx, cancel := context.WithTimeout(context.Background(), remaining)
		resp, err := client.SubscriptionAdminClient.Pull(ctx, &pb.PullRequest{Subscription: sub, MaxMessages: 100})
		cancel()
		if err != nil {
			if status.Code(err) == codes.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded) {
				continue
			}
			t.Fatalf("Pull: %v", err)
		}
		got = append(got, resp.ReceivedMessages...)
	}
	return got
}

func pullFor(t *testing.T, sub string, d time.Duration) []*pb.ReceivedMessage {
	t.Helper()
	return pullUntil(t, sub, 1<<30, d)
}

func ack(t *testing.T, sub string, ids ...string) {
	t.Helper()
	if err := client.SubscriptionAdminClient.Acknowledge(ctxFor(t, wait), &pb.AcknowledgeRequest{Subscription: sub, AckIds: ids}); err != nil {
		t.Fatalf("Acknowledge: %v", err)
	}
}

func modAck(sub string, seconds int32, ids ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	return client.SubscriptionAdminClient.ModifyAckDeadline(ctx, &pb.ModifyAckDeadlineRequest{
		Subscription: sub, AckIds: ids, AckDeadlineSeconds: seconds,
	})
}

// receive runs the high-level streaming subscriber until done() or the deadline.
func receive(t *testing.T, s *pubsub.Subscriber, within time.Duration, done func() bool, f func(context.Context, *pubsub.Message)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if done() {
					cancel()
					return
				}
			}
		}
	}()
	s.ReceiveSettings.ShutdownOptions = &pubsub.ShutdownOptions{Behavior: pubsub.ShutdownBehaviorNackImmediately, Timeout: 5 * time.Second}
	if err := s.Receive(ctx, f); err != nil {
		t.Fatalf("Receive: %v", err)
	}
}

func publishAll(t *testing.T, p *pubsub.Publisher, msgs []*pubsub.Message) []string {
	t.Helper()
	ctx := ctxFor(t, wait)
	results := make([]*pubsub.PublishResult, len(msgs))
	for i, m := range msgs {
		results[i] = p.Publish(ctx, m)
	}
	ids := make([]string, len(msgs))
	for i, r := range results {
		id, err := r.Get(ctx)
		if err != nil {
			t.Fatalf("Publish %d: %v", i, err)
		}
		ids[i] = id
	}
	return ids
}

// publish publishes msgs to topic through a default publisher (stopped at the end of the
// test) and returns their message IDs.
func publish(t *testing.T, topic string, msgs []*pubsub.Message) []string {
	t.Helper()
	p := client.Publisher(topic)
	t.Cleanup(p.Stop)
	return publishAll(t, p, msgs)
}

// delivery is one message as the streaming subscriber handed it over, and when.
type delivery struct {
	m  *pubsub.Message
	at time.Time
}

// nackThenAck receives from sub with the streaming subscriber until two deliveries
// arrived (or wait ran out): it nacks the first delivery and acks every later one.
func nackThenAck(t *testing.T, sub string) []delivery {
	t.Helper()
	var mu sync.Mutex
	var got []delivery
	receive(t, client.Subscriber(sub), wait, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) >= 2 },
		func(ctx context.Context, m *pubsub.Message) {
			mu.Lock()
			got = append(got, delivery{m, time.Now()})
			first := len(got) == 1
			mu.Unlock()
			if first {
				m.Nack()
			} else {
				m.Ack()
			}
		})
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(got)
}
