/**
 * Publish validation (checkPublish in src/core/rules/limits.ts): sizes and limits of every message and
 * attribute, as Broker.publish runs it before storing anything.
 *
 *   bun bench/mitata/limits.bench.ts
 */
import { bench, do_not_optimize, group } from "mitata";
import { checkPublish } from "../../src/core/rules/limits.ts";
import { assert, attributeBatch, dataBatch, main } from "./fixtures.ts";

const data1k = dataBatch(1000, 1024);
const attrs = attributeBatch(100, 10);
const keyed = dataBatch(1000, 1024).map((m) => ({ ...m, orderingKey: "customer-42" }));
/** Same shape as `attrs`, one non-ASCII character per value (byteLength falls back to TextEncoder). */
const attrsUtf8 = attrs.map((m) => ({
  ...m,
  attributes: Object.fromEntries(Object.entries(m.attributes!).map(([k, v]) => [k, `${v}é`])),
}));

assert(checkPublish(data1k).length === 1000 && checkPublish(attrsUtf8)[0] > checkPublish(attrs)[0], "sizes");

group("checkPublish", () => {
  bench("1000 × 1 KiB, no attributes", () => do_not_optimize(checkPublish(data1k)));
  bench("1000 × 1 KiB, ordering key", () => do_not_optimize(checkPublish(keyed)));
  bench("100 × 10 ASCII attributes", () => do_not_optimize(checkPublish(attrs)));
  bench("100 × 10 attributes, non-ASCII values", () => do_not_optimize(checkPublish(attrsUtf8)));
});

if (import.meta.main) await main();
