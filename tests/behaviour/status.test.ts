/**
 * One behaviour suite, two transports: every status row of status-rows.ts over gRPC and over
 * REST, against one emulator. Rows without a REST form (StreamingPull; a name outside the path
 * template) run over gRPC only, and a test below shows REST refuses to build them.
 */
import * as grpc from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator.ts";
import { ROWS, subPath, topicPath, type Fixtures } from "./status-rows.ts";
import { TRANSPORTS, type Client } from "./transports.ts";

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
    const f: Fixtures = { topic: topicPath(), sub: subPath(), detached: subPath() };

    beforeAll(async () => {
      client = transport.open(emu.endpoint);
      await client.call("Publisher", "CreateTopic", { name: f.topic });
      await client.call("Subscriber", "CreateSubscription", { name: f.sub, topic: f.topic });
      await client.call("Subscriber", "CreateSubscription", { name: f.detached, topic: f.topic });
      await client.call("Publisher", "DetachSubscription", { subscription: f.detached });
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
      });
    }

    if (transport.name === "REST") {
      test("rows marked gRPC-only cannot be sent over REST at all", () => {
        for (const row of ROWS.filter((r) => r.grpcOnly)) {
          expect(() => client.call(row.call![0], row.call![1], row.call![2](f))).toThrow("does not fit");
        }
      });
    }

    test("a valid publish succeeds (the rows are not failing for a shared reason)", async () => {
      const res = await client.call("Publisher", "Publish", {
        topic: f.topic,
        messages: [{ data: Buffer.from("ok"), attributes: { k: "é".repeat(512) } }],
      });
      expect(res.messageIds.length).toBe(1);
    });
  });
}
