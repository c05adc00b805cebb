package compat

// The 2026 additions through the Go client's generated types: a ZLIB Compression transform
// (compress on the topic, decompress on one subscription) and a compiled Protocol Buffer schema
// of two files, one importing the other, built with the Go protobuf runtime (descriptorpb,
// protodesc, dynamicpb) and bound to a topic in BINARY.

import (
	"bytes"
	"compress/zlib"
	"io"
	"testing"

	"cloud.google.com/go/pubsub/v2"
	pb "cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/dynamicpb"
)

func zlibTransform(mode pb.Compression_CompressionMode) *pb.MessageTransform {
	return &pb.MessageTransform{Transform: &pb.MessageTransform_Compression{Compression: &pb.Compression{
		CompressionAlgorithm: pb.Compression_ZLIB, CompressionMode: mode,
	}}}
}

func TestCompressionTransformZlib(t *testing.T) {
	topic := newTopic(t, &pb.Topic{MessageTransforms: []*pb.MessageTransform{zlibTransform(pb.Compression_COMPRESS)}})
	got, err := client.TopicAdminClient.GetTopic(ctxFor(t, wait), &pb.GetTopicRequest{Topic: topic})
	if err != nil || len(got.MessageTransforms) != 1 || got.MessageTransforms[0].GetCompression().GetCompressionMode() != pb.Compression_COMPRESS {
		t.Fatalf("GetTopic = %v, %v", got, err)
	}
	plain := newSub(t, topic, nil)
	unpacked := newSub(t, topic, &pb.Subscription{MessageTransforms: []*pb.MessageTransform{zlibTransform(pb.Compression_DECOMPRESS)}})
	text := bytes.Repeat([]byte("compat "), 40)
	publish(t, topic, []*pubsub.Message{{Data: text}})

	raw := pullUntil(t, plain, 1, wait)
	if len(raw) != 1 {
		t.Fatalf("plain subscription got %d messages", len(raw))
	}
	r, err := zlib.NewReader(bytes.NewReader(raw[0].Message.Data))
	if err != nil {
		t.Fatalf("the stored data are not ZLIB: %v", err)
	}
	inflated, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(inflated, text) || len(raw[0].Message.Data) >= len(text) {
		t.Fatalf("inflated %q (%v) from %d bytes", inflated, err, len(raw[0].Message.Data))
	}
	back := pullUntil(t, unpacked, 1, wait)
	if len(back) != 1 || !bytes.Equal(back[0].Message.Data, text) {
		t.Fatalf("decompressing subscription got %v", back)
	}
	ack(t, plain, raw[0].AckId)
	ack(t, unpacked, back[0].AckId)

	// Data that are not ZLIB fail a DECOMPRESS topic's publish as a failing UDF does.
	strict := newTopic(t, &pb.Topic{MessageTransforms: []*pb.MessageTransform{zlibTransform(pb.Compression_DECOMPRESS)}})
	wantCode(t, rawPublish(&pb.PubsubMessage{Data: []byte("plain")})(strict), codes.InvalidArgument, "publish of non-ZLIB data")
	// The algorithm is required, the field named.
	_, err = client.TopicAdminClient.CreateTopic(ctxFor(t, wait), &pb.Topic{Name: topicPath(unique("topic")), MessageTransforms: []*pb.MessageTransform{
		{Transform: &pb.MessageTransform_Compression{Compression: &pb.Compression{CompressionMode: pb.Compression_COMPRESS}}},
	}})
	wantCode(t, err, codes.InvalidArgument, "compression without an algorithm")
}

// shopFiles is money.proto (package shop.common) and order.proto (package shop, importing it).
func shopFiles() *descriptorpb.FileDescriptorSet {
	str, i64 := descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum(), descriptorpb.FieldDescriptorProto_TYPE_INT64.Enum()
	msg := descriptorpb.FieldDescriptorProto_TYPE_MESSAGE.Enum()
	opt, rep := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), descriptorpb.FieldDescriptorProto_LABEL_REPEATED.Enum()
	field := func(name string, n int32, ty *descriptorpb.FieldDescriptorProto_Type, label *descriptorpb.FieldDescriptorProto_Label, typeName string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(n), Type: ty, Label: label, JsonName: proto.String(name)}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	money := &descriptorpb.FileDescriptorProto{
		Name: proto.String("common/money.proto"), Package: proto.String("shop.common"), Syntax: proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("Money"), Field: []*descriptorpb.FieldDescriptorProto{
			field("currency", 1, str, opt, ""), field("units", 2, i64, opt, ""),
		}}},
	}
	order := &descriptorpb.FileDescriptorProto{
		Name: proto.String("shop/order.proto"), Package: proto.String("shop"), Syntax: proto.String("proto3"),
		Dependency: []string{"common/money.proto"},
		MessageType: []*descriptorpb.DescriptorProto{{Name: proto.String("Order"), Field: []*descriptorpb.FieldDescriptorProto{
			field("id", 1, str, opt, ""), field("total", 2, msg, opt, ".shop.common.Money"), field("items", 3, str, rep, ""),
		}}},
	}
	return &descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{money, order}}
}

func TestCompiledProtoSchemaTwoFiles(t *testing.T) {
	set := shopFiles()
	files, err := protodesc.NewFiles(set)
	if err != nil {
		t.Fatalf("the descriptor set does not build: %v", err)
	}
	compiled, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schemas(t).CreateSchema(ctxFor(t, wait), &pb.CreateSchemaRequest{Parent: projectPath, SchemaId: unique("schema"), Schema: &pb.Schema{
		Type: pb.Schema_PROTOCOL_BUFFER, Configuration: &pb.Schema_CompiledProtoSchema{CompiledProtoSchema: &pb.CompiledProtoSchema{RootMessage: "shop.Order", CompiledBytes: compiled}},
	}})
	if err != nil {
		t.Fatalf("CreateSchema: %v", err)
	}
	t.Cleanup(func() { _ = schemas(t).DeleteSchema(ctxFor(t, wait), &pb.DeleteSchemaRequest{Name: s.Name}) })
	got, err := schemas(t).GetSchema(ctxFor(t, wait), &pb.GetSchemaRequest{Name: s.Name, View: pb.SchemaView_FULL})
	if err != nil || got.GetCompiledProtoSchema().GetRootMessage() != "shop.Order" || !bytes.Equal(got.GetCompiledProtoSchema().GetCompiledBytes(), compiled) {
		t.Fatalf("GetSchema = %v, %v", got, err)
	}

	d, err := files.FindDescriptorByName("shop.Order")
	if err != nil {
		t.Fatal(err)
	}
	md := d.(protoreflect.MessageDescriptor)
	order := dynamicpb.NewMessage(md)
	order.Set(md.Fields().ByName("id"), protoreflect.ValueOfString("o-1"))
	total := order.Mutable(md.Fields().ByName("total")).Message()
	total.Set(total.Descriptor().Fields().ByName("currency"), protoreflect.ValueOfString("EUR"))
	total.Set(total.Descriptor().Fields().ByName("units"), protoreflect.ValueOfInt64(12))
	data, err := proto.Marshal(order)
	if err != nil {
		t.Fatal(err)
	}
	topic := newTopic(t, &pb.Topic{SchemaSettings: &pb.SchemaSettings{Schema: s.Name, Encoding: pb.Encoding_BINARY}})
	sub := newSub(t, topic, nil)
	if err := rawPublish(&pb.PubsubMessage{Data: data})(topic); err != nil {
		t.Fatalf("publish of a valid Order: %v", err)
	}
	wantCode(t, rawPublish(&pb.PubsubMessage{Data: []byte{0x12, 0xff, 0x01}})(topic), codes.InvalidArgument, "publish of a broken Order")
	msgs := pullUntil(t, sub, 1, wait)
	if len(msgs) != 1 || msgs[0].Message.Attributes["googclient_schemaencoding"] != "BINARY" {
		t.Fatalf("got %v", msgs)
	}
	back := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(msgs[0].Message.Data, back); err != nil || !proto.Equal(back, order) {
		t.Fatalf("delivered %v (%v)", back, err)
	}
	ack(t, sub, msgs[0].AckId)

	// ValidateMessage against the stored schema, and a root message the set lacks refused.
	if _, err := schemas(t).ValidateMessage(ctxFor(t, wait), &pb.ValidateMessageRequest{
		Parent: projectPath, SchemaSpec: &pb.ValidateMessageRequest_Name{Name: s.Name}, Message: data, Encoding: pb.Encoding_BINARY,
	}); err != nil {
		t.Errorf("ValidateMessage: %v", err)
	}
	_, err = schemas(t).ValidateSchema(ctxFor(t, wait), &pb.ValidateSchemaRequest{Parent: projectPath, Schema: &pb.Schema{
		Type: pb.Schema_PROTOCOL_BUFFER, Configuration: &pb.Schema_CompiledProtoSchema{CompiledProtoSchema: &pb.CompiledProtoSchema{RootMessage: "shop.Missing", CompiledBytes: compiled}},
	}})
	wantCode(t, err, codes.InvalidArgument, "ValidateSchema with an unknown root message")
}
