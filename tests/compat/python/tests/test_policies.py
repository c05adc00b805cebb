"""Dead-letter policy and delivery attempts, filters, retry policy.

Delivery goes through the high-level streaming subscriber, as applications receive it; the
status-code checks go through the raw admin calls.
"""

import datetime
import threading
import time

import pytest
from google.api_core import exceptions

from conftest import nack_then_ack, pull_for, pull_until, run_subscriber, sub_path, topic_path, unique

WAIT = 30


def publish_all(publisher, topic, *messages):
    """Publishes (data, attributes) pairs; returns the message ids in order."""
    futures = [publisher.publish(topic, data, **attrs) for data, attrs in messages]
    return [f.result(timeout=WAIT) for f in futures]


def grace_after(event, seconds):
    """A done() that turns true `seconds` after `event` is set (to catch late deliveries)."""
    at = []

    def done():
        if event.is_set() and not at:
            at.append(time.monotonic() + seconds)
        return bool(at) and time.monotonic() > at[0]

    return done


# ---- dead-letter policy and delivery attempts ----


def test_dead_letter_after_max_delivery_attempts(res, publisher, subscriber):
    topic = res.topic()
    dead_topic = res.topic(prefix="dead")
    dead_sub = res.subscription(dead_topic, prefix="dead")
    sub = res.subscription(
        topic, dead_letter_policy={"dead_letter_topic": dead_topic, "max_delivery_attempts": 5}
    )
    got = subscriber.get_subscription(request={"subscription": sub}, timeout=WAIT)
    assert got.dead_letter_policy.dead_letter_topic == dead_topic
    assert got.dead_letter_policy.max_delivery_attempts == 5

    [mid] = publish_all(publisher, topic, (b"poison", {"kind": "dlq"}))
    attempts = []
    dead = []
    dead_seen = threading.Event()

    def on_dead(msg):
        dead.append((msg.data, dict(msg.attributes)))
        msg.ack()
        dead_seen.set()

    def callback(msg):
        attempts.append((msg.message_id, msg.delivery_attempt))
        msg.nack()

    dead_future = subscriber.subscribe(dead_sub, on_dead)
    try:
        # Keep nacking until the message shows up on the dead-letter topic, then 1 s more.
        run_subscriber(subscriber, sub, callback, done=grace_after(dead_seen, 1))
    finally:
        dead_future.cancel()
        try:
            dead_future.result(timeout=10)
        except Exception:
            pass
    assert attempts == [(mid, n) for n in range(1, 6)]
    assert len(dead) == 1, dead
    assert dead[0][0] == b"poison"
    assert dead[0][1].get("kind") == "dlq"


def test_delivery_attempt_is_none_without_dead_letter_policy(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    publish_all(publisher, topic, (b"plain", {}))
    attempts = [m.delivery_attempt for m in nack_then_ack(subscriber, sub)]
    assert attempts[:2] == [None, None]


def create_dead_lettering(subscriber, topic, dead_letter_topic, max_delivery_attempts):
    """CreateSubscription on topic with a dead-letter policy, through the raw admin call."""
    return subscriber.create_subscription(
        request={
            "name": sub_path(unique("sub")),
            "topic": topic,
            "dead_letter_policy": {
                "dead_letter_topic": dead_letter_topic,
                "max_delivery_attempts": max_delivery_attempts,
            },
        },
        timeout=WAIT,
    )


@pytest.mark.parametrize("max_attempts", [4, 101])
def test_max_delivery_attempts_out_of_range_is_invalid_argument(res, subscriber, max_attempts):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        create_dead_lettering(subscriber, topic, res.topic(prefix="dead"), max_attempts)


def test_missing_dead_letter_topic_is_not_found(res, subscriber):
    topic = res.topic()
    with pytest.raises(exceptions.NotFound):
        create_dead_lettering(subscriber, topic, topic_path(unique("missing")), 5)


# ---- filters ----


def test_filter_delivers_only_matching_messages(res, publisher, subscriber):
    topic = res.topic()
    red = 'attributes.color = "red"'
    sub = res.subscription(topic, filter=red)
    assert subscriber.get_subscription(request={"subscription": sub}, timeout=WAIT).filter == red
    ids = publish_all(
        publisher,
        topic,
        (b"red-1", {"color": "red"}),
        (b"blue-1", {"color": "blue"}),
        (b"none-1", {}),
        (b"red-2", {"color": "red", "size": "L"}),
        (b"red-upper", {"color": "RED"}),
        (b"other-key", {"colour": "red"}),
    )
    received = {}
    lock = threading.Lock()
    both = threading.Event()

    def callback(msg):
        with lock:
            received[msg.message_id] = msg.data
            if len(received) >= 2:
                both.set()
        msg.ack()

    # Both red messages, then 2 s more in which nothing else may arrive.
    run_subscriber(subscriber, sub, callback, done=grace_after(both, 2))
    assert received == {ids[0]: b"red-1", ids[3]: b"red-2"}


@pytest.mark.parametrize(
    "filter, want, messages",
    [
        pytest.param(
            'hasPrefix(attributes.path, "/api/")',
            [b"api"],
            [(b"api", {"path": "/api/v1/users"}), (b"apis", {"path": "/apis"}), (b"web", {"path": "/web/api/"}), (b"none", {})],
            id="has_prefix",
        ),
        pytest.param(
            "NOT attributes:x",
            [b"has-y", b"no-attrs"],
            [(b"has-x", {"x": "1"}), (b"empty-x", {"x": ""}), (b"has-y", {"y": "1"}), (b"no-attrs", {})],
            id="not_has_attribute",
        ),
    ],
)
def test_filter(res, publisher, subscriber, filter, want, messages):
    """Publishes messages to a new subscription with filter; everything it delivers (unary
    pull until want arrived, then 1 s more) is want."""
    topic = res.topic()
    sub = res.subscription(topic, filter=filter)
    publish_all(publisher, topic, *messages)
    got = pull_until(subscriber, sub, want=len(want), within=WAIT)
    got += pull_for(subscriber, sub, 1)
    assert sorted(r.message.data for r in got) == want


def test_unparsable_filter_is_invalid_argument(res, subscriber):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.create_subscription(
            request={"name": sub_path(unique("sub")), "topic": topic, "filter": "attributes.color = = ("},
            timeout=WAIT,
        )


def test_update_filter_is_invalid_argument(res, subscriber):
    topic = res.topic()
    red = 'attributes.color = "red"'
    sub = res.subscription(topic, filter=red)
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.update_subscription(
            request={
                "subscription": {"name": sub, "filter": "attributes:x"},
                "update_mask": {"paths": ["filter"]},
            },
            timeout=WAIT,
        )
    assert subscriber.get_subscription(request={"subscription": sub}, timeout=WAIT).filter == red


# ---- retry policy ----


def test_retry_policy_delays_redelivery_after_nack(res, publisher, subscriber):
    topic = res.topic()
    two = datetime.timedelta(seconds=2)
    sub = res.subscription(topic, retry_policy={"minimum_backoff": two, "maximum_backoff": two})
    got = subscriber.get_subscription(request={"subscription": sub}, timeout=WAIT)
    assert got.retry_policy.minimum_backoff == two
    assert got.retry_policy.maximum_backoff == two

    [mid] = publish_all(publisher, topic, (b"backoff", {}))
    deliveries = []

    def callback(msg):
        deliveries.append((msg.message_id, time.monotonic()))
        if len(deliveries) == 1:
            msg.nack()
        else:
            msg.ack()

    run_subscriber(subscriber, sub, callback, done=lambda: len(deliveries) >= 2)
    assert [d[0] for d in deliveries[:2]] == [mid, mid], deliveries
    gap = deliveries[1][1] - deliveries[0][1]
    assert gap >= 1.8, f"redelivered {gap:.2f} s after the nack; minimum_backoff is 2 s"
