/** Snapshots and Seek: each rule naming the field or resource in its message. */
import { PARENT, pub, refusal, snapPath, subPath, subr, topicPath, type StatusRow } from "./row.ts";

const DAY_S = 24 * 3600;

export const SNAPSHOT_ROWS: StatusRow[] = [
  // CreateSnapshot
  refusal("CreateSnapshot with a malformed name", subr("CreateSnapshot", (f) => ({ name: "projects/p/topics/x", subscription: f.sub })), "INVALID_ARGUMENT", "name", { grpcOnly: "over REST that path is CreateTopic's" }),
  refusal("CreateSnapshot without a subscription", subr("CreateSnapshot", () => ({ name: snapPath() })), "INVALID_ARGUMENT", "subscription"),
  refusal("CreateSnapshot of a missing subscription", subr("CreateSnapshot", () => ({ name: snapPath(), subscription: subPath("missing-csn") })), "NOT_FOUND", "missing-csn"),
  refusal("CreateSnapshot of an existing name", subr("CreateSnapshot", (f) => ({ name: f.snapshot, subscription: f.sub })), "ALREADY_EXISTS", (f) => f.snapshot),
  refusal("CreateSnapshot with an invalid label key", subr("CreateSnapshot", (f) => ({ name: snapPath(), subscription: f.sub, labels: { "Bad-Key": "v" } })), "INVALID_ARGUMENT", "label"),
  // Get, List, Delete
  refusal("GetSnapshot of a missing snapshot", subr("GetSnapshot", () => ({ snapshot: snapPath("missing-gsn") })), "NOT_FOUND", "missing-gsn"),
  refusal("GetSnapshot of a malformed name", subr("GetSnapshot", () => ({ snapshot: "projects/p/snapshots/1x" })), "INVALID_ARGUMENT", "snapshot"),
  refusal("DeleteSnapshot of a missing snapshot", subr("DeleteSnapshot", () => ({ snapshot: snapPath("missing-dsn") })), "NOT_FOUND", "missing-dsn"),
  refusal("ListSnapshots of a malformed project", subr("ListSnapshots", () => ({ project: "project/x" })), "INVALID_ARGUMENT", "project", { grpcOnly: "the project is the URL's path: outside projects/* no route carries it" }),
  refusal("ListSnapshots with a negative page size", subr("ListSnapshots", () => ({ project: PARENT, pageSize: -1 })), "INVALID_ARGUMENT", "page_size"),
  refusal("ListTopicSnapshots of a missing topic", pub("ListTopicSnapshots", () => ({ topic: topicPath("missing-lts") })), "NOT_FOUND", "missing-lts"),
  // UpdateSnapshot
  refusal("UpdateSnapshot with an empty mask", subr("UpdateSnapshot", (f) => ({ snapshot: { name: f.snapshot, labels: { a: "b" } }, updateMask: { paths: [] } })), "INVALID_ARGUMENT", "update_mask"),
  refusal("UpdateSnapshot of the immutable topic", subr("UpdateSnapshot", (f) => ({ snapshot: { name: f.snapshot, topic: f.topic }, updateMask: { paths: ["topic"] } })), "INVALID_ARGUMENT", "topic"),
  refusal("UpdateSnapshot with an unknown path", subr("UpdateSnapshot", (f) => ({ snapshot: { name: f.snapshot }, updateMask: { paths: ["ttl"] } })), "INVALID_ARGUMENT", "ttl"),
  refusal(
    "UpdateSnapshot expire_time past the snapshot's lifetime",
    subr("UpdateSnapshot", (f) => ({
      snapshot: { name: f.snapshot, expireTime: { seconds: Math.floor(Date.now() / 1000) + 8 * DAY_S } },
      updateMask: { paths: ["expire_time"] },
    })),
    "INVALID_ARGUMENT",
    "expire_time",
  ),
  refusal("UpdateSnapshot of a missing snapshot", subr("UpdateSnapshot", () => ({ snapshot: { name: snapPath("missing-usn") }, updateMask: { paths: ["labels"] } })), "NOT_FOUND", "missing-usn"),
  // Seek
  refusal("Seek without a target", subr("Seek", (f) => ({ subscription: f.sub })), "INVALID_ARGUMENT", "snapshot"),
  refusal("Seek on a missing subscription", subr("Seek", () => ({ subscription: subPath("missing-seek"), time: { seconds: 1 } })), "NOT_FOUND", "missing-seek"),
  refusal("Seek to a missing snapshot", subr("Seek", (f) => ({ subscription: f.sub, snapshot: snapPath("missing-seek-snap") })), "NOT_FOUND", "missing-seek-snap"),
  refusal("Seek to a malformed snapshot name", subr("Seek", (f) => ({ subscription: f.sub, snapshot: "snap" })), "INVALID_ARGUMENT", "snapshot"),
  refusal("Seek to a snapshot of another topic", subr("Seek", (f) => ({ subscription: f.otherSub, snapshot: f.snapshot })), "FAILED_PRECONDITION", (f) => f.snapshot),
  refusal("Seek on a detached subscription", subr("Seek", (f) => ({ subscription: f.detached, time: { seconds: 1 } })), "FAILED_PRECONDITION", "detached"),
];
