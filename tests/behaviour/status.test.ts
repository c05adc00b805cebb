/**
 * One behaviour suite, two transports: every status row of rows/ over gRPC and over REST, against
 * one emulator. Rows without a REST form (StreamingPull; a name outside the path template) run over
 * gRPC only, and a test below shows REST refuses to build them.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { createFixtures } from "./rows/fixtures.ts";
import { ROWS } from "./rows/index.ts";
import { PARENT, type Fixtures } from "./rows/row.ts";
import { TRANSPORTS, type Client } from "./transports.ts";

const DAY_S = 24 * 3600;
/** A Timestamp's seconds from either transport: `{ seconds }` over gRPC, RFC 3339 over REST. */
const epochSeconds = (t: string | { seconds: string }) => (typeof t === "string" ? Date.parse(t) / 1000 : Number(t.seconds));

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
});

for (const transport of TRANSPORTS) {
  describe(`status codes over ${transport.name}`, () => {
    let client: Client;
    let f: Fixtures;

    beforeAll(async () => {
      client = transport.open(emu.endpoint);
      f = await createFixtures(client);
    });
    afterAll(() => client?.close());

    for (const row of ROWS) {
      if ((row.stream || row.grpcOnly) && transport.name === "REST") continue;
      test(row.name, async () => {
        const expected = (transport.name === "REST" && row.rest) || row;
        const out = row.stream
          ? await client.stream!(row.stream(f))
          : await transport.outcome(client.call(row.call![0], row.call![1], row.call![2](f)));
        expect(grpc.status[out.code]).toBe(expected.code);
        expect(out.message).toContain(typeof expected.mentions === "function" ? expected.mentions(f) : expected.mentions);
        if (row.violation) {
          const bad = out.details.find((d) => d.type === "BadRequest");
          expect(bad?.fieldViolations?.map((v: { field: string }) => v.field)).toContain(row.violation);
        }
        if (row.errorInfo) expect(out.details.find((d) => d.type === "ErrorInfo")).toEqual({ type: "ErrorInfo", ...row.errorInfo });
      });
    }

    if (transport.name === "REST") {
      test("rows marked gRPC-only cannot be sent over REST at all", () => {
        for (const row of ROWS.filter((r) => r.grpcOnly)) {
          expect(() => client.call(row.call![0], row.call![1], row.call![2](f))).toThrow("does not fit");
        }
      });
    }

    test("the valid forms succeed (the rows are not failing for a shared reason)", async () => {
      const res = await client.call("Publisher", "Publish", {
        topic: f.topic,
        messages: [{ data: Buffer.from("ok"), attributes: { k: "é".repeat(512) } }],
      });
      expect(res.messageIds.length).toBe(1);
      const snap = await client.call("Subscriber", "GetSnapshot", { snapshot: f.snapshot });
      expect(snap.topic).toBe(f.topic);
      expect(epochSeconds(snap.expireTime)).toBeGreaterThan(Date.now() / 1000 + 6 * DAY_S);
      expect(await client.call("Subscriber", "Seek", { subscription: f.sub, snapshot: f.snapshot })).toEqual({});
      expect(await client.call("Subscriber", "Seek", { subscription: f.sub, time: { seconds: 0 } })).toEqual({});
      const up = await client.call("Subscriber", "UpdateSnapshot", {
        snapshot: { name: f.snapshot, labels: { k: "v" } },
        updateMask: { paths: ["labels"] },
      });
      expect(up.labels).toEqual({ k: "v" });
      if (transport.name === "gRPC") {
        // Over REST the snapshot's name is the URL's path: only gRPC can ask for a generated one.
        const named = await client.call("Subscriber", "CreateSnapshot", { subscription: f.sub });
        expect(named.name).toStartWith(`${PARENT}/snapshots/`);
      }
      const policy = await client.call("IAMPolicy", "GetIamPolicy", { resource: f.topic });
      expect(policy.etag).not.toEqual(transport.name === "REST" ? f.staleEtag.toString("base64") : f.staleEtag);
    });
  });
}
