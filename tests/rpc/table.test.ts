/** The RPC table covers every method of every served service, so no transport has a gap. */
import { describe, expect, test } from "bun:test";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { PubSubError } from "../../src/core/errors.ts";
import { SERVICES, serviceMethods, type ServiceName } from "../../src/rpc/services.ts";
import { NO_CONTEXT, createRpcTable, implementedRpcs } from "../../src/rpc/table.ts";
import { unimplementedRpcs } from "../../src/rpc/unimplemented.ts";

const table = createRpcTable(new Broker({ clock: new ManualClock() }));

describe("rpc table", () => {
  for (const service of Object.keys(SERVICES) as ServiceName[]) {
    test(`${service}: every unary method has an entry`, () => {
      const methods = Object.entries(serviceMethods(service)).filter(([, m]) => !m.requestStream);
      expect(methods.length).toBeGreaterThan(0);
      for (const [method] of methods) expect(table.unary.has(`${service}.${method}`)).toBe(true);
    });
  }

  test("every RPC has a handler of its own; the UNIMPLEMENTED fallback names the method", () => {
    const fallbacks = new Map(unimplementedRpcs());
    const implemented = implementedRpcs(new Broker({ clock: new ManualClock() }));
    expect([...fallbacks.keys()].filter((name) => !implemented.has(name))).toEqual([]);
    let caught: unknown;
    try {
      fallbacks.get("Subscriber.Seek")!({ subscription: "projects/p/subscriptions/s" }, NO_CONTEXT);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PubSubError);
    expect((caught as PubSubError).code).toBe("UNIMPLEMENTED");
    expect((caught as PubSubError).message).toContain("Seek");
  });

  test("a handler is a plain function of the request", () => {
    const created = table.unary.get("Publisher.CreateTopic")!({ name: "projects/p/topics/plain" }, NO_CONTEXT) as { name: string };
    expect(created.name).toBe("projects/p/topics/plain");
  });
});
