"""gcloud-aio-pubsub: a widely used asyncio client written by others against the real service.

It speaks REST/JSON only, to http://$PUBSUB_EMULATOR_HOST/v1/… when that is set, and its own
subscribe() loop pulls, acks in windows and modacks to keep leases. What it sends and expects
(base64 data, attributes, messageIds, error bodies) is the real service's JSON.
"""

import asyncio

import aiohttp
import pytest
from gcloud.aio.pubsub import PublisherClient, PubsubMessage, SubscriberClient, subscribe

from conftest import sub_path, topic_path, unique


def run(coro, seconds=30):
    return asyncio.run(asyncio.wait_for(coro, seconds))


async def clients(session):
    return PublisherClient(session=session), SubscriberClient(session=session)


def test_admin_publish_pull_modack_ack():
    topic, sub = topic_path(unique("aio-topic")), sub_path(unique("aio-sub"))

    async def go():
        async with aiohttp.ClientSession() as s:
            pub, subs = await clients(s)
            await pub.create_topic(topic)
            await subs.create_subscription(sub, topic, body={"ackDeadlineSeconds": 30})
            got = await subs.get_subscription(sub)
            assert got["ackDeadlineSeconds"] == 30 and got["topic"] == topic
            sent = [PubsubMessage(b"hello", a="1"), PubsubMessage("w\u00e9ird \u2713".encode(), b="2")]
            ids = (await pub.publish(topic, sent))["messageIds"]
            assert len(ids) == 2 and len(set(ids)) == 2
            pulled = await subs.pull(sub, max_messages=10)
            assert sorted((m.message_id, m.data, m.attributes) for m in pulled) == sorted(
                zip(ids, [b"hello", "w\u00e9ird \u2713".encode()], [{"a": "1"}, {"b": "2"}])
            )
            await subs.modify_ack_deadline(sub, [m.ack_id for m in pulled], 60)
            await subs.acknowledge(sub, [m.ack_id for m in pulled])
            listed = await pub.list_topics("projects/compat-test")
            assert topic in [t["name"] for t in listed["topics"]]
            await subs.delete_subscription(sub)
            await pub.delete_topic(topic)

    run(go())


def test_errors_are_the_services_json():
    topic = topic_path(unique("aio-missing"))

    async def go():
        async with aiohttp.ClientSession() as s:
            pub, _ = await clients(s)
            with pytest.raises(aiohttp.ClientResponseError) as missing:
                await pub.publish(topic, [PubsubMessage(b"x")])
            assert missing.value.status == 404 and "NOT_FOUND" in missing.value.message
            await pub.create_topic(topic)
            with pytest.raises(aiohttp.ClientResponseError) as twice:
                await pub.create_topic(topic)
            assert twice.value.status == 409 and "ALREADY_EXISTS" in twice.value.message
            await pub.delete_topic(topic)

    run(go())


def test_subscribe_loop_receives_everything_and_its_acks_land(subscriber):
    topic, sub = topic_path(unique("aio-loop")), sub_path(unique("aio-loop"))
    n = 50

    async def go():
        async with aiohttp.ClientSession() as s:
            pub, subs = await clients(s)
            await pub.create_topic(topic)
            await subs.create_subscription(sub, topic)
            await pub.publish(topic, [PubsubMessage(str(i).encode()) for i in range(n)])
            seen = set()
            done = asyncio.Event()

            async def handler(message):
                seen.add(message.data)
                if len(seen) == n:
                    done.set()

            loop = asyncio.create_task(
                subscribe(sub, handler, subs, num_producers=1, max_messages_per_producer=20, ack_window=0.1)
            )
            try:
                await asyncio.wait_for(done.wait(), 20)
                await asyncio.sleep(1)  # a few ack windows
            finally:
                loop.cancel()
                await asyncio.gather(loop, return_exceptions=True)
            assert seen == {str(i).encode() for i in range(n)}

    run(go())
    # What the loop acked is gone: nothing is left for another client.
    left = subscriber.pull(request={"subscription": sub, "max_messages": 100, "return_immediately": True}, timeout=10)
    assert list(left.received_messages) == []
    subscriber.delete_subscription(request={"subscription": sub})
