// Prints the Pub/Sub API as the Go client cloud.google.com/go/pubsub/v2 compiled it: the file
// descriptors of google/pubsub/v1/pubsub.proto and schema.proto, as one binary
// google.protobuf.FileDescriptorSet on stdout (read by tests/drift/drift.test.ts).
package main

import (
	"os"

	"cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
)

func main() {
	set := &descriptorpb.FileDescriptorSet{}
	for _, f := range []protoreflect.FileDescriptor{pubsubpb.File_google_pubsub_v1_pubsub_proto, pubsubpb.File_google_pubsub_v1_schema_proto} {
		set.File = append(set.File, protodesc.ToFileDescriptorProto(f))
	}
	b, err := proto.Marshal(set)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.Write(b)
}
