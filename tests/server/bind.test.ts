/**
 * A host name is listened on at every address it resolves to: a server started on `localhost`
 * answers clients that name 127.0.0.1 and clients that name ::1, whichever /etc/hosts lists first.
 * The resolver is passed in, so both orders are tested on any machine.
 */
import { afterEach, expect, test } from "bun:test";
import { lookup } from "node:dns/promises";
import * as net from "node:net";
import { bindAll } from "../../src/server/bind.ts";

const open: net.Server[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/** Connects, reads the greeting the test server writes, and closes (bounded). */
function greeting(address: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect({ host: address, port });
    const timer = setTimeout(() => (c.destroy(), reject(new Error(`no answer from ${address}:${port}`))), 5000);
    c.once("data", (d) => (clearTimeout(timer), c.end(), resolve(d.toString())));
    c.once("error", (e) => (clearTimeout(timer), reject(e)));
  });
}

const hello = (socket: net.Socket) => socket.end("hello");

/** A server of someone else's on a free port of `address`; returns the port. */
async function squat(address: string): Promise<number> {
  const squatter = net.createServer(() => {});
  await new Promise<void>((r) => squatter.listen(0, address, () => r()));
  open.push(squatter);
  return (squatter.address() as net.AddressInfo).port;
}

for (const order of [["::1", "127.0.0.1"], ["127.0.0.1", "::1"]]) {
  test(`a name that resolves to ${order.join(" then ")} is listened on at both, on one port`, async () => {
    const servers = await bindAll("localhost", 0, hello, async () => order);
    open.push(...servers);
    expect(servers.map((s) => (s.address() as net.AddressInfo).address)).toEqual(order);
    const port = (servers[0].address() as net.AddressInfo).port;
    expect((servers[1].address() as net.AddressInfo).port).toBe(port);
    expect(await greeting("127.0.0.1", port)).toBe("hello");
    expect(await greeting("::1", port)).toBe("hello");
  });
}

test("an address after the first that cannot be bound is skipped; the first still serves", async () => {
  const taken = await squat("::1");
  const servers = await bindAll("localhost", taken, hello, async () => ["127.0.0.1", "::1"]);
  open.push(...servers);
  expect(servers.length).toBe(1);
  expect(await greeting("127.0.0.1", taken)).toBe("hello");
});

test("the first address taken is the caller's error (the port is in use)", async () => {
  const taken = await squat("127.0.0.1");
  await expect(bindAll("localhost", taken, hello, async () => ["127.0.0.1", "::1"])).rejects.toMatchObject({ code: "EADDRINUSE" });
});

test("a literal address is bound alone, without resolving", async () => {
  let asked = false;
  const servers = await bindAll("127.0.0.1", 0, hello, async () => ((asked = true), ["::1"]));
  open.push(...servers);
  expect(asked).toBe(false);
  expect(servers.length).toBe(1);
});

test("the real resolver: localhost is served at every address this machine gives it", async () => {
  const servers = await bindAll("localhost", 0, hello);
  open.push(...servers);
  const port = (servers[0].address() as net.AddressInfo).port;
  const addresses = (await lookup("localhost", { all: true })).map((a) => a.address);
  expect(addresses.length).toBeGreaterThan(0);
  for (const a of addresses) expect(await greeting(a, port)).toBe("hello");
});
