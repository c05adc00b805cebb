"""Single Message Transforms through google-cloud-pubsub: JavaScript UDFs on a topic (at publish)
and on a subscription (at delivery), a failing UDF at publish, and the contract's limit."""

import pytest
from google.api_core import exceptions

from conftest import pull_until

WAIT = 30

UPPER = {
    "javascript_udf": {
        "function_name": "upper",
        "code": "function upper(message, metadata) { message.data = message.data.toUpperCase(); return message; }",
    }
}
DROP = {
    "javascript_udf": {
        "function_name": "drop",
        "code": "function drop(message) { return message.attributes.skip ? null : message; }",
    }
}


def test_topic_transforms_reshape_and_filter_at_publish(res, publisher, subscriber):
    topic = res.topic(message_transforms=[DROP, UPPER])
    got_topic = publisher.get_topic(request={"topic": topic}, timeout=30)
    assert [t.javascript_udf.function_name for t in got_topic.message_transforms] == ["drop", "upper"]
    sub = res.subscription(topic)
    kept = publisher.publish(topic, b"hello", kind="a").result(timeout=WAIT)
    dropped = publisher.publish(topic, b"gone", skip="1").result(timeout=WAIT)
    assert kept and dropped and kept != dropped
    got = pull_until(subscriber, sub, want=1, within=WAIT)
    assert [r.message.data for r in got] == [b"HELLO"]
    assert dict(got[0].message.attributes) == {"kind": "a"}
    subscriber.acknowledge(request={"subscription": sub, "ack_ids": [r.ack_id for r in got]}, timeout=30)


def test_subscription_transforms_run_at_delivery(res, publisher, subscriber):
    topic = res.topic()
    plain = res.subscription(topic)
    shaped = res.subscription(topic, message_transforms=[UPPER])
    publisher.publish(topic, b"mixed Case").result(timeout=WAIT)
    assert [r.message.data for r in pull_until(subscriber, plain, want=1, within=WAIT)] == [b"mixed Case"]
    assert [r.message.data for r in pull_until(subscriber, shaped, want=1, within=WAIT)] == [b"MIXED CASE"]


def test_a_throwing_udf_fails_the_publish_naming_the_transform(res, gapic_publisher):
    strict = {"javascript_udf": {"function_name": "strict", "code": "function strict(m) { JSON.parse(m.data); return m; }"}}
    topic = res.topic(message_transforms=[strict])
    with pytest.raises(exceptions.InvalidArgument) as err:
        gapic_publisher.publish(request={"topic": topic, "messages": [{"data": b"not json"}]}, timeout=30)
    assert 'Message transform "strict" failed' in str(err.value)


def test_more_than_five_enabled_transforms_are_refused(res):
    six = [
        {"javascript_udf": {"function_name": f"f{i}", "code": f"function f{i}(m) {{ return m; }}"}} for i in range(6)
    ]
    with pytest.raises(exceptions.InvalidArgument) as err:
        res.topic(message_transforms=six)
    assert "Maximum enabled transforms: 5. Enabled transforms: 6" in str(err.value)
