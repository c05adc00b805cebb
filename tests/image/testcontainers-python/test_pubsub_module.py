"""Testcontainers for Python's own Pub/Sub module (testcontainers[google] PubSubContainer) starts
our image in place of google/cloud-sdk:emulators: its command line `gcloud beta emulators pubsub
start --project=… --host-port=0.0.0.0:8432` (no shell, a port other than 8085, no wait strategy),
then the official client (google-cloud-pubsub) from the module's own helpers publishes and
receives through the mapped port. Run by .ci/image against podman's Docker-compatible socket
(DOCKER_HOST), with IMAGE set to the image it built.
"""

import os
import queue

import pytest

# docs:python-imports {
from testcontainers.community.google import PubSubContainer
# docs:python-imports }

RECEIVE_S = 20


@pytest.mark.timeout(240)
def test_pubsub_container_runs_the_image():
    image = os.environ.get("IMAGE")
    assert image, "IMAGE is not set: .ci/image sets it to the image it built"

    # The lines docs/testcontainers.md shows (tests/docs/testcontainers.test.ts checks it does).
    # docs:python {
    with PubSubContainer(image=image, project="tc-project") as pubsub:
        publisher = pubsub.get_publisher_client()
        subscriber = pubsub.get_subscriber_client()
        # docs:python }
        try:
            topic = publisher.topic_path(pubsub.project, "greetings")
            sub = subscriber.subscription_path(pubsub.project, "greetings-sub")
            assert publisher.create_topic(name=topic).name == "projects/tc-project/topics/greetings"
            subscriber.create_subscription(name=sub, topic=topic)
            message_id = publisher.publish(topic, b"hello from testcontainers-python", lang="python").result(timeout=30)

            received = queue.Queue()

            def on_message(message):
                message.ack()
                received.put(message)

            streaming = subscriber.subscribe(sub, callback=on_message)
            try:
                message = received.get(timeout=RECEIVE_S)
            finally:
                streaming.cancel()
            assert message.message_id == message_id
            assert message.data == b"hello from testcontainers-python"
            assert dict(message.attributes) == {"lang": "python"}
        finally:
            publisher.stop()
            subscriber.close()
