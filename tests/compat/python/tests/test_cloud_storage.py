"""Cloud Storage subscriptions and import topics through google-cloud-pubsub, against the
emulator's --storage-dir (COMPAT_STORAGE_DIR, set by .ci/compat): objects written in batches of
max_messages, a gs:// bucket refused, a bucket's text object ingested into a topic."""

import os
import pathlib
import time
import uuid

import pytest
from google.api_core import exceptions
from google.protobuf import field_mask_pb2

from conftest import pull_until

WAIT = 30


@pytest.fixture
def bucket():
    root = os.environ.get("COMPAT_STORAGE_DIR")
    if not root:
        raise pytest.UsageError("COMPAT_STORAGE_DIR must name the emulator's --storage-dir")
    name = f"compat-{uuid.uuid4().hex[:12]}"
    path = pathlib.Path(root) / name
    path.mkdir()
    return name, path


def test_objects_of_max_messages_appear_in_the_bucket(res, publisher, bucket):
    name, path = bucket
    topic = res.topic()
    sub = res.subscription(topic, cloud_storage_config={"bucket": name, "max_messages": 1000, "filename_suffix": ".txt"})
    futures = [publisher.publish(topic, f"m{i}".encode()) for i in range(1000)]
    for f in futures:
        f.result(timeout=WAIT)
    end = time.monotonic() + WAIT
    files = []
    while not files and time.monotonic() < end:
        files = [p for p in path.rglob("*") if p.is_file()]
        time.sleep(0.05)
    assert len(files) == 1 and files[0].name.endswith(".txt")
    assert sorted(files[0].read_text().split("\n")) == sorted(f"m{i}" for i in range(1000))
    got = res.subscriber.get_subscription(request={"subscription": sub}, timeout=30)
    assert got.cloud_storage_config.state.name == "ACTIVE"
    assert got.cloud_storage_config.max_duration.total_seconds() == 300


def test_a_gs_bucket_is_invalid(res, bucket):
    topic = res.topic()
    with pytest.raises(exceptions.InvalidArgument, match="gs://"):
        res.subscription(topic, cloud_storage_config={"bucket": "gs://" + bucket[0]})


def test_an_import_topic_turns_a_text_object_into_messages(res, publisher, subscriber, bucket):
    name, path = bucket
    (path / ".incoming").write_text("a\nb\nc\n")
    (path / ".incoming").rename(path / "in.txt")
    topic = res.topic()
    sub = res.subscription(topic)
    publisher.update_topic(
        request={
            "topic": {"name": topic, "ingestion_data_source_settings": {"cloud_storage": {"bucket": name, "text_format": {}, "match_glob": "*.txt"}}},
            "update_mask": field_mask_pb2.FieldMask(paths=["ingestion_data_source_settings"]),
        },
        timeout=30,
    )
    got = pull_until(subscriber, sub, want=3, within=WAIT)
    assert sorted(r.message.data for r in got) == [b"a", b"b", b"c"]
    described = publisher.get_topic(request={"topic": topic}, timeout=30)
    assert described.ingestion_data_source_settings.cloud_storage.state.name == "ACTIVE"
