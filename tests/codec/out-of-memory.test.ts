/** An allocation that fails at the edge of a memory cap is RESOURCE_EXHAUSTED on every transport, not INTERNAL. */
import { expect, test } from "bun:test";
import { statusOf, Code } from "../../src/grpc/status.ts";
import { errorResponse } from "../../src/http/status.ts";
import { internalErrorCount } from "../../src/runtime/internal-errors.ts";

test("the engine's out-of-memory RangeError is RESOURCE_EXHAUSTED naming the memory budget; other errors stay INTERNAL", () => {
  const before = internalErrorCount();
  const oom = new RangeError("Out of memory");
  const g = statusOf(oom);
  expect(g.code).toBe(Code.RESOURCE_EXHAUSTED);
  expect(g.details).toMatch(/memory budget/);
  const h = errorResponse(oom);
  expect(h.httpStatus).toBe(429);
  expect(h.body.error.status).toBe("RESOURCE_EXHAUSTED");
  expect(internalErrorCount()).toBe(before);
  // A RangeError about anything else is still a bug of ours.
  expect(statusOf(new RangeError("Invalid array length")).code).toBe(Code.INTERNAL);
  expect(internalErrorCount()).toBe(before + 1);
});
