/**
 * Subscription filters (src/core/rules/filter.ts): a compiled 3-clause filter over 1000 messages with
 * 5-6 attributes each (a quarter match), against a hand-written predicate with the same meaning,
 * plus the cost of compiling the filter.
 *
 *   bun bench/mitata/filter.bench.ts
 */
import { bench, do_not_optimize, group, summary } from "mitata";
import { compileFilter } from "../../src/core/rules/filter.ts";
import type { StoredMessage } from "../../src/core/message.ts";
import { assert, filterAttributes, storedMessages, main } from "./fixtures.ts";

const FILTER = 'attributes.type = "order" AND attributes:region AND NOT hasPrefix(attributes.customer, "test-")';
const compiled = compileFilter(FILTER);
const handWritten = (m: StoredMessage) => {
  const a = m.attributes;
  return (
    Object.hasOwn(a, "type") &&
    a.type === "order" &&
    Object.hasOwn(a, "region") &&
    !(Object.hasOwn(a, "customer") && a.customer.startsWith("test-"))
  );
};
const single = compileFilter('attributes.type = "order"');
const msgs = storedMessages(1000, 64, filterAttributes);

function count(pred: (m: StoredMessage) => boolean): number {
  let n = 0;
  for (let i = 0; i < msgs.length; i++) if (pred(msgs[i])) n++;
  return n;
}

{
  const n = count(compiled);
  assert(n === count(handWritten) && n > 100 && n < 500, `filter and hand-written agree (${n} of 1000 match)`);
}

group("filter evaluation, 1000 messages", () => {
  summary(() => {
    bench("compiled 3-clause filter (AND, :, NOT hasPrefix)", () => do_not_optimize(count(compiled))).baseline();
    bench("hand-written equivalent predicate", () => do_not_optimize(count(handWritten)));
    bench('compiled 1-clause filter attributes.type = "order"', () => do_not_optimize(count(single)));
  });
});

group("filter compilation", () => {
  bench("compileFilter(3-clause)", () => do_not_optimize(compileFilter(FILTER)));
});

if (import.meta.main) await main();
