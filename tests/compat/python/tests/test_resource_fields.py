"""Newer resource fields through the Python client: storage policy, KMS key, input-only tags.

The client's protos (google/pubsub_v1/types/pubsub.py) mark `tags` Input only and Immutable on
Topic, Subscription and CreateSnapshotRequest, and analytics_hub_subscription_info Output only.
"""

import pytest
from google.api_core import exceptions
from google.protobuf import field_mask_pb2

from conftest import PROJECT

KMS = f"projects/{PROJECT}/locations/us-central1/keyRings/ring/cryptoKeys/key"
TAGS = {"123/environment": "production"}


def test_topic_keeps_policy_and_key_but_never_returns_tags(res, publisher):
    name = res.topic(
        message_storage_policy={"allowed_persistence_regions": ["us-central1"], "enforce_in_transit": True},
        kms_key_name=KMS,
        tags=TAGS,
    )
    got = publisher.get_topic(request={"topic": name}, timeout=30)
    assert list(got.message_storage_policy.allowed_persistence_regions) == ["us-central1"]
    assert got.message_storage_policy.enforce_in_transit
    assert got.kms_key_name == KMS
    assert dict(got.tags) == {}


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"message_storage_policy": {"enforce_in_transit": True}}, id="policy-without-regions"),
        pytest.param({"kms_key_name": "keyRings/r/cryptoKeys/k"}, id="malformed-kms-key"),
        pytest.param({"tags": {"environment": "production"}}, id="tag-key-without-parent"),
    ],
)
def test_malformed_fields_are_invalid_argument(res, fields):
    with pytest.raises(exceptions.InvalidArgument):
        res.topic(**fields)


@pytest.mark.parametrize("path", ["tags", "message_storage_policy"])
def test_updates_refused(res, publisher, path):
    name = res.topic()
    topic = {"name": name, "tags": TAGS, "message_storage_policy": {"allowed_persistence_regions": []}}
    with pytest.raises(exceptions.InvalidArgument):
        publisher.update_topic(
            request={"topic": topic, "update_mask": field_mask_pb2.FieldMask(paths=[path])}, timeout=30
        )


def test_subscription_tags_and_analytics_hub_info_are_never_returned(res, subscriber):
    topic = res.topic()
    name = res.subscription(
        topic,
        tags=TAGS,
        analytics_hub_subscription_info={"listing": "projects/p/locations/us/dataExchanges/d/listings/l"},
    )
    got = subscriber.get_subscription(request={"subscription": name}, timeout=30)
    assert dict(got.tags) == {}
    assert "analytics_hub_subscription_info" not in got
