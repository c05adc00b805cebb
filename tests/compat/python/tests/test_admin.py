"""Topic and subscription administration through the GAPIC admin surface."""

import pytest
from google.api_core import exceptions

from conftest import PROJECT_PATH, sub_path, topic_path, unique


def test_topic_create_get_list_delete(res, publisher):
    name = res.topic(labels={"team": "compat"})
    got = publisher.get_topic(request={"topic": name}, timeout=30)
    assert got.name == name
    assert dict(got.labels) == {"team": "compat"}

    names = [t.name for t in publisher.list_topics(request={"project": PROJECT_PATH}, timeout=30)]
    assert name in names

    publisher.delete_topic(request={"topic": name}, timeout=30)
    with pytest.raises(exceptions.NotFound):
        publisher.get_topic(request={"topic": name}, timeout=30)


def test_create_existing_topic_is_already_exists(res, publisher):
    name = res.topic()
    with pytest.raises(exceptions.AlreadyExists):
        publisher.create_topic(request={"name": name}, timeout=30)


def test_get_missing_topic_and_subscription_is_not_found(publisher, subscriber):
    with pytest.raises(exceptions.NotFound):
        publisher.get_topic(request={"topic": topic_path(unique("missing"))}, timeout=30)
    with pytest.raises(exceptions.NotFound):
        subscriber.get_subscription(request={"subscription": sub_path(unique("missing"))}, timeout=30)
    with pytest.raises(exceptions.NotFound):
        publisher.delete_topic(request={"topic": topic_path(unique("missing"))}, timeout=30)


@pytest.mark.parametrize(
    "topic_id",
    ["ab", "9starts-with-digit", "goog-reserved", "has space", "bad*char", "x" * 256],
)
def test_bad_topic_name_is_invalid_argument(publisher, topic_id):
    with pytest.raises(exceptions.InvalidArgument):
        publisher.create_topic(request={"name": topic_path(topic_id)}, timeout=30)


def test_bad_subscription_name_is_invalid_argument(res, subscriber):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.create_subscription(request={"name": sub_path("goog-sub"), "topic": topic}, timeout=30)


def test_create_existing_subscription_is_already_exists(res, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    with pytest.raises(exceptions.AlreadyExists):
        subscriber.create_subscription(request={"name": sub, "topic": topic}, timeout=30)


def test_subscription_on_missing_topic_is_not_found(subscriber):
    with pytest.raises(exceptions.NotFound):
        subscriber.create_subscription(
            request={"name": sub_path(unique("orphan")), "topic": topic_path(unique("missing"))},
            timeout=30,
        )


def test_update_topic_labels(res, publisher):
    name = res.topic(labels={"a": "1"})
    updated = publisher.update_topic(
        request={
            "topic": {"name": name, "labels": {"a": "2", "b": "3"}},
            "update_mask": {"paths": ["labels"]},
        },
        timeout=30,
    )
    assert dict(updated.labels) == {"a": "2", "b": "3"}
    assert dict(publisher.get_topic(request={"topic": name}, timeout=30).labels) == {"a": "2", "b": "3"}


def test_update_topic_empty_mask_is_invalid_argument(res, publisher):
    name = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        publisher.update_topic(
            request={"topic": {"name": name, "labels": {"a": "1"}}, "update_mask": {"paths": []}},
            timeout=30,
        )


def test_subscription_create_get_update(res, subscriber):
    topic = res.topic()
    name = res.subscription(topic, ack_deadline_seconds=20, labels={"x": "1"})
    got = subscriber.get_subscription(request={"subscription": name}, timeout=30)
    assert got.topic == topic
    assert got.ack_deadline_seconds == 20
    assert dict(got.labels) == {"x": "1"}

    updated = subscriber.update_subscription(
        request={
            "subscription": {"name": name, "ack_deadline_seconds": 45, "labels": {"y": "2"}},
            "update_mask": {"paths": ["ack_deadline_seconds", "labels"]},
        },
        timeout=30,
    )
    assert updated.ack_deadline_seconds == 45
    assert dict(updated.labels) == {"y": "2"}
    got = subscriber.get_subscription(request={"subscription": name}, timeout=30)
    assert got.ack_deadline_seconds == 45
    assert dict(got.labels) == {"y": "2"}

    # Only the masked field changes.
    updated = subscriber.update_subscription(
        request={
            "subscription": {"name": name, "ack_deadline_seconds": 30, "labels": {"ignored": "1"}},
            "update_mask": {"paths": ["ack_deadline_seconds"]},
        },
        timeout=30,
    )
    assert updated.ack_deadline_seconds == 30
    assert dict(updated.labels) == {"y": "2"}


def test_subscription_default_ack_deadline_is_10s(res, subscriber):
    topic = res.topic()
    name = res.subscription(topic)
    assert subscriber.get_subscription(request={"subscription": name}, timeout=30).ack_deadline_seconds == 10


def test_update_subscription_empty_mask_is_invalid_argument(res, subscriber):
    topic = res.topic()
    name = res.subscription(topic)
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.update_subscription(
            request={"subscription": {"name": name, "ack_deadline_seconds": 30}, "update_mask": {"paths": []}},
            timeout=30,
        )


def test_ack_deadline_601_is_invalid_argument(res, subscriber):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.create_subscription(
            request={"name": sub_path(unique("sub")), "topic": topic, "ack_deadline_seconds": 601},
            timeout=30,
        )
    name = res.subscription(topic)
    with pytest.raises(exceptions.InvalidArgument):
        subscriber.update_subscription(
            request={
                "subscription": {"name": name, "ack_deadline_seconds": 601},
                "update_mask": {"paths": ["ack_deadline_seconds"]},
            },
            timeout=30,
        )


def test_list_topics_pagination(res, publisher):
    prefix = unique("page")
    mine = set()
    for i in range(5):
        mine.add(res.topic(prefix=f"{prefix}-{i}"))

    pages = list(publisher.list_topics(request={"project": PROJECT_PATH, "page_size": 2}, timeout=30).pages)
    seen = [t.name for page in pages for t in page.topics]
    assert all(len(page.topics) <= 2 for page in pages), [len(p.topics) for p in pages]
    assert len(pages) >= 3
    assert mine <= set(seen)
    assert len(seen) == len(set(seen)), "a topic appeared on two pages"


def test_list_subscriptions_and_topic_subscriptions_pagination(res, publisher, subscriber):
    topic = res.topic()
    subs = {res.subscription(topic) for _ in range(3)}

    pages = list(publisher.list_topic_subscriptions(request={"topic": topic, "page_size": 2}, timeout=30).pages)
    sizes = [len(p.subscriptions) for p in pages]
    assert all(n <= 2 for n in sizes) and sum(sizes) == 3 and len(pages) >= 2, sizes
    assert {s for p in pages for s in p.subscriptions} == subs

    pages = list(subscriber.list_subscriptions(request={"project": PROJECT_PATH, "page_size": 2}, timeout=30).pages)
    assert all(len(p.subscriptions) <= 2 for p in pages)
    assert subs <= {s.name for p in pages for s in p.subscriptions}


def test_deleting_topic_detaches_subscriptions(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    publisher.delete_topic(request={"topic": topic}, timeout=30)
    assert subscriber.get_subscription(request={"subscription": sub}, timeout=30).topic == "_deleted-topic_"
