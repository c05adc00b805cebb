/**
 * What the emulator loads on its first connection and first call (hpack.js, protobufjs: ≈ 25–30 ms
 * of CPU together) is loaded when the test API is imported instead. The server defers them to
 * keep an idle binary small; a test process wants its first call after start() fast, and pays
 * for them while its files load.
 */
require("hpack.js");
require("protobufjs");
