"""Shared fixtures for the google-cloud-pubsub (Python) compatibility suite.

The clients pick up PUBSUB_EMULATOR_HOST themselves (insecure channel, anonymous
credentials); the suite refuses to run without it so it can never touch a real project.
"""

import os
import time
import uuid

import grpc
import pytest
from google.api_core import exceptions
from google.cloud import pubsub_v1
from google.pubsub_v1.services.subscriber.transports import SubscriberGrpcTransport

PROJECT = "compat-test"
PROJECT_PATH = f"projects/{PROJECT}"


def pytest_configure(config):
    if not os.environ.get("PUBSUB_EMULATOR_HOST"):
        raise pytest.UsageError("PUBSUB_EMULATOR_HOST must point at a running emulator")


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def topic_path(topic_id: str) -> str:
    return f"{PROJECT_PATH}/topics/{topic_id}"


def sub_path(sub_id: str) -> str:
    return f"{PROJECT_PATH}/subscriptions/{sub_id}"


@pytest.fixture(scope="session")
def publisher():
    client = pubsub_v1.PublisherClient()
    yield client
    client.stop()


@pytest.fixture(scope="session")
def subscriber():
    client = pubsub_v1.SubscriberClient()
    yield client
    client.close()


@pytest.fixture(scope="session")
def big_subscriber():
    """A subscriber whose channel accepts messages above gRPC's 4 MiB default.

    With PUBSUB_EMULATOR_HOST set, the client builds a plain insecure channel with default
    options, so an application receiving ~9 MB messages must bring its own channel.
    """
    channel = grpc.insecure_channel(
        os.environ["PUBSUB_EMULATOR_HOST"],
        options=[
            ("grpc.max_receive_message_length", -1),
            ("grpc.max_send_message_length", -1),
        ],
    )
    client = pubsub_v1.SubscriberClient(transport=SubscriberGrpcTransport(channel=channel))
    yield client
    client.close()


@pytest.fixture(scope="session")
def gapic_publisher():
    """The raw generated Publisher client (one PublishRequest per call, no batching)."""
    from google.pubsub_v1 import PublisherClient

    return PublisherClient()


class Resources:
    """Creates topics/subscriptions with unique names and deletes them afterwards."""

    def __init__(self, publisher, subscriber):
        self.publisher = publisher
        self.subscriber = subscriber
        self.topics = []
        self.subs = []

    def topic(self, prefix="topic", **fields):
        name = topic_path(unique(prefix))
        created = self.publisher.create_topic(request={"name": name, **fields}, timeout=30)
        self.topics.append(name)
        return created.name

    def subscription(self, topic, prefix="sub", **fields):
        name = sub_path(unique(prefix))
        created = self.subscriber.create_subscription(
            request={"name": name, "topic": topic, **fields}, timeout=30
        )
        self.subs.append(name)
        return created.name

    def cleanup(self):
        for s in self.subs:
            try:
                self.subscriber.delete_subscription(request={"subscription": s}, timeout=10)
            except exceptions.GoogleAPICallError:
                pass
        for t in self.topics:
            try:
                self.publisher.delete_topic(request={"topic": t}, timeout=10)
            except exceptions.GoogleAPICallError:
                pass


@pytest.fixture
def res(publisher, subscriber):
    r = Resources(publisher, subscriber)
    yield r
    r.cleanup()


def pull_until(subscriber, subscription, want, within, max_messages=100):
    """Unary Pull until `want` messages arrived or `within` seconds passed."""
    got = []
    end = time.monotonic() + within
    while len(got) < want:
        remaining = end - time.monotonic()
        if remaining <= 0:
            break
        try:
            resp = subscriber.pull(
                request={"subscription": subscription, "max_messages": max_messages},
                retry=None,
                timeout=max(0.5, min(remaining, 5.0)),
            )
        except exceptions.DeadlineExceeded:
            continue
        got.extend(resp.received_messages)
    return got


def pull_for(subscriber, subscription, seconds, max_messages=100):
    """Everything Pull returns during a fixed window (used to assert 'nothing comes')."""
    return pull_until(subscriber, subscription, want=10**9, within=seconds, max_messages=max_messages)


def stop_streaming(future):
    """Cancels a streaming pull and waits (bounded) for it to wind down."""
    future.cancel()
    try:
        future.result(timeout=10)
    except Exception:
        pass


def run_subscriber(subscriber, sub, callback, done, flow_control=None, within=30):
    """Streaming-pull with the high-level subscriber until done() or the deadline."""
    kwargs = {"flow_control": flow_control} if flow_control else {}
    future = subscriber.subscribe(sub, callback, **kwargs)
    end = time.monotonic() + within
    try:
        while not done() and time.monotonic() < end:
            if future.done():  # the stream failed: surface the error
                future.result(timeout=1)
            time.sleep(0.05)
    finally:
        stop_streaming(future)


def nack_then_ack(subscriber, sub):
    """Streams from sub until two deliveries arrived (or the deadline): nacks the first and
    acks every later one; the messages as delivered, in order."""
    deliveries = []

    def callback(msg):
        deliveries.append(msg)
        if len(deliveries) == 1:
            msg.nack()
        else:
            msg.ack()

    run_subscriber(subscriber, sub, callback, done=lambda: len(deliveries) >= 2)
    return deliveries
