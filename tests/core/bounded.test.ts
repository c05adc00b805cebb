/** Bounds on echoed input and on whole status messages. */
import { describe, expect, test } from "bun:test";
import { MESSAGE_MAX_ENCODED, boundMessage, echo } from "../../src/core/bounded.ts";
import { PubSubError } from "../../src/core/errors.ts";
import { parseName } from "../../src/core/rules/names.ts";
import { caught } from "../helpers/core.ts";

const encoded = (s: string) => Buffer.byteLength(encodeURI(s));

describe("echo", () => {
  test("short input is kept as is", () => {
    expect(echo("projects/p/topics/t")).toBe("projects/p/topics/t");
  });
  test("long input is cut with a marker saying how much was left out", () => {
    expect(echo("a".repeat(1000), 10)).toBe(`${"a".repeat(10)}…[990 more characters]`);
  });
  test("a cut never splits a surrogate pair, and lone surrogates become U+FFFD", () => {
    const cut = echo("😀".repeat(10), 5);
    expect(cut.isWellFormed()).toBe(true);
    expect(cut.startsWith("😀😀…")).toBe(true);
    expect(echo("a\uD800b")).toBe("a\uFFFDb");
  });
});

describe("boundMessage", () => {
  for (const [what, unit] of [["ASCII", "a"], ["percent signs", "%"], ["control characters", "\u0001"], ["two-byte", "é"], ["three-byte", "€"], ["four-byte", "😀"]] as const) {
    test(`a long message of ${what} fits the transport's bound once percent-encoded`, () => {
      const m = boundMessage(unit.repeat(50_000));
      expect(encoded(m)).toBeLessThanOrEqual(MESSAGE_MAX_ENCODED);
      expect(m.endsWith("…[message truncated]")).toBe(true);
    });
  }
  test("a message within the bound is unchanged", () => {
    const m = "Resource not found (resource=projects/p/topics/t).";
    expect(boundMessage(m)).toBe(m);
  });
  test("every PubSubError is bounded, and an echoed 70,000-character name stays readable", () => {
    expect(encoded(new PubSubError("INVALID_ARGUMENT", "x".repeat(70_000)).message)).toBeLessThanOrEqual(MESSAGE_MAX_ENCODED);
    const e = caught(() => parseName(`projects/p/topics/${"a".repeat(70_000)}`, "topics"));
    expect(e.message).toContain("more characters]): an ID must be 3-255 characters");
  });
});
