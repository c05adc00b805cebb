/**
 * What the emulator's first connection and first call load and run once per process (hpack.js;
 * protobufjs, and its code generation on a first codec) is done when the test API is imported
 * instead. The server defers it to keep an idle binary small; a test process wants its first call
 * after start() fast, and pays for it while its files load.
 */
import { serviceDefinition } from "../grpc/definitions.ts";

require("hpack.js");
// The Topic codec (CreateTopic's request and answer, the usual first call) built and run once.
const createTopic = serviceDefinition("Publisher").CreateTopic;
createTopic.responseDeserialize(createTopic.requestSerialize({ name: "projects/p/topics/t", labels: { a: "b" } }));
createTopic.requestDeserialize(createTopic.responseSerialize({ name: "projects/p/topics/t" }));
