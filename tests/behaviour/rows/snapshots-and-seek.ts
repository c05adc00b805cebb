/** Snapshots and Seek: each rule naming the field or resource in its message. */
import { PARENT, pub, snapPath, subPath, subr, topicPath, type StatusRow } from "./row.ts";

const DAY_S = 24 * 3600;

export const SNAPSHOT_ROWS: StatusRow[] = [
  // CreateSnapshot
  {
    name: "CreateSnapshot with a malformed name → INVALID_ARGUMENT",
    call: subr("CreateSnapshot", (f) => ({ name: "projects/p/topics/x", subscription: f.sub })),
    code: "INVALID_ARGUMENT",
    mentions: "name",
    grpcOnly: "over REST that path is CreateTopic's",
  },
  {
    name: "CreateSnapshot without a subscription → INVALID_ARGUMENT",
    call: subr("CreateSnapshot", () => ({ name: snapPath() })),
    code: "INVALID_ARGUMENT",
    mentions: "subscription",
  },
  {
    name: "CreateSnapshot of a missing subscription → NOT_FOUND",
    call: subr("CreateSnapshot", () => ({ name: snapPath(), subscription: subPath("missing-csn") })),
    code: "NOT_FOUND",
    mentions: "missing-csn",
  },
  {
    name: "CreateSnapshot of an existing name → ALREADY_EXISTS",
    call: subr("CreateSnapshot", (f) => ({ name: f.snapshot, subscription: f.sub })),
    code: "ALREADY_EXISTS",
    mentions: (f) => f.snapshot,
  },
  {
    name: "CreateSnapshot with an invalid label key → INVALID_ARGUMENT",
    call: subr("CreateSnapshot", (f) => ({ name: snapPath(), subscription: f.sub, labels: { "Bad-Key": "v" } })),
    code: "INVALID_ARGUMENT",
    mentions: "label",
  },
  // Get, List, Delete
  { name: "GetSnapshot of a missing snapshot → NOT_FOUND", call: subr("GetSnapshot", () => ({ snapshot: snapPath("missing-gsn") })), code: "NOT_FOUND", mentions: "missing-gsn" },
  {
    name: "GetSnapshot of a malformed name → INVALID_ARGUMENT",
    call: subr("GetSnapshot", () => ({ snapshot: "projects/p/snapshots/1x" })),
    code: "INVALID_ARGUMENT",
    mentions: "snapshot",
  },
  { name: "DeleteSnapshot of a missing snapshot → NOT_FOUND", call: subr("DeleteSnapshot", () => ({ snapshot: snapPath("missing-dsn") })), code: "NOT_FOUND", mentions: "missing-dsn" },
  {
    name: "ListSnapshots of a malformed project → INVALID_ARGUMENT",
    call: subr("ListSnapshots", () => ({ project: "project/x" })),
    code: "INVALID_ARGUMENT",
    mentions: "project",
    grpcOnly: "the project is the URL's path: outside projects/* no route carries it",
  },
  {
    name: "ListSnapshots with a negative page size → INVALID_ARGUMENT",
    call: subr("ListSnapshots", () => ({ project: PARENT, pageSize: -1 })),
    code: "INVALID_ARGUMENT",
    mentions: "page_size",
  },
  {
    name: "ListTopicSnapshots of a missing topic → NOT_FOUND",
    call: pub("ListTopicSnapshots", () => ({ topic: topicPath("missing-lts") })),
    code: "NOT_FOUND",
    mentions: "missing-lts",
  },
  // UpdateSnapshot
  {
    name: "UpdateSnapshot with an empty mask → INVALID_ARGUMENT",
    call: subr("UpdateSnapshot", (f) => ({ snapshot: { name: f.snapshot, labels: { a: "b" } }, updateMask: { paths: [] } })),
    code: "INVALID_ARGUMENT",
    mentions: "update_mask",
  },
  {
    name: "UpdateSnapshot of the immutable topic → INVALID_ARGUMENT",
    call: subr("UpdateSnapshot", (f) => ({ snapshot: { name: f.snapshot, topic: f.topic }, updateMask: { paths: ["topic"] } })),
    code: "INVALID_ARGUMENT",
    mentions: "topic",
  },
  {
    name: "UpdateSnapshot with an unknown path → INVALID_ARGUMENT",
    call: subr("UpdateSnapshot", (f) => ({ snapshot: { name: f.snapshot }, updateMask: { paths: ["ttl"] } })),
    code: "INVALID_ARGUMENT",
    mentions: "ttl",
  },
  {
    name: "UpdateSnapshot expire_time past the snapshot's lifetime → INVALID_ARGUMENT",
    call: subr("UpdateSnapshot", (f) => ({
      snapshot: { name: f.snapshot, expireTime: { seconds: Math.floor(Date.now() / 1000) + 8 * DAY_S } },
      updateMask: { paths: ["expire_time"] },
    })),
    code: "INVALID_ARGUMENT",
    mentions: "expire_time",
  },
  {
    name: "UpdateSnapshot of a missing snapshot → NOT_FOUND",
    call: subr("UpdateSnapshot", () => ({ snapshot: { name: snapPath("missing-usn") }, updateMask: { paths: ["labels"] } })),
    code: "NOT_FOUND",
    mentions: "missing-usn",
  },
  // Seek
  { name: "Seek without a target → INVALID_ARGUMENT", call: subr("Seek", (f) => ({ subscription: f.sub })), code: "INVALID_ARGUMENT", mentions: "snapshot" },
  {
    name: "Seek on a missing subscription → NOT_FOUND",
    call: subr("Seek", () => ({ subscription: subPath("missing-seek"), time: { seconds: 1 } })),
    code: "NOT_FOUND",
    mentions: "missing-seek",
  },
  {
    name: "Seek to a missing snapshot → NOT_FOUND",
    call: subr("Seek", (f) => ({ subscription: f.sub, snapshot: snapPath("missing-seek-snap") })),
    code: "NOT_FOUND",
    mentions: "missing-seek-snap",
  },
  {
    name: "Seek to a malformed snapshot name → INVALID_ARGUMENT",
    call: subr("Seek", (f) => ({ subscription: f.sub, snapshot: "snap" })),
    code: "INVALID_ARGUMENT",
    mentions: "snapshot",
  },
  {
    name: "Seek to a snapshot of another topic → FAILED_PRECONDITION",
    call: subr("Seek", (f) => ({ subscription: f.otherSub, snapshot: f.snapshot })),
    code: "FAILED_PRECONDITION",
    mentions: (f) => f.snapshot,
  },
  {
    name: "Seek on a detached subscription → FAILED_PRECONDITION",
    call: subr("Seek", (f) => ({ subscription: f.detached, time: { seconds: 1 } })),
    code: "FAILED_PRECONDITION",
    mentions: "detached",
  },
];
