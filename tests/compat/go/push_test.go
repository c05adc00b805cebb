package compat

// Push subscriptions: the emulator POSTs to an httptest server on loopback.

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/grpc/codes"
)

type pushHit struct {
	header http.Header
	body   []byte
	at     time.Time
}

// pushReceiver records every request and answers statuses[n] (the last one repeats).
type pushReceiver struct {
	mu   sync.Mutex
	hits []pushHit
	url  string
}

func newPushReceiver(t *testing.T, statuses ...int) *pushReceiver {
	t.Helper()
	if len(statuses) == 0 {
		statuses = []int{http.StatusOK}
	}
	r := &pushReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		n := len(r.hits)
		r.hits = append(r.hits, pushHit{req.Header.Clone(), body, time.Now()})
		r.mu.Unlock()
		w.WriteHeader(statuses[min(n, len(statuses)-1)])
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL + "/push"
	return r
}

func (r *pushReceiver) waitFor(t *testing.T, n int) []pushHit {
	t.Helper()
	end := time.Now().Add(10 * time.Second)
	for time.Now().Before(end) {
		r.mu.Lock()
		if len(r.hits) >= n {
			hits := append([]pushHit(nil), r.hits...)
			r.mu.Unlock()
			return hits
		}
		r.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("got %d of %d push requests", len(r.hits), n)
	return nil
}

type pushWrapper struct {
	Message struct {
		Data         []byte            `json:"data"`
		Attributes   map[string]string `json:"attributes"`
		MessageID    string            `json:"messageId"`
		MessageID2   string            `json:"message_id"`
		PublishTime  string            `json:"publishTime"`
		PublishTime2 string            `json:"publish_time"`
	} `json:"message"`
	Subscription string `json:"subscription"`
}

func TestPushWrapperAndRetryUntil2xx(t *testing.T) {
	r := newPushReceiver(t, 500, 503, 200)
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{PushConfig: &pb.PushConfig{PushEndpoint: r.url}})
	ids := publish(t, topic, []*pubsub.Message{{Data: []byte("hello"), Attributes: map[string]string{"color": "red"}}})
	hits := r.waitFor(t, 3)
	for _, h := range hits {
		var w pushWrapper
		if err := json.Unmarshal(h.body, &w); err != nil {
			t.Fatalf("wrapper: %v (%s)", err, h.body)
		}
		if string(w.Message.Data) != "hello" || w.Message.Attributes["color"] != "red" || w.Message.MessageID != ids[0] ||
			w.Message.MessageID2 != ids[0] || w.Message.PublishTime == "" || w.Message.PublishTime2 != w.Message.PublishTime || w.Subscription != sub {
			t.Errorf("wrapper %+v", w)
		}
	}
	// Redelivered after the push backoff: 100 ms, then 200 ms (lower bounds only).
	if d := hits[1].at.Sub(hits[0].at); d < 90*time.Millisecond {
		t.Errorf("first retry after %v", d)
	}
	if d := hits[2].at.Sub(hits[1].at); d < 190*time.Millisecond {
		t.Errorf("second retry after %v", d)
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(r.waitFor(t, 3)); n != 3 {
		t.Errorf("%d requests after the ack, want 3", n)
	}
	_, err := client.SubscriptionAdminClient.Pull(ctxFor(t, wait), &pb.PullRequest{Subscription: sub, MaxMessages: 1})
	wantCode(t, err, codes.FailedPrecondition, "Pull on a push subscription")
}

func TestPushNoWrapperWithMetadataThenPull(t *testing.T) {
	r := newPushReceiver(t)
	topic := newTopic(t, nil)
	sub := newSub(t, topic, &pb.Subscription{PushConfig: &pb.PushConfig{
		PushEndpoint: r.url,
		Wrapper:      &pb.PushConfig_NoWrapper_{NoWrapper: &pb.PushConfig_NoWrapper{WriteMetadata: true}},
	}})
	ids := publish(t, topic, []*pubsub.Message{{Data: []byte("raw-bytes"), Attributes: map[string]string{"color": "red"}}})
	h := r.waitFor(t, 1)[0]
	if string(h.body) != "raw-bytes" || h.header.Get("Color") != "red" || h.header.Get("X-Goog-Pubsub-Message-Id") != ids[0] ||
		h.header.Get("X-Goog-Pubsub-Subscription-Name") != sub || h.header.Get("X-Goog-Pubsub-Publish-Time") == "" {
		t.Errorf("body %q headers %v", h.body, h.header)
	}
	if err := client.SubscriptionAdminClient.ModifyPushConfig(ctxFor(t, wait), &pb.ModifyPushConfigRequest{Subscription: sub, PushConfig: &pb.PushConfig{}}); err != nil {
		t.Fatalf("ModifyPushConfig: %v", err)
	}
	publish(t, topic, []*pubsub.Message{{Data: []byte("pulled")}})
	if got := pullUntil(t, sub, 1, wait); len(got) != 1 || string(got[0].Message.Data) != "pulled" {
		t.Fatalf("pull after switching to pull: %v", got)
	}
}

func b64url(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("base64url %q: %v", s, err)
	}
	return b
}

func TestPushOIDCTokenVerifiesWithPublishedKeys(t *testing.T) {
	r := newPushReceiver(t)
	topic := newTopic(t, nil)
	email := "pusher@compat-test.iam.gserviceaccount.com"
	newSub(t, topic, &pb.Subscription{PushConfig: &pb.PushConfig{
		PushEndpoint:         r.url,
		AuthenticationMethod: &pb.PushConfig_OidcToken_{OidcToken: &pb.PushConfig_OidcToken{ServiceAccountEmail: email, Audience: "compat-aud"}},
	}})
	publish(t, topic, []*pubsub.Message{{Data: []byte("x")}})
	token := strings.TrimPrefix(r.waitFor(t, 1)[0].header.Get("Authorization"), "Bearer ")
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("token %q", token)
	}
	var header struct{ Alg, Kid string }
	_ = json.Unmarshal(b64url(t, parts[0]), &header)
	res, err := http.Get("http://" + os.Getenv("PUBSUB_EMULATOR_HOST") + "/oauth2/v3/certs")
	if err != nil {
		t.Fatalf("JWKS: %v", err)
	}
	defer res.Body.Close()
	var jwks struct{ Keys []struct{ Kid, N, E string } }
	if err := json.NewDecoder(res.Body).Decode(&jwks); err != nil {
		t.Fatalf("JWKS: %v", err)
	}
	var key *rsa.PublicKey
	for _, k := range jwks.Keys {
		if k.Kid == header.Kid {
			key = &rsa.PublicKey{N: new(big.Int).SetBytes(b64url(t, k.N)), E: int(new(big.Int).SetBytes(b64url(t, k.E)).Int64())}
		}
	}
	if key == nil || header.Alg != "RS256" {
		t.Fatalf("no key %q in %v (alg %s)", header.Kid, jwks, header.Alg)
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(key, crypto.SHA256, digest[:], b64url(t, parts[2])); err != nil {
		t.Fatalf("signature: %v", err)
	}
	var claims struct {
		Iss, Aud, Email string
		EmailVerified   bool `json:"email_verified"`
		Iat, Exp        int64
	}
	_ = json.Unmarshal(b64url(t, parts[1]), &claims)
	if claims.Iss != "https://accounts.google.com" || claims.Aud != "compat-aud" || claims.Email != email || !claims.EmailVerified || claims.Exp-claims.Iat != 3600 {
		t.Errorf("claims %+v", claims)
	}
}
