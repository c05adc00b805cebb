/** grpc-status-details-bin decodes with protobufjs as google.rpc.Status with its typed details. */
import { expect, test } from "bun:test";
import protobuf from "protobufjs";
import { fileURLToPath } from "node:url";
import { encodeStatus } from "../../src/grpc/status-details.ts";

const DIR = fileURLToPath(new URL("../../protos/", import.meta.url));
const root = new protobuf.Root();
root.resolvePath = (_o, target) => DIR + target;
root.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"]);
const Status = root.lookupType("google.rpc.Status");

test("Status with ErrorInfo, BadRequest and RetryInfo round-trips through protobufjs", () => {
  const bytes = encodeStatus(3, "bad ack ids", [
    { kind: "ErrorInfo", reason: "EXACTLY_ONCE_ACKID_FAILURE", domain: "pubsub.googleapis.com", metadata: [["ack-1", "PERMANENT_FAILURE_INVALID_ACK_ID"], ["__proto__", "x"]] },
    { kind: "BadRequest", fieldViolations: [{ field: "ack_ids", description: "stale" }] },
    { kind: "RetryInfo", retryDelayMs: 1500 },
  ]);
  const s = Status.toObject(Status.decode(bytes), { longs: Number }) as { code: number; message: string; details: { type_url: string; value: Uint8Array }[] };
  expect(s.code).toBe(3);
  expect(s.message).toBe("bad ack ids");
  expect(s.details.map((d) => d.type_url)).toEqual([
    "type.googleapis.com/google.rpc.ErrorInfo",
    "type.googleapis.com/google.rpc.BadRequest",
    "type.googleapis.com/google.rpc.RetryInfo",
  ]);
  const info = root.lookupType("google.rpc.ErrorInfo").decode(s.details[0].value) as unknown as { reason: string; metadata: Record<string, string> };
  expect(info.reason).toBe("EXACTLY_ONCE_ACKID_FAILURE");
  expect(info.metadata["ack-1"]).toBe("PERMANENT_FAILURE_INVALID_ACK_ID");
  const bad = root.lookupType("google.rpc.BadRequest").decode(s.details[1].value) as unknown as { fieldViolations: { field: string }[] };
  expect(bad.fieldViolations[0].field).toBe("ack_ids");
  const retry = root.lookupType("google.rpc.RetryInfo").toObject(root.lookupType("google.rpc.RetryInfo").decode(s.details[2].value), { longs: Number }) as { retryDelay: { seconds: number; nanos: number } };
  expect(retry.retryDelay).toEqual({ seconds: 1, nanos: 500_000_000 });
});
