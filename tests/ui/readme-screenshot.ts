/**
 * Regenerates docs/dashboard.png (the README and docs/http-api.md show it): an emulator with some
 * traffic (publishers, streaming subscribers that ack, one that nacks), a selected subscription, a
 * peek, a message's history and an active fault. Run by hand: `bun tests/ui/readme-screenshot.ts`
 * (about 40 s).
 */
import { join } from "node:path";
import type { Message } from "@google-cloud/pubsub";
import { chromium } from "playwright-core";
import { PROJECT, startTestEmulator } from "../helpers/emulator.ts";

const emu = await startTestEmulator();
await emu.admin("POST", "/emulator/v1/history", { capacity: 10_000 });
const ps = emu.client();
const names = ["orders", "payments", "emails"];
const topics = await Promise.all(names.map(async (n) => (await ps.createTopic(n))[0]));
const [dlq] = await ps.createTopic("dead-letters");
await dlq.createSubscription("dead-letters-audit");
for (const [i, t] of topics.entries()) {
  await t.createSubscription(`${names[i]}-worker`);
  await t.createSubscription(`${names[i]}-audit`, { deadLetterPolicy: { deadLetterTopic: dlq.name, maxDeliveryAttempts: 5 } });
}
const workers = names.map((n) => {
  const s = ps.subscription(`${n}-worker`, { flowControl: { maxMessages: 50 } });
  s.on("message", (m: Message) => (Math.random() < 0.05 ? m.nack() : m.ack()));
  return s;
});

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1400, height: 1050 } });
await page.goto(`http://${emu.endpoint}/ui/`);

// 30 s of traffic whose rate rises and falls, so the chart has a shape.
const until = Date.now() + 30_000;
for (let tick = 0; Date.now() < until; tick++) {
  const n = Math.round(20 + 15 * Math.sin(tick / 8));
  await Promise.all(Array.from({ length: n }, (_, i) => topics[i % 3].publishMessage({ data: Buffer.from(`event ${tick}-${i}`), attributes: { tick: String(tick) } })));
  await Bun.sleep(200);
}
await emu.admin("POST", "/emulator/v1/faults", { method: "Publisher.Publish", resource: `projects/${PROJECT}/topics/payments`, count: 3, error: { code: "UNAVAILABLE", retryDelay: "1s" } });
await page.locator("#subs tbody tr", { hasText: "orders-audit" }).click();
await page.locator("#peek-btn").click();
await page.locator("#pull-max").fill("3");
await page.locator("#pull-btn").click();
await page.locator("#pulled tbody button", { hasText: /^\d+$/ }).first().click();
await page.locator("#history tbody tr").first().waitFor();
await Bun.sleep(1500);
const out = join(import.meta.dir, "../../docs/dashboard.png");
await page.screenshot({ path: out, fullPage: true });
console.log(`wrote ${out}`);
await Promise.all(workers.map((w) => w.close()));
await browser.close();
await emu.close();
process.exit(0);
