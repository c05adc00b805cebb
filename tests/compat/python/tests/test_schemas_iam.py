"""Schemas (SchemaServiceClient, topics with schema_settings) and IAM (get/set/test on topics,
subscriptions and schemas), through the generated clients as applications call them.
"""

import json

import pytest
from google.api_core import exceptions
from google.cloud import pubsub_v1
from google.pubsub_v1.types import Encoding, Schema

from conftest import PROJECT_PATH, pull_until, unique

WAIT = 30
AVRO = json.dumps(
    {
        "type": "record",
        "name": "State",
        "namespace": "utilities",
        "fields": [{"name": "name", "type": "string"}, {"name": "post_abbr", "type": "string"}],
    }
)
AVRO_V2 = json.dumps(
    {
        "type": "record",
        "name": "State",
        "namespace": "utilities",
        "fields": [
            {"name": "name", "type": "string"},
            {"name": "post_abbr", "type": "string"},
            {"name": "capital", "type": "string", "default": ""},
        ],
    }
)
PROTO = 'syntax = "proto3";\npackage utilities;\nmessage StateProto {\n  string name = 1;\n  string post_abbr = 2;\n}\n'


@pytest.fixture(scope="module")
def schemas():
    return pubsub_v1.SchemaServiceClient()


@pytest.fixture
def schema(schemas):
    """An Avro schema, deleted afterwards."""
    schema_id = unique("schema")
    created = schemas.create_schema(
        request={"parent": PROJECT_PATH, "schema": {"type_": Schema.Type.AVRO, "definition": AVRO}, "schema_id": schema_id},
        timeout=WAIT,
    )
    yield created
    try:
        schemas.delete_schema(request={"name": created.name}, timeout=10)
    except exceptions.GoogleAPICallError:
        pass


def test_schema_create_get_list_validate(schemas, schema):
    assert schema.name == f"{PROJECT_PATH}/schemas/{schema.name.split('/')[-1]}"
    assert len(schema.revision_id) == 8
    got = schemas.get_schema(request={"name": schema.name}, timeout=WAIT)
    assert got.definition == AVRO
    assert got.type_ == Schema.Type.AVRO
    listed = [s for s in schemas.list_schemas(request={"parent": PROJECT_PATH}, timeout=WAIT) if s.name == schema.name]
    assert len(listed) == 1 and listed[0].definition == ""  # BASIC view by default
    schemas.validate_schema(request={"parent": PROJECT_PATH, "schema": {"type_": Schema.Type.PROTOCOL_BUFFER, "definition": PROTO}}, timeout=WAIT)
    with pytest.raises(exceptions.InvalidArgument):
        schemas.validate_schema(request={"parent": PROJECT_PATH, "schema": {"type_": Schema.Type.AVRO, "definition": "not avro"}}, timeout=WAIT)
    message = json.dumps({"name": "Alaska", "post_abbr": "AK"}).encode()
    schemas.validate_message(request={"parent": PROJECT_PATH, "name": schema.name, "message": message, "encoding": Encoding.JSON}, timeout=WAIT)
    with pytest.raises(exceptions.InvalidArgument):
        schemas.validate_message(request={"parent": PROJECT_PATH, "name": schema.name, "message": b'{"name": 1}', "encoding": Encoding.JSON}, timeout=WAIT)
    with pytest.raises(exceptions.AlreadyExists):
        schemas.create_schema(request={"parent": PROJECT_PATH, "schema": {"type_": Schema.Type.AVRO, "definition": AVRO}, "schema_id": schema.name.split("/")[-1]}, timeout=WAIT)


def test_schema_revisions(schemas, schema):
    v2 = schemas.commit_schema(request={"name": schema.name, "schema": {"type_": Schema.Type.AVRO, "definition": AVRO_V2}}, timeout=WAIT)
    revisions = list(schemas.list_schema_revisions(request={"name": schema.name}, timeout=WAIT))
    assert [r.revision_id for r in revisions] == [v2.revision_id, schema.revision_id]
    first = schemas.get_schema(request={"name": f"{schema.name}@{schema.revision_id}"}, timeout=WAIT)
    assert first.definition == AVRO
    rolled = schemas.rollback_schema(request={"name": schema.name, "revision_id": schema.revision_id}, timeout=WAIT)
    assert rolled.definition == AVRO and rolled.revision_id not in (schema.revision_id, v2.revision_id)
    schemas.delete_schema_revision(request={"name": f"{schema.name}@{v2.revision_id}"}, timeout=WAIT)
    with pytest.raises(exceptions.NotFound):
        schemas.get_schema(request={"name": f"{schema.name}@{v2.revision_id}"}, timeout=WAIT)


def test_schema_topic_validates_publishes_and_tags_messages(res, publisher, subscriber, schema):
    topic = res.topic(schema_settings={"schema": schema.name, "encoding": Encoding.JSON})
    sub = res.subscription(topic)
    good = json.dumps({"name": "Alaska", "post_abbr": "AK"}).encode()
    publisher.publish(topic, good).result(timeout=WAIT)
    [m] = pull_until(subscriber, sub, 1, WAIT)
    attrs = dict(m.message.attributes)
    assert attrs["googclient_schemaname"] == schema.name
    assert attrs["googclient_schemaencoding"] == "JSON"
    assert attrs["googclient_schemarevisionid"] == schema.revision_id
    with pytest.raises(exceptions.InvalidArgument):
        publisher.publish(topic, b'{"name": 42}').result(timeout=WAIT)


def test_iam_policy_topic_and_subscription(res, publisher, subscriber):
    """Mirrors python-pubsub tests/system.py test_managing_{topic,subscription}_iam_policy."""
    topic = res.topic()
    sub = res.subscription(topic)
    for client, resource in ((publisher, topic), (subscriber, sub)):
        policy = client.get_iam_policy(request={"resource": resource}, timeout=WAIT)
        assert list(policy.bindings) == [] and policy.version == 0
        policy.bindings.add(role="roles/pubsub.editor", members=["domain:google.com"])
        policy.bindings.add(role="roles/pubsub.viewer", members=["group:cloud-logs@google.com"])
        new_policy = client.set_iam_policy(request={"resource": resource, "policy": policy}, timeout=WAIT)
        got = client.get_iam_policy(request={"resource": resource}, timeout=WAIT)
        assert got.bindings == new_policy.bindings and len(got.bindings) == 2
        roles = sorted((b.role, list(b.members)) for b in got.bindings)
        assert roles == [("roles/pubsub.editor", ["domain:google.com"]), ("roles/pubsub.viewer", ["group:cloud-logs@google.com"])]
        with pytest.raises(exceptions.Aborted):
            client.set_iam_policy(request={"resource": resource, "policy": policy}, timeout=WAIT)  # its etag is stale now
        perms = client.test_iam_permissions(request={"resource": resource, "permissions": ["pubsub.topics.get", "pubsub.subscriptions.consume"]}, timeout=WAIT)
        assert list(perms.permissions) == ["pubsub.topics.get", "pubsub.subscriptions.consume"]
    with pytest.raises(exceptions.NotFound):
        publisher.get_iam_policy(request={"resource": f"{PROJECT_PATH}/topics/{unique('missing')}"}, timeout=WAIT)


def test_iam_policy_schema(schemas, schema):
    policy = schemas.get_iam_policy(request={"resource": schema.name}, timeout=WAIT)
    policy.bindings.add(role="roles/pubsub.viewer", members=["allUsers"])
    schemas.set_iam_policy(request={"resource": schema.name, "policy": policy}, timeout=WAIT)
    assert [b.role for b in schemas.get_iam_policy(request={"resource": schema.name}, timeout=WAIT).bindings] == ["roles/pubsub.viewer"]
