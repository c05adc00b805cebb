import { describe, expect, test } from "bun:test";
import { PubSubError } from "../../src/core/errors.ts";
import { compileFilter } from "../../src/core/rules/filter.ts";
import type { StoredMessage } from "../../src/core/message.ts";

const msg = (attributes: Record<string, string>): StoredMessage => ({
  id: "1",
  seq: 1,
  data: new Uint8Array(0),
  attributes,
  orderingKey: "",
  publishTime: 0,
  size: 0,
});

describe("filter grammar", () => {
  const cases: [string, Record<string, string>, boolean][] = [
    ['attributes.color = "red"', { color: "red" }, true],
    ['attributes.color = "red"', { color: "blue" }, false],
    ['attributes.color = "red"', {}, false],
    ['attributes.color != "red"', { color: "blue" }, true],
    ['attributes.color != "red"', {}, true],
    ["attributes:color", { color: "" }, true],
    ["attributes:color", { other: "x" }, false],
    ['hasPrefix(attributes.path, "/api/")', { path: "/api/v1" }, true],
    ['hasPrefix(attributes.path, "/api/")', { path: "/web" }, false],
    ["NOT attributes:color", {}, true],
    ["-attributes:color", { color: "x" }, false],
    ['attributes.a = "1" AND attributes.b = "2"', { a: "1", b: "2" }, true],
    ['attributes.a = "1" AND attributes.b = "2"', { a: "1" }, false],
    ['attributes.a = "1" OR attributes.b = "2" OR attributes:c', { c: "" }, true],
    ['(attributes.a = "1" OR attributes.b = "2") AND NOT attributes:c', { b: "2" }, true],
    ['(attributes.a = "1" OR attributes.b = "2") AND NOT attributes:c', { b: "2", c: "" }, false],
    ['attributes."dotted.key" = "x\\"y"', { "dotted.key": 'x"y' }, true],
    ["", { anything: "x" }, true],
  ];
  for (const [filter, attrs, expected] of cases) {
    test(`${filter || "(empty)"} on ${JSON.stringify(attrs)} → ${expected}`, () => {
      expect(compileFilter(filter)(msg(attrs))).toBe(expected);
    });
  }

  for (const filter of [
    'attributes.a = "1" AND attributes.b = "2" OR attributes:c',
    "attributes.color = = (",
    "attributes.color = red",
    'data = "x"',
    'attributes.a > "1"',
    'hasPrefix(attributes.a "x")',
    '(attributes:a',
  ]) {
    test(`rejects ${filter}`, () => {
      let err: unknown;
      try {
        compileFilter(filter);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PubSubError);
      expect((err as PubSubError).code).toBe("INVALID_ARGUMENT");
      expect((err as PubSubError).message).toContain("filter");
    });
  }
});
