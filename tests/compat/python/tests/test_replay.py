"""Snapshots, seek and exactly-once delivery through the Python client.

Admin calls and Seek go through the generated clients; exactly-once acks go through the
high-level streaming subscriber's ack_with_response(), as applications use it.
"""

import datetime
import threading
import time

import pytest
from google.api_core import exceptions
from google.cloud.pubsub_v1.subscriber import exceptions as sub_exceptions
from google.protobuf import timestamp_pb2

from conftest import PROJECT_PATH, pull_until, run_subscriber, stop_streaming, unique

WAIT = 30


def snap_path(snap_id):
    return f"{PROJECT_PATH}/snapshots/{snap_id}"


def ack_all(subscriber, sub, received):
    subscriber.acknowledge(request={"subscription": sub, "ack_ids": [r.ack_id for r in received]}, timeout=WAIT)


def timestamp(dt):
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(dt)
    return ts


@pytest.fixture
def snapshots(subscriber):
    names = []
    yield names
    for n in names:
        try:
            subscriber.delete_snapshot(request={"snapshot": n}, timeout=10)
        except exceptions.GoogleAPICallError:
            pass


def test_snapshot_create_get_list_update_delete(res, publisher, subscriber, snapshots):
    topic = res.topic()
    sub = res.subscription(topic)
    name = snap_path(unique("snap"))
    created = subscriber.create_snapshot(request={"name": name, "subscription": sub, "labels": {"k": "v"}}, timeout=WAIT)
    snapshots.append(name)
    assert created.name == name and created.topic == topic
    assert dict(created.labels) == {"k": "v"}
    lifetime = created.expire_time.timestamp() - time.time()
    assert 6.9 * 86400 < lifetime <= 7 * 86400
    assert subscriber.get_snapshot(request={"snapshot": name}, timeout=WAIT).name == name
    listed = [s.name for s in subscriber.list_snapshots(request={"project": PROJECT_PATH, "page_size": 1})]
    assert name in listed
    assert list(publisher.list_topic_snapshots(request={"topic": topic})) == [name]
    updated = subscriber.update_snapshot(
        request={"snapshot": {"name": name, "labels": {"k": "w"}}, "update_mask": {"paths": ["labels"]}}, timeout=WAIT
    )
    assert dict(updated.labels) == {"k": "w"}
    with pytest.raises(exceptions.AlreadyExists):
        subscriber.create_snapshot(request={"name": name, "subscription": sub}, timeout=WAIT)
    subscriber.delete_snapshot(request={"snapshot": name}, timeout=WAIT)
    with pytest.raises(exceptions.NotFound):
        subscriber.get_snapshot(request={"snapshot": name}, timeout=WAIT)


def test_seek_to_snapshot_replays(res, publisher, subscriber, snapshots):
    topic = res.topic()
    sub = res.subscription(topic)
    name = snap_path(unique("snap"))
    subscriber.create_snapshot(request={"name": name, "subscription": sub}, timeout=WAIT)
    snapshots.append(name)
    publisher.publish(topic, b"after").result(timeout=WAIT)
    got = pull_until(subscriber, sub, 1, within=10)
    assert [r.message.data for r in got] == [b"after"]
    ack_all(subscriber, sub, got)
    subscriber.seek(request={"subscription": sub, "snapshot": name}, timeout=WAIT)
    again = pull_until(subscriber, sub, 1, within=10)
    assert [r.message.data for r in again] == [b"after"]


def test_seek_to_time_replays_retained_acked_messages_and_future_purges(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic, retain_acked_messages=True)
    start = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=1)
    for d in (b"a", b"b"):
        publisher.publish(topic, d).result(timeout=WAIT)
    got = pull_until(subscriber, sub, 2, within=10)
    ack_all(subscriber, sub, got)
    subscriber.seek(request={"subscription": sub, "time": timestamp(start)}, timeout=WAIT)
    again = pull_until(subscriber, sub, 2, within=10)
    assert sorted(r.message.data for r in again) == [b"a", b"b"]
    future = datetime.datetime(3000, 1, 1, tzinfo=datetime.timezone.utc)
    subscriber.seek(request={"subscription": sub, "time": timestamp(future)}, timeout=WAIT)
    assert pull_until(subscriber, sub, 1, within=1.5) == []


def test_seek_to_snapshot_of_other_topic_is_failed_precondition(res, subscriber, snapshots):
    one = res.subscription(res.topic())
    two = res.subscription(res.topic())
    name = snap_path(unique("snap"))
    subscriber.create_snapshot(request={"name": name, "subscription": one}, timeout=WAIT)
    snapshots.append(name)
    with pytest.raises(exceptions.FailedPrecondition):
        subscriber.seek(request={"subscription": two, "snapshot": name}, timeout=WAIT)


def test_exactly_once_ack_with_response(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic, enable_exactly_once_delivery=True)
    got = []
    arrived = threading.Event()

    def callback(msg):
        got.append(msg)
        arrived.set()

    future = subscriber.subscribe(sub, callback)
    try:
        publisher.publish(topic, b"once").result(timeout=WAIT)
        assert arrived.wait(WAIT)
        # A seek ends every lease: the first ack id goes stale and the message comes again.
        past = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1)
        subscriber.seek(request={"subscription": sub, "time": timestamp(past)}, timeout=WAIT)
        end = time.monotonic() + WAIT
        while len(got) < 2 and time.monotonic() < end:
            time.sleep(0.05)
        assert len(got) >= 2
        with pytest.raises(sub_exceptions.AcknowledgeError) as stale:
            got[0].ack_with_response().result(timeout=WAIT)
        assert stale.value.error_code == sub_exceptions.AcknowledgeStatus.INVALID_ACK_ID
        assert got[1].ack_with_response().result(timeout=WAIT) == sub_exceptions.AcknowledgeStatus.SUCCESS
    finally:
        stop_streaming(future)


def test_exactly_once_unary_ack_of_unknown_id_is_invalid_argument(res, subscriber):
    sub = res.subscription(res.topic(), enable_exactly_once_delivery=True)
    with pytest.raises(exceptions.InvalidArgument) as err:
        subscriber.acknowledge(request={"subscription": sub, "ack_ids": ["no-such-ack-id"]}, timeout=WAIT)
    assert "EXACTLY_ONCE_ACKID_FAILURE" in str(err.value.details) or "acknowledgement ids" in str(err.value)
