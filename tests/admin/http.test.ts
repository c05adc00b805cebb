/** The HTTP side of the port: health, reset (whole and per project), the cross-site guard. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as net from "node:net";
import { crossSiteRefusal } from "../../src/admin/guard.ts";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

const url = (path: string) => `http://${emu.endpoint}${path}`;
const topicCount = async () => (await emu.admin("GET", "/metrics.json")).topics as number;

describe("health", () => {
  test("GET / answers Ok as the gcloud emulator does; /health answers JSON", async () => {
    expect(await (await fetch(url("/"))).text()).toBe("Ok\n");
    expect(await (await fetch(url("/health"))).json()).toEqual({ status: "ok" });
  });

  test("unknown paths are 404 and a wrong method 405, with a JSON error", async () => {
    const missing = await fetch(url("/nope"));
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.status).toBe("NOT_FOUND");
    expect((await fetch(url("/emulator/v1/reset"))).status).toBe(405);
  });

  test("a request target that is no URL (\"//\", \"//:99999\") is 400 with a JSON error; the server serves on", async () => {
    for (const target of ["//", "//:99999", "//[", "http://[::1"]) {
      const head = await rawRequest(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(head).toMatch(/^HTTP\/1\.1 400/);
      expect(head).toContain("INVALID_ARGUMENT");
    }
    expect((await fetch(url("/health"))).status).toBe(200);
  });
});

/** One raw HTTP/1.1 exchange on a socket; resolves with everything read until the server closes (bounded). */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port: emu.port });
    let got = "";
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer: ${got}`))), 5000);
    socket.on("data", (d) => (got += d.toString("latin1")));
    socket.on("close", () => (clearTimeout(timer), resolve(got)));
    socket.on("error", () => {});
    socket.write(text);
  });
}

describe("cross-site protection", () => {
  test("a plain cross-site form POST to /reset is refused and wipes nothing", async () => {
    await emu.client().createTopic(unique("kept"));
    const before = await topicCount();
    for (const path of ["/reset", "/emulator/v1/reset"]) {
      const res = await fetch(url(path), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: "a=1",
      });
      expect(res.status).toBe(403);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect((await res.json()).error.status).toBe("PERMISSION_DENIED");
    }
    expect(await topicCount()).toBe(before);
  });

  test("the admin header alone does not let a cross-site or rebinding browser request through", async () => {
    const tries: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://evil.example" },
      { origin: "http://evil.example", host: "evil.example" },
      { origin: "not a url" },
    ];
    for (const headers of tries) {
      const res = await fetch(url("/emulator/v1/clock/advance"), { method: "POST", headers: { "x-emulator-admin": "1", ...headers }, body: '{"duration":"0s"}' });
      expect({ headers, status: res.status }).toEqual({ headers, status: 403 });
    }
  });

  test("a same-origin browser request and a script with the header are served", async () => {
    const sameOrigin = await fetch(url("/emulator/v1/clock/advance"), {
      method: "POST",
      headers: { "x-emulator-admin": "1", origin: url(""), "sec-fetch-site": "same-origin" },
      body: '{"duration":"0s"}',
    });
    expect(sameOrigin.status).toBe(200);
    expect((await emu.admin("POST", "/emulator/v1/clock/advance", { duration: "0s" })).mode).toBe("system");
  });

  test("a cross-site browser POST to the REST API is refused; REST clients without browser headers are served", async () => {
    const [topic] = await emu.client().createTopic(unique("rest-guard"));
    const [sub] = await topic.createSubscription(unique("rest-guard-sub"));
    const detach = (headers: Record<string, string>) =>
      fetch(url(`/v1/${sub.name}:detach`), { method: "POST", headers, signal: AbortSignal.timeout(5000) });
    for (const headers of [{ "sec-fetch-site": "cross-site" }, { origin: "https://evil.example" }] as Record<string, string>[]) {
      const res = await detach(headers);
      expect(res.status).toBe(403);
      expect((await res.json()).error.status).toBe("PERMISSION_DENIED");
    }
    expect((await sub.getMetadata())[0].detached).toBe(false);
    expect((await detach({ "content-type": "application/json" })).status).toBe(200);
    expect((await sub.getMetadata())[0].detached).toBe(true);
  });

  test("a CORS preflight is refused without any Access-Control header", async () => {
    const res = await fetch(url("/emulator/v1/reset"), { method: "OPTIONS", headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect([...res.headers.keys()].filter((k) => k.startsWith("access-control"))).toEqual([]);
  });
});

describe("reset", () => {
  test("reset of one project drops its topics and subscriptions only", async () => {
    const other = emu.client({ projectId: "other-project" });
    const [keep] = await other.createTopic(unique("other"));
    const [mine] = await emu.client().createTopic(unique("mine"));
    await mine.createSubscription(unique("mine-sub"));
    const res = await emu.admin("POST", `/emulator/v1/projects/${PROJECT}/reset`);
    expect(res.reset).toBe(true);
    expect(res.subscriptions).toBeGreaterThanOrEqual(1);
    expect((await mine.exists())[0]).toBe(false);
    expect((await keep.exists())[0]).toBe(true);
  });

  test("an invalid project name is a 400 naming it", async () => {
    await expect(emu.admin("POST", "/emulator/v1/projects/-bad-/reset")).rejects.toThrow(/400.*project/);
  });

  test("reset of everything drops every topic", async () => {
    await emu.client().createTopic(unique("gone"));
    await emu.admin("POST", "/emulator/v1/reset");
    expect(await topicCount()).toBe(0);
  });
});

describe("the guard's host rule", () => {
  const req = (headers: Record<string, string>) => ({ headers: { "x-emulator-admin": "1", ...headers } }) as never;
  test("a DNS-rebinding name is refused; loopback names, IP literals and the configured host are served", () => {
    const allowed = new Set(["pubsub-emulator"]);
    const refused = (origin: string, host: string) => crossSiteRefusal(req({ origin, host }), allowed) !== null;
    expect(refused("http://evil.example:8085", "evil.example:8085")).toBe(true);
    expect(refused("http://localhost:8085", "localhost:8085")).toBe(false);
    expect(refused("http://app.localhost:8085", "app.localhost:8085")).toBe(false);
    expect(refused("http://10.1.2.3:8085", "10.1.2.3:8085")).toBe(false);
    expect(refused("http://[::1]:8085", "[::1]:8085")).toBe(false);
    expect(refused("http://pubsub-emulator:8085", "pubsub-emulator:8085")).toBe(false);
    expect(crossSiteRefusal(req({}), allowed)).toBeNull();
    expect(crossSiteRefusal({ headers: {} } as never, allowed)).toMatch(/X-Emulator-Admin/);
  });
});
