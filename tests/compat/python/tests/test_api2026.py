"""The 2026 additions through google-cloud-pubsub's generated types: a ZLIB Compression transform
(compress on the topic, decompress on one subscription) and a compiled Protocol Buffer schema of
two files, one importing the other, built and encoded with the Python protobuf runtime."""

import zlib

import pytest
from google.api_core import exceptions
from google.cloud import pubsub_v1
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.pubsub_v1.types import Compression, Encoding, Schema

from conftest import PROJECT_PATH, pull_until, unique

WAIT = 30


def zlib_transform(mode):
    return {"compression": {"compression_algorithm": Compression.CompressionAlgorithm.ZLIB, "compression_mode": mode}}


def test_zlib_compress_on_the_topic_decompress_on_a_subscription(res, publisher, subscriber, gapic_publisher):
    topic = res.topic(message_transforms=[zlib_transform(Compression.CompressionMode.COMPRESS)])
    got = publisher.get_topic(request={"topic": topic}, timeout=WAIT)
    assert got.message_transforms[0].compression.compression_mode == Compression.CompressionMode.COMPRESS
    plain = res.subscription(topic)
    unpacked = res.subscription(topic, message_transforms=[zlib_transform(Compression.CompressionMode.DECOMPRESS)])
    text = b"compat " * 40
    publisher.publish(topic, text).result(timeout=WAIT)
    raw = pull_until(subscriber, plain, want=1, within=WAIT)
    assert zlib.decompress(raw[0].message.data) == text and len(raw[0].message.data) < len(text)
    back = pull_until(subscriber, unpacked, want=1, within=WAIT)
    assert back[0].message.data == text
    strict = res.topic(message_transforms=[zlib_transform(Compression.CompressionMode.DECOMPRESS)])
    with pytest.raises(exceptions.InvalidArgument) as err:
        gapic_publisher.publish(request={"topic": strict, "messages": [{"data": b"plain"}]}, timeout=WAIT)
    assert "ZLIB decompression failed" in str(err.value)


def shop_files():
    """money.proto (package shop.common) and order.proto (package shop) importing it."""
    F = descriptor_pb2.FieldDescriptorProto
    money = descriptor_pb2.FileDescriptorProto(name="common/money.proto", package="shop.common", syntax="proto3")
    m = money.message_type.add(name="Money")
    m.field.add(name="currency", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, json_name="currency")
    m.field.add(name="units", number=2, type=F.TYPE_INT64, label=F.LABEL_OPTIONAL, json_name="units")
    order = descriptor_pb2.FileDescriptorProto(name="shop/order.proto", package="shop", syntax="proto3", dependency=["common/money.proto"])
    o = order.message_type.add(name="Order")
    o.field.add(name="id", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL, json_name="id")
    o.field.add(name="total", number=2, type=F.TYPE_MESSAGE, type_name=".shop.common.Money", label=F.LABEL_OPTIONAL, json_name="total")
    o.field.add(name="items", number=3, type=F.TYPE_STRING, label=F.LABEL_REPEATED, json_name="items")
    return descriptor_pb2.FileDescriptorSet(file=[money, order])


def test_compiled_proto_schema_of_two_files(res, publisher, subscriber, gapic_publisher):
    schemas = pubsub_v1.SchemaServiceClient()
    file_set = shop_files()
    compiled = file_set.SerializeToString()
    created = schemas.create_schema(
        request={
            "parent": PROJECT_PATH,
            "schema_id": unique("schema"),
            "schema": {"type_": Schema.Type.PROTOCOL_BUFFER, "compiled_proto_schema": {"root_message": "shop.Order", "compiled_bytes": compiled}},
        },
        timeout=WAIT,
    )
    try:
        got = schemas.get_schema(request={"name": created.name, "view": "FULL"}, timeout=WAIT)
        assert got.compiled_proto_schema.root_message == "shop.Order"
        assert got.compiled_proto_schema.compiled_bytes == compiled

        pool = descriptor_pool.DescriptorPool()
        for f in file_set.file:
            pool.Add(f)
        Order = message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.Order"))
        data = Order(id="o-1", total={"currency": "EUR", "units": 12}, items=["a"]).SerializeToString()

        topic = res.topic(schema_settings={"schema": created.name, "encoding": Encoding.BINARY})
        sub = res.subscription(topic)
        publisher.publish(topic, data).result(timeout=WAIT)
        with pytest.raises(exceptions.InvalidArgument):
            gapic_publisher.publish(request={"topic": topic, "messages": [{"data": b"\x12\xff\x01"}]}, timeout=WAIT)
        msgs = pull_until(subscriber, sub, want=1, within=WAIT)
        assert Order.FromString(msgs[0].message.data) == Order.FromString(data)
        assert msgs[0].message.attributes["googclient_schemaencoding"] == "BINARY"

        with pytest.raises(exceptions.InvalidArgument) as err:
            schemas.validate_schema(
                request={
                    "parent": PROJECT_PATH,
                    "schema": {"type_": Schema.Type.PROTOCOL_BUFFER, "compiled_proto_schema": {"root_message": "shop.Order"}},
                },
                timeout=WAIT,
            )
        assert "compiled_proto_schema.compiled_bytes is required" in str(err.value)
    finally:
        schemas.delete_schema(request={"name": created.name}, timeout=10)
