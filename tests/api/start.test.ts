/** The test API in process under bun test: start() on port 0, twice in one process, with the official client. */
import { afterAll, describe, expect, test } from "bun:test";
import { PubSub } from "@google-cloud/pubsub";
import { start, EmulatorError } from "../../src/api/index.ts";
import type { Emulator } from "../../lib/index.d.ts";
import { PROJECT, unique } from "../helpers/emulator.ts";
import { receive } from "../helpers/receive.ts";
import { walkThrough } from "../helpers/api-scenario.ts";

const started: Emulator[] = [];
const track = async (p: Promise<Emulator>) => (started.push(await p), started.at(-1)!);
afterAll(() => Promise.all(started.map((e) => e.stop())));

const clientOf = (emu: Emulator) => new PubSub({ projectId: PROJECT, apiEndpoint: emu.host, emulatorMode: true });

describe("start() in process", () => {
  test("two emulators in one process, each on its own free port, each with its own resources", async () => {
    const [a, b] = await Promise.all([track(start()), track(start({ project: "proj-b" }))]);
    expect(a.mode).toBe("in-process");
    expect(a.pid).toBe(process.pid);
    expect(a.port).toBeGreaterThan(0);
    expect(b.port).not.toBe(a.port);
    expect(a.host).toBe(`127.0.0.1:${a.port}`);
    expect(a.env).toEqual({ PUBSUB_EMULATOR_HOST: a.host });
    expect(b.env).toEqual({ PUBSUB_EMULATOR_HOST: b.host, PUBSUB_PROJECT_ID: "proj-b" });

    const [ca, cb] = [clientOf(a), clientOf(b)];
    try {
      const t = unique("t");
      const [topic] = await ca.createTopic(t);
      const [sub] = await topic.createSubscription(unique("s"));
      const got = receive(sub, 1);
      const id = await topic.publishMessage({ data: Buffer.from("only on a") });
      expect((await got).map((m) => [m.id, m.data.toString()])).toEqual([[id, "only on a"]]);
      await sub.close();
      expect((await cb.topic(t).exists())[0]).toBe(false);
      expect((await b.reset()).topics).toBe(0);
      expect((await ca.topic(t).exists())[0]).toBe(true);
    } finally {
      await Promise.all([ca.close(), cb.close()]);
    }
  });

  test("clock, inspection and reset through the methods", async () => {
    const emu = await track(start({ clock: "manual" }));
    const seen = await walkThrough(emu);
    expect(seen.errors).toEqual([
      ["EmulatorError", "NOT_FOUND"],
      ["EmulatorError", "INVALID_ARGUMENT"],
      ["EmulatorError", "INVALID_ARGUMENT"],
      ["EmulatorError", "INVALID_ARGUMENT"],
      ["EmulatorError", "INVALID_ARGUMENT"],
      ["EmulatorError", "NOT_FOUND"],
    ]);
  });

  test("options are checked as the command line checks its flags", async () => {
    await expect(start({ maxMemory: "1K" })).rejects.toThrow(/--max-memory must be 0 or a size/);
    await expect(start({ clock: "sundial" as "manual" })).rejects.toThrow(/--clock must be system or manual/);
    await expect(start({ colour: "blue" } as object)).rejects.toThrow(/unknown flag --colour/);
    await expect(start({ "__proto__x": 1 } as object)).rejects.toThrow(/unknown option/);
    await expect(start({ port: 70000 })).rejects.toThrow(/--host-port port must be an integer from 0 to 65535/);
    await expect(start({ project: { a: 1 } } as object)).rejects.toThrow(/option project must be a string or a number/);
  });

  test("provisioned resources exist when start() resolves", async () => {
    const emu = await track(start({ provision: ["prov-a,orders:orders-worker", "prov-b,audit"] }));
    expect((await emu.topic("projects/prov-a/topics/orders")).subscriptions).toEqual(["projects/prov-a/subscriptions/orders-worker"]);
    expect((await emu.topic("projects/prov-b/topics/audit")).name).toBe("projects/prov-b/topics/audit");
  });

  test("stop() closes the port, is idempotent, and later calls are refused", async () => {
    const emu = await start();
    const stopping = emu.stop();
    expect(emu.stop()).toBe(stopping);
    await stopping;
    const refused = await emu.clock().catch((e) => e);
    expect(refused).toBeInstanceOf(EmulatorError);
    expect(refused.code).toBe("FAILED_PRECONDITION");
    const connected = await Bun.connect({ hostname: "127.0.0.1", port: emu.port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    expect(connected).toBe(false);
  });
});
