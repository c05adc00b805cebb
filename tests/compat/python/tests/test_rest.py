"""The generated clients with transport="rest": REST/JSON on the emulator's gRPC port.

The GAPIC clients wire PUBSUB_EMULATOR_HOST into a gRPC channel, so the REST clients are built
with it unset and pointed at the emulator by an http:// api_endpoint instead.
"""

import os

import pytest
from google.api_core import exceptions
from google.api_core.client_options import ClientOptions
from google.auth.credentials import AnonymousCredentials
from google.protobuf import duration_pb2, field_mask_pb2
from google.pubsub_v1 import PublisherClient, SubscriberClient
from google.pubsub_v1.types import RetryPolicy, Subscription

from conftest import sub_path, topic_path, unique


@pytest.fixture(scope="module")
def rest_clients():
    host = os.environ["PUBSUB_EMULATOR_HOST"]
    saved = os.environ.pop("PUBSUB_EMULATOR_HOST")
    try:
        options = ClientOptions(api_endpoint=f"http://{host}")
        creds = AnonymousCredentials()
        publisher = PublisherClient(transport="rest", client_options=options, credentials=creds)
        subscriber = SubscriberClient(transport="rest", client_options=options, credentials=creds)
    finally:
        os.environ["PUBSUB_EMULATOR_HOST"] = saved
    yield publisher, subscriber
    publisher.transport.close()
    subscriber.transport.close()


def test_rest_admin_publish_pull_ack(rest_clients):
    publisher, subscriber = rest_clients
    topic = topic_path(unique("rest-topic"))
    sub = sub_path(unique("rest-sub"))
    created = publisher.create_topic(request={"name": topic, "labels": {"team": "a"}}, timeout=30)
    assert created.labels == {"team": "a"}
    s = subscriber.create_subscription(
        request={
            "name": sub,
            "topic": topic,
            "ack_deadline_seconds": 30,
            "retry_policy": RetryPolicy(minimum_backoff=duration_pb2.Duration(seconds=1, nanos=500_000_000)),
        },
        timeout=30,
    )
    assert s.ack_deadline_seconds == 30
    assert s.retry_policy.minimum_backoff.total_seconds() == 1.5
    assert s.state == Subscription.State.ACTIVE

    updated = subscriber.update_subscription(
        request={
            "subscription": {"name": sub, "ack_deadline_seconds": 45},
            "update_mask": field_mask_pb2.FieldMask(paths=["ack_deadline_seconds"]),
        },
        timeout=30,
    )
    assert updated.ack_deadline_seconds == 45

    resp = publisher.publish(
        request={
            "topic": topic,
            "messages": [{"data": b"\x00\xffrest", "attributes": {"k": "v"}}, {"data": b"two"}],
        },
        timeout=30,
    )
    assert len(resp.message_ids) == 2

    pulled = subscriber.pull(request={"subscription": sub, "max_messages": 10}, timeout=30)
    by_id = {r.message.message_id: r for r in pulled.received_messages}
    assert set(by_id) == set(resp.message_ids)
    first = by_id[resp.message_ids[0]]
    assert first.message.data == b"\x00\xffrest"
    assert dict(first.message.attributes) == {"k": "v"}
    assert first.message.publish_time.timestamp() > 0

    subscriber.acknowledge(
        request={"subscription": sub, "ack_ids": [r.ack_id for r in pulled.received_messages]},
        timeout=30,
    )
    again = subscriber.pull(request={"subscription": sub, "max_messages": 10, "return_immediately": True}, timeout=30)
    assert list(again.received_messages) == []

    names = [t.name for t in publisher.list_topics(request={"project": "projects/compat-test"}, timeout=30)]
    assert topic in names
    subscriber.delete_subscription(request={"subscription": sub}, timeout=30)
    publisher.delete_topic(request={"topic": topic}, timeout=30)
    with pytest.raises(exceptions.NotFound):
        publisher.get_topic(request={"topic": topic}, timeout=30)


def status_of(err):
    """The google.rpc.Code name in the error body (api_core picks the class by HTTP status)."""
    return err.response.json()["error"]["status"]


def test_rest_errors_carry_code_and_details(rest_clients):
    publisher, subscriber = rest_clients
    with pytest.raises(exceptions.BadRequest) as bad:
        publisher.create_topic(request={"name": topic_path("ab")}, timeout=30)
    assert bad.value.code == 400 and status_of(bad.value) == "INVALID_ARGUMENT"
    assert "ab" in str(bad.value)
    topic = topic_path(unique("rest-topic"))
    sub = sub_path(unique("rest-sub"))
    publisher.create_topic(request={"name": topic}, timeout=30)
    subscriber.create_subscription(request={"name": sub, "topic": topic}, timeout=30)
    with pytest.raises(exceptions.BadRequest) as deadline:
        subscriber.modify_ack_deadline(
            request={"subscription": sub, "ack_ids": ["x"], "ack_deadline_seconds": 601}, timeout=30
        )
    assert "ack_deadline_seconds" in str(deadline.value)
    assert any("ack_deadline_seconds" in str(d) for d in deadline.value.details)
    with pytest.raises(exceptions.Conflict) as exists:
        publisher.create_topic(request={"name": topic}, timeout=30)
    assert status_of(exists.value) == "ALREADY_EXISTS"
    subscriber.delete_subscription(request={"subscription": sub}, timeout=30)
    publisher.delete_topic(request={"topic": topic}, timeout=30)
