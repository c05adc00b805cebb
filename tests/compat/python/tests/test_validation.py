"""Validation errors where the exact status code matters (raw GAPIC calls, no batching)."""

import pytest
from google.api_core import exceptions

from conftest import pull_until

WAIT = 30


def publish_raw(gapic_publisher, topic, *messages):
    return gapic_publisher.publish(
        request={"topic": topic, "messages": list(messages)}, retry=None, timeout=WAIT
    )


def test_publish_limits_accepted_at_the_edge(res, gapic_publisher):
    topic = res.topic()
    resp = publish_raw(
        gapic_publisher,
        topic,
        {"data": b"x", "attributes": {f"k{i}": "v" for i in range(100)}},
        {"data": b"x", "attributes": {"k" * 256: "v" * 1024}},
    )
    assert len(resp.message_ids) == 2


@pytest.mark.parametrize(
    "message",
    [
        pytest.param({"data": b"x", "attributes": {f"k{i}": "v" for i in range(101)}}, id="101-attributes"),
        pytest.param({"data": b"x", "attributes": {"k" * 257: "v"}}, id="key-257-bytes"),
        # 2-byte UTF-8 characters: 129 characters = 258 bytes, so the limit is bytes.
        pytest.param({"data": b"x", "attributes": {"\u00e9" * 129: "v"}}, id="key-258-bytes-129-chars"),
        pytest.param({"data": b"x", "attributes": {"k": "v" * 1025}}, id="value-1025-bytes"),
        pytest.param({"data": b""}, id="empty-message"),
    ],
)
def test_publish_validation_is_invalid_argument(res, gapic_publisher, message):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        publish_raw(gapic_publisher, topic, message)


def test_publish_to_missing_topic_is_not_found(gapic_publisher):
    with pytest.raises(exceptions.NotFound):
        publish_raw(gapic_publisher, "projects/compat-test/topics/missing-topic-xyz", {"data": b"x"})


def test_mixed_ordering_keys_is_failed_precondition(res, gapic_publisher):
    topic = res.topic()
    with pytest.raises(exceptions.FailedPrecondition):
        publish_raw(
            gapic_publisher,
            topic,
            {"data": b"1", "ordering_key": "a"},
            {"data": b"2", "ordering_key": "b"},
        )
    with pytest.raises(exceptions.FailedPrecondition):
        publish_raw(gapic_publisher, topic, {"data": b"1", "ordering_key": "a"}, {"data": b"2"})
    # One key for the whole request is fine.
    resp = publish_raw(
        gapic_publisher, topic, {"data": b"1", "ordering_key": "a"}, {"data": b"2", "ordering_key": "a"}
    )
    assert len(resp.message_ids) == 2


def test_modify_ack_deadline_601_is_invalid_argument(res, gapic_publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    publish_raw(gapic_publisher, topic, {"data": b"x"})
    [r] = pull_until(subscriber, sub, want=1, within=WAIT)
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.modify_ack_deadline(
            request={"subscription": sub, "ack_ids": [r.ack_id], "ack_deadline_seconds": 601},
            retry=None,
            timeout=WAIT,
        )
    # 600 is the maximum and is accepted.
    subscriber.modify_ack_deadline(
        request={"subscription": sub, "ack_ids": [r.ack_id], "ack_deadline_seconds": 600},
        retry=None,
        timeout=WAIT,
    )


def test_publish_1001_messages_is_invalid_argument(res, gapic_publisher):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        publish_raw(gapic_publisher, topic, *({"data": b"x"} for _ in range(1001)))
    assert len(publish_raw(gapic_publisher, topic, *({"data": b"x"} for _ in range(1000))).message_ids) == 1000


def test_publish_over_10mb_is_invalid_argument(res, gapic_publisher):
    # 10,000,001 bytes of data: over the 10 MB (decimal) request limit, under 10 MiB.
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        publish_raw(gapic_publisher, topic, {"data": b"x" * 10_000_001})


def test_unknown_update_mask_path_is_invalid_argument(res, publisher, subscriber):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        publisher.update_topic(
            request={"topic": {"name": topic}, "update_mask": {"paths": ["not_a_field"]}}, timeout=WAIT
        )
    sub = res.subscription(topic)
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.update_subscription(
            request={"subscription": {"name": sub}, "update_mask": {"paths": ["not_a_field"]}}, timeout=WAIT
        )


def test_pull_from_missing_subscription_is_not_found(subscriber):
    missing = "projects/compat-test/subscriptions/missing-sub-xyz"
    with pytest.raises(exceptions.NotFound):
        subscriber.pull(request={"subscription": missing, "max_messages": 1}, retry=None, timeout=WAIT)
    # The high-level streaming subscriber surfaces it through its future.
    future = subscriber.subscribe(missing, lambda m: m.ack())
    try:
        with pytest.raises(exceptions.NotFound):
            future.result(timeout=WAIT)
    finally:
        future.cancel()
