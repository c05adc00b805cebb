"""Publishing and receiving through the high-level clients, plus the raw ack calls."""

import random
import threading
import time
from collections import defaultdict

from google.cloud import pubsub_v1

from conftest import nack_then_ack, pull_for, pull_until, run_subscriber, stop_streaming

WAIT = 30  # upper bound for any "eventually" in this file, seconds


def test_batched_publish_with_attributes_and_unary_pull(res, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    batching = pubsub_v1.PublisherClient(
        batch_settings=pubsub_v1.types.BatchSettings(max_messages=10, max_latency=0.05)
    )
    try:
        futures = [
            batching.publish(topic, f"msg-{i}".encode(), index=str(i), kind="compat")
            for i in range(25)
        ]
        ids = [f.result(timeout=WAIT) for f in futures]
    finally:
        batching.stop()
    assert len(set(ids)) == 25 and all(ids)

    got = pull_until(subscriber, sub, want=25, within=WAIT)
    by_index = {int(r.message.attributes["index"]): r for r in got}
    assert sorted(by_index) == list(range(25))
    for i, r in by_index.items():
        assert r.message.data == f"msg-{i}".encode()
        assert dict(r.message.attributes) == {"index": str(i), "kind": "compat"}
        assert r.message.message_id == ids[i]
        assert r.message.publish_time.timestamp() > 0
        assert r.ack_id
    subscriber.acknowledge(request={"subscription": sub, "ack_ids": [r.ack_id for r in got]}, timeout=30)
    assert pull_for(subscriber, sub, 2) == []


def test_attributes_only_message(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    publisher.publish(topic, b"", only="attrs").result(timeout=WAIT)
    [r] = pull_until(subscriber, sub, want=1, within=WAIT)
    assert r.message.data == b""
    assert dict(r.message.attributes) == {"only": "attrs"}


def test_streaming_pull_receives_and_acks(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    ids = {publisher.publish(topic, f"s{i}".encode(), n=str(i)).result(timeout=WAIT) for i in range(20)}

    received = {}
    lock = threading.Lock()

    def callback(msg):
        with lock:
            received[msg.message_id] = (msg.data, dict(msg.attributes))
        msg.ack()

    run_subscriber(subscriber, sub, callback, done=lambda: len(received) >= 20)
    assert set(received) == ids
    for data, attrs in received.values():
        assert data == f"s{attrs['n']}".encode()
    # Acked messages are not redelivered.
    assert pull_for(subscriber, sub, 2) == []


def test_streaming_pull_flow_control(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    ids = {publisher.publish(topic, b"fc%d" % i).result(timeout=WAIT) for i in range(12)}

    lock = threading.Lock()
    state = {"outstanding": 0, "max": 0}
    received = set()

    def callback(msg):
        with lock:
            state["outstanding"] += 1
            state["max"] = max(state["max"], state["outstanding"])
        time.sleep(0.1)
        with lock:
            state["outstanding"] -= 1
            received.add(msg.message_id)
        msg.ack()

    run_subscriber(
        subscriber, sub, callback, done=lambda: len(received) >= 12,
        flow_control=pubsub_v1.types.FlowControl(max_messages=2),
    )
    assert received == ids
    assert 1 <= state["max"] <= 2


def test_streaming_nack_is_redelivered(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    mid = publisher.publish(topic, b"nack-me").result(timeout=WAIT)
    deliveries = [m.message_id for m in nack_then_ack(subscriber, sub)]
    assert deliveries[:2] == [mid, mid]


def test_ordering_keys_streaming(res, subscriber):
    topic = res.topic()
    sub = res.subscription(topic, enable_message_ordering=True)
    ordered = pubsub_v1.PublisherClient(
        publisher_options=pubsub_v1.types.PublisherOptions(enable_message_ordering=True),
        batch_settings=pubsub_v1.types.BatchSettings(max_messages=5, max_latency=0.02),
    )
    keys = ["alpha", "beta", "gamma"]
    try:
        futures = [
            ordered.publish(topic, f"{k}-{i}".encode(), ordering_key=k, seq=str(i))
            for i in range(15)
            for k in keys
        ]
        for f in futures:
            f.result(timeout=WAIT)
    finally:
        ordered.stop()

    seen = defaultdict(list)
    lock = threading.Lock()

    def callback(msg):
        with lock:
            seen[msg.ordering_key].append(int(msg.attributes["seq"]))
        # Uneven handling time: concurrent handling of one key would reorder it.
        time.sleep(random.uniform(0, 0.01))
        msg.ack()

    run_subscriber(subscriber, sub, callback, done=lambda: sum(len(v) for v in seen.values()) >= 45)
    assert sorted(seen) == keys
    for k in keys:
        # Each key arrives in publish order (redeliveries would restart the sequence,
        # so compare the first 15 deliveries).
        assert seen[k][:15] == list(range(15)), (k, seen[k])


def test_unary_nack_via_modify_ack_deadline_zero(res, publisher, subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    mid = publisher.publish(topic, b"x").result(timeout=WAIT)
    [first] = pull_until(subscriber, sub, want=1, within=WAIT)
    subscriber.modify_ack_deadline(
        request={"subscription": sub, "ack_ids": [first.ack_id], "ack_deadline_seconds": 0}, timeout=30
    )
    [again] = pull_until(subscriber, sub, want=1, within=WAIT)
    assert again.message.message_id == mid
    subscriber.acknowledge(request={"subscription": sub, "ack_ids": [again.ack_id]}, timeout=30)


def test_ack_deadline_expiry_and_modify_ack_deadline(res, publisher, subscriber):
    """A: left alone -> redelivered after the 10 s subscription deadline.
    B: deadline extended to 60 s -> still leased when A comes back.
    C: deadline shortened to 1 s -> back well before A."""
    topic = res.topic()
    sub = res.subscription(topic, ack_deadline_seconds=10)
    ids = {publisher.publish(topic, name.encode()).result(timeout=WAIT): name for name in "ABC"}

    first = pull_until(subscriber, sub, want=3, within=WAIT)
    assert len(first) == 3
    t0 = time.monotonic()
    by_name = {r.message.data.decode(): r for r in first}
    subscriber.modify_ack_deadline(
        request={"subscription": sub, "ack_ids": [by_name["B"].ack_id], "ack_deadline_seconds": 60}, timeout=30
    )
    subscriber.modify_ack_deadline(
        request={"subscription": sub, "ack_ids": [by_name["C"].ack_id], "ack_deadline_seconds": 1}, timeout=30
    )

    [c] = pull_until(subscriber, sub, want=1, within=8)
    assert c.message.data == b"C"
    assert time.monotonic() - t0 < 8
    subscriber.acknowledge(request={"subscription": sub, "ack_ids": [c.ack_id]}, timeout=30)

    [a] = pull_until(subscriber, sub, want=1, within=25)
    assert a.message.data == b"A"
    assert time.monotonic() - t0 >= 7, "redelivered long before the 10 s ack deadline"
    subscriber.acknowledge(request={"subscription": sub, "ack_ids": [a.ack_id]}, timeout=30)

    # B's lease (60 s) is still running.
    assert [r.message.data for r in pull_for(subscriber, sub, 2)] == []
    # The old ack id for B still acks it.
    subscriber.acknowledge(request={"subscription": sub, "ack_ids": [by_name["B"].ack_id]}, timeout=30)
    assert set(ids.values()) == {"A", "B", "C"}


def test_large_message_round_trip(res, big_subscriber):
    topic = res.topic()
    sub = res.subscription(topic)
    payload = bytes(range(256)) * (9 * 1024 * 1024 // 256)  # 9 MiB
    big = pubsub_v1.PublisherClient(
        batch_settings=pubsub_v1.types.BatchSettings(max_bytes=10 * 1000 * 1000, max_messages=1)
    )
    try:
        mid = big.publish(topic, payload, size="9MiB").result(timeout=60)
    finally:
        big.stop()
    [r] = pull_until(big_subscriber, sub, want=1, within=WAIT, max_messages=1)
    assert r.message.message_id == mid
    assert len(r.message.data) == len(payload)
    assert r.message.data == payload
    big_subscriber.acknowledge(request={"subscription": sub, "ack_ids": [r.ack_id]}, timeout=30)


def test_lease_extension_beyond_ack_deadline(res, publisher, subscriber):
    """A handler slower than the 10 s ack deadline: the client extends the lease
    (ModifyAckDeadline) and the message is not redelivered meanwhile."""
    topic = res.topic()
    sub = res.subscription(topic, ack_deadline_seconds=10)
    mid = publisher.publish(topic, b"slow").result(timeout=WAIT)
    deliveries = []
    acked = threading.Event()

    def callback(msg):
        deliveries.append(msg.message_id)
        if len(deliveries) == 1:
            time.sleep(14)
            msg.ack()
            acked.set()
        else:
            msg.ack()

    # Keep streaming 2 s after the ack to catch a late redelivery.
    end_after_ack = []

    def done():
        if acked.is_set() and not end_after_ack:
            end_after_ack.append(time.monotonic() + 2)
        return bool(end_after_ack) and time.monotonic() > end_after_ack[0]

    run_subscriber(subscriber, sub, callback, done=done)
    assert acked.is_set()
    assert deliveries == [mid], f"redelivered while the handler held the lease: {deliveries}"


def test_publish_then_wait_for_that_message_id(res, publisher, subscriber):
    """The common test shape: id = publish().result(), then wait for the message whose id is id.

    A message that reached the callback before its publish was answered would be ignored here and
    the wait would time out; delivery after the answer (as on the real service) never does that.
    """
    topic = res.topic()
    sub = res.subscription(topic)
    lock = threading.Lock()
    wanted = {"id": None}
    arrived = threading.Event()
    ignored = []

    def callback(message):
        with lock:
            if message.message_id == wanted["id"]:
                arrived.set()
            else:
                ignored.append(message.message_id)
        message.ack()

    future = subscriber.subscribe(sub, callback)
    try:
        time.sleep(0.3)  # the stream is open before the first publish
        for i in range(10):
            arrived.clear()
            wanted["id"] = publisher.publish(topic, f"w{i}".encode()).result(timeout=WAIT)
            assert arrived.wait(timeout=10), f"message {i} ({wanted['id']}) never matched; ignored {ignored}"
    finally:
        stop_streaming(future)
    assert ignored == []
