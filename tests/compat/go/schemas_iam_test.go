package compat

// Schemas (SchemaClient, topics with schema_settings) and IAM (get/set/test on topics,
// subscriptions and schemas), through the generated clients.

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"

	iampb "cloud.google.com/go/iam/apiv1/iampb"
	"cloud.google.com/go/pubsub/v2"
	vkit "cloud.google.com/go/pubsub/v2/apiv1"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/grpc/codes"
)

const avroState = `{"type":"record","name":"State","namespace":"utilities","fields":[{"name":"name","type":"string"},{"name":"post_abbr","type":"string"}]}`
const avroStateV2 = `{"type":"record","name":"State","namespace":"utilities","fields":[{"name":"name","type":"string"},{"name":"post_abbr","type":"string"},{"name":"capital","type":"string","default":""}]}`

var (
	schemaOnce   sync.Once
	schemaClient *vkit.SchemaClient
)

func schemas(t *testing.T) *vkit.SchemaClient {
	t.Helper()
	schemaOnce.Do(func() {
		c, err := vkit.NewSchemaClient(context.Background())
		if err != nil {
			t.Fatalf("NewSchemaClient: %v", err)
		}
		schemaClient = c
	})
	return schemaClient
}

func newSchema(t *testing.T) *pb.Schema {
	t.Helper()
	s, err := schemas(t).CreateSchema(ctxFor(t, wait), &pb.CreateSchemaRequest{
		Parent: projectPath, SchemaId: unique("schema"), Schema: &pb.Schema{Type: pb.Schema_AVRO, Definition: avroState},
	})
	if err != nil {
		t.Fatalf("CreateSchema: %v", err)
	}
	t.Cleanup(func() { _ = schemas(t).DeleteSchema(ctxFor(t, wait), &pb.DeleteSchemaRequest{Name: s.Name}) })
	return s
}

func TestSchemaCreateGetValidate(t *testing.T) {
	s := newSchema(t)
	if len(s.RevisionId) != 8 {
		t.Errorf("revision id %q", s.RevisionId)
	}
	got, err := schemas(t).GetSchema(ctxFor(t, wait), &pb.GetSchemaRequest{Name: s.Name})
	if err != nil || got.Definition != avroState || got.Type != pb.Schema_AVRO {
		t.Fatalf("GetSchema = %v, %v", got, err)
	}
	_, err = schemas(t).ValidateSchema(ctxFor(t, wait), &pb.ValidateSchemaRequest{Parent: projectPath, Schema: &pb.Schema{Type: pb.Schema_AVRO, Definition: "not avro"}})
	wantCode(t, err, codes.InvalidArgument, "ValidateSchema of a bad definition")
	good, _ := json.Marshal(map[string]string{"name": "Alaska", "post_abbr": "AK"})
	if _, err := schemas(t).ValidateMessage(ctxFor(t, wait), &pb.ValidateMessageRequest{Parent: projectPath, SchemaSpec: &pb.ValidateMessageRequest_Name{Name: s.Name}, Message: good, Encoding: pb.Encoding_JSON}); err != nil {
		t.Errorf("ValidateMessage: %v", err)
	}
	_, err = schemas(t).ValidateMessage(ctxFor(t, wait), &pb.ValidateMessageRequest{Parent: projectPath, SchemaSpec: &pb.ValidateMessageRequest_Name{Name: s.Name}, Message: []byte(`{"name":1}`), Encoding: pb.Encoding_JSON})
	wantCode(t, err, codes.InvalidArgument, "ValidateMessage of a bad message")
}

func TestSchemaRevisions(t *testing.T) {
	s := newSchema(t)
	v2, err := schemas(t).CommitSchema(ctxFor(t, wait), &pb.CommitSchemaRequest{Name: s.Name, Schema: &pb.Schema{Type: pb.Schema_AVRO, Definition: avroStateV2}})
	if err != nil {
		t.Fatalf("CommitSchema: %v", err)
	}
	var ids []string
	it := schemas(t).ListSchemaRevisions(ctxFor(t, wait), &pb.ListSchemaRevisionsRequest{Name: s.Name})
	for r, err := it.Next(); err == nil; r, err = it.Next() {
		ids = append(ids, r.RevisionId)
	}
	if !slices.Equal(ids, []string{v2.RevisionId, s.RevisionId}) {
		t.Errorf("revisions %v, want newest first [%s %s]", ids, v2.RevisionId, s.RevisionId)
	}
	rolled, err := schemas(t).RollbackSchema(ctxFor(t, wait), &pb.RollbackSchemaRequest{Name: s.Name, RevisionId: s.RevisionId})
	if err != nil || rolled.Definition != avroState {
		t.Fatalf("RollbackSchema = %v, %v", rolled, err)
	}
	if _, err := schemas(t).DeleteSchemaRevision(ctxFor(t, wait), &pb.DeleteSchemaRevisionRequest{Name: s.Name + "@" + v2.RevisionId}); err != nil {
		t.Fatalf("DeleteSchemaRevision: %v", err)
	}
	_, err = schemas(t).GetSchema(ctxFor(t, wait), &pb.GetSchemaRequest{Name: s.Name + "@" + v2.RevisionId})
	wantCode(t, err, codes.NotFound, "GetSchema of a deleted revision")
}

func TestSchemaTopicValidatesAndTagsMessages(t *testing.T) {
	s := newSchema(t)
	topic := newTopic(t, &pb.Topic{SchemaSettings: &pb.SchemaSettings{Schema: s.Name, Encoding: pb.Encoding_JSON}})
	sub := newSub(t, topic, nil)
	publish(t, topic, []*pubsub.Message{{Data: []byte(`{"name":"Alaska","post_abbr":"AK"}`)}})
	got := pullUntil(t, sub, 1, wait)
	if len(got) != 1 {
		t.Fatalf("pulled %d messages", len(got))
	}
	a := got[0].Message.Attributes
	if a["googclient_schemaname"] != s.Name || a["googclient_schemaencoding"] != "JSON" || a["googclient_schemarevisionid"] != s.RevisionId {
		t.Errorf("attributes %v", a)
	}
	p := client.Publisher(topic)
	t.Cleanup(p.Stop)
	_, err := p.Publish(ctxFor(t, wait), &pubsub.Message{Data: []byte(`{"name":42}`)}).Get(ctxFor(t, wait))
	wantCode(t, err, codes.InvalidArgument, "publishing a non-conforming message")
}

func TestIAMPolicies(t *testing.T) {
	topic := newTopic(t, nil)
	sub := newSub(t, topic, nil)
	s := newSchema(t)
	type iamClient interface {
		getPolicy(string) (*iampb.Policy, error)
		setPolicy(string, *iampb.Policy) (*iampb.Policy, error)
		test(string, []string) ([]string, error)
	}
	clients := map[string]iamClient{
		topic:  iamFuncs{t, client.TopicAdminClient.GetIamPolicy, client.TopicAdminClient.SetIamPolicy, client.TopicAdminClient.TestIamPermissions},
		sub:    iamFuncs{t, client.SubscriptionAdminClient.GetIamPolicy, client.SubscriptionAdminClient.SetIamPolicy, client.SubscriptionAdminClient.TestIamPermissions},
		s.Name: iamFuncs{t, schemas(t).GetIamPolicy, schemas(t).SetIamPolicy, schemas(t).TestIamPermissions},
	}
	for resource, c := range clients {
		p, err := c.getPolicy(resource)
		if err != nil || len(p.Bindings) != 0 || p.Version != 0 {
			t.Fatalf("%s: GetIamPolicy = %v, %v", resource, p, err)
		}
		p.Bindings = []*iampb.Binding{{Role: "roles/pubsub.editor", Members: []string{"domain:google.com"}}, {Role: "roles/pubsub.viewer", Members: []string{"group:cloud-logs@google.com"}}}
		set, err := c.setPolicy(resource, p)
		if err != nil {
			t.Fatalf("%s: SetIamPolicy: %v", resource, err)
		}
		got, err := c.getPolicy(resource)
		if err != nil || len(got.Bindings) != 2 || got.Bindings[0].Role != "roles/pubsub.editor" || string(got.Etag) != string(set.Etag) {
			t.Errorf("%s: GetIamPolicy after set = %v, %v", resource, got, err)
		}
		_, err = c.setPolicy(resource, p) // p still carries the etag read before the set
		wantCode(t, err, codes.Aborted, resource+": SetIamPolicy with a stale etag")
		perms, err := c.test(resource, []string{"pubsub.topics.get", "pubsub.subscriptions.consume"})
		if err != nil || len(perms) != 2 {
			t.Errorf("%s: TestIamPermissions = %v, %v", resource, perms, err)
		}
	}
	_, err := clients[topic].getPolicy(topicPath(unique("missing")))
	wantCode(t, err, codes.NotFound, "GetIamPolicy of a missing topic")
}
