/**
 * The dashboard in real headless Chromium (Debian's chromium driven by playwright-core): it loads,
 * shows a topic created through gRPC, publishes a message and sees the publish rate move, peeks
 * the message, and copes with a thousand subscriptions. Screenshots go to tests/.output/.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { PROJECT, startTestEmulator, unique, type TestEmulator } from "../helpers/emulator.ts";

const OUTPUT = join(import.meta.dir, "../.output");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

let emu: TestEmulator;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does) or set CHROMIUM_PATH`);
  mkdirSync(OUTPUT, { recursive: true });
  emu = await startTestEmulator();
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"], timeout: 30_000 });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(10_000);
  page.on("dialog", (d) => d.accept());
});

afterAll(async () => {
  await browser?.close();
  await emu?.close();
});

test("loads, shows a topic created through gRPC, publishes, sees the rate move, peeks the message", async () => {
  const topicId = unique("ui-topic");
  const subId = unique("ui-sub");
  const [topic] = await emu.client().createTopic(topicId);
  await topic.createSubscription(subId);
  await page.goto(`http://${emu.endpoint}/ui/`);
  await page.locator("#conn.live").waitFor();
  const topicRow = page.locator("#topics tbody tr", { hasText: topicId });
  await topicRow.waitFor();

  await topicRow.click();
  await page.locator("#publish-btn").click();
  await expect(page.locator("#publish-result").textContent()).resolves.toBeDefined();
  await page.waitForFunction(() => document.querySelector("#publish-result")?.textContent?.startsWith("published"));
  // The rate is a difference of two snapshots a second apart: it shows for one tick.
  await page.waitForFunction(() => !/^0\.0\/s/.test(document.querySelector("#rate-published")?.textContent ?? "0.0/s"), undefined, { polling: 50 });

  const subRow = page.locator("#subs tbody tr", { hasText: subId });
  await page.waitForFunction((id) => {
    const row = [...document.querySelectorAll("#subs tbody tr")].find((r) => r.textContent?.includes(id));
    return row?.children[1]?.textContent === "1";
  }, subId);
  await subRow.click();
  await page.locator("#peek-btn").click();
  await page.locator("#peeked tbody tr", { hasText: "hello from the dashboard" }).waitFor();
  expect(await page.locator("#detail-result").textContent()).toBe("1 waiting");
  await page.screenshot({ path: join(OUTPUT, "dashboard.png"), fullPage: false });

  // Peek leased nothing: a pull still gets it, and the history shows the lease.
  await page.locator("#pull-btn").click();
  await page.locator("#pulled tbody tr", { hasText: "hello from the dashboard" }).waitFor();
  await page.locator("#pulled tbody button", { hasText: /^\d+$/ }).first().click();
  await page.locator("#history tbody tr", { hasText: "delivered" }).waitFor();
  await page.locator("#pulled tbody button", { hasText: "ack" }).first().click();
  await page.waitForFunction(() => document.querySelectorAll("#pulled tbody tr").length === 0);
}, 60_000);

test("a thousand subscriptions: all listed, filter narrows them", async () => {
  const [topic] = await emu.client().createTopic(unique("many"));
  for (let i = 0; i < 1000; i++) emu.broker.subscriptions.create({ name: `projects/${PROJECT}/subscriptions/many-${i}`, topic: topic.name } as never);
  const total = (await emu.admin("GET", "/metrics.json")).subscriptions as number;
  await page.waitForFunction((n) => document.querySelectorAll("#subs tbody tr").length === n, total, { timeout: 15_000 });
  // How long one live update of the whole page takes (reported, never asserted).
  const before = await page.evaluate(() => document.body.dataset.renders);
  await page.waitForFunction((b) => document.body.dataset.renders !== b, before);
  const ms = await page.evaluate(() => document.body.dataset.renderMs);
  console.log(`dashboard: ${total} subscriptions listed; one live update took ${ms} ms in the page`);
  await page.fill("#sub-filter", "many-99");
  await page.waitForFunction(() => document.querySelectorAll("#subs tbody tr").length === 11);
  await page.screenshot({ path: join(OUTPUT, "dashboard-1000-subscriptions.png") });
}, 60_000);

test("forms: create a topic and subscription, manual clock and advance, a fault, delete, reset", async () => {
  const topic = `projects/${PROJECT}/topics/${unique("form-topic")}`;
  const sub = `projects/${PROJECT}/subscriptions/${unique("form-sub")}`;
  await page.fill("#sub-filter", "form-sub");
  await page.fill("#create-topic [name=name]", topic);
  await page.click("#create-topic button");
  await page.locator("#topics tbody tr", { hasText: topic }).waitFor();
  await page.fill("#create-sub [name=name]", sub);
  await page.fill("#create-sub [name=topic]", topic);
  await page.click("#create-sub button");
  await page.locator("#subs tbody tr", { hasText: sub.split("/").pop()! }).waitFor();
  expect((await emu.client().subscription(sub).getMetadata())[0].topic).toBe(topic);

  await page.click("#clock-toggle");
  await page.waitForFunction(() => document.querySelector("#clock-mode")?.textContent === "manual");
  const before = (await emu.admin("GET", "/emulator/v1/clock")).timeMs;
  await page.fill("#clock-advance", "1h");
  await page.click("#clock-advance-btn");
  await page.waitForFunction((t) => Date.parse(document.querySelector("#clock-time")?.textContent ?? "") >= t + 3_600_000, before);

  await page.fill("#add-fault [name=resource]", topic);
  await page.click("#add-fault button");
  await page.locator("#faults tbody tr", { hasText: "UNAVAILABLE" }).waitFor();
  expect((await emu.admin("GET", "/emulator/v1/faults")).faults[0]).toMatchObject({ method: "Publisher.Publish", resource: topic });

  await page.locator("#subs tbody tr", { hasText: sub.split("/").pop()! }).locator("button", { hasText: "delete" }).click();
  await page.locator("#subs tbody tr", { hasText: sub.split("/").pop()! }).waitFor({ state: "detached" });
  await page.click("#reset");
  await page.waitForFunction(() => document.querySelectorAll("#topics tbody tr").length === 0 && document.querySelectorAll("#faults tbody tr").length === 0);
  await page.click("#clock-toggle");
  await page.waitForFunction(() => document.querySelector("#clock-mode")?.textContent === "system");
}, 60_000);

test("a Cloud Storage subscription shows its objects written and its state", async () => {
  const subId = unique("ui-gcs");
  const [topic] = await emu.client().createTopic(unique("ui-gcs-topic"));
  await topic.createSubscription(subId, { cloudStorageConfig: { bucket: "no-such-bucket" } });
  await page.goto(`http://${emu.endpoint}/ui/`);
  await page.locator("#subs tbody tr", { hasText: subId }).waitFor();
  await page.waitForFunction((id) => {
    const row = [...document.querySelectorAll("#subs tbody tr")].find((r) => r.textContent?.includes(id));
    return row?.textContent?.includes("0 objects (0 msgs) · NOT_FOUND");
  }, subId);
}, 60_000);
