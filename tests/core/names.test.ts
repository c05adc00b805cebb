import { describe, expect, test } from "bun:test";
import { parseName, parseProject } from "../../src/core/rules/names.ts";
import { caught, setup, expectRefused } from "../helpers/core.ts";

const T = (id: string) => `projects/p1/topics/${id}`;

const bad: [string, string][] = [
  ["2 characters", T("ab")],
  ["256 characters", T("a" + "b".repeat(255))],
  ["starts with a digit", T("1abc")],
  ["starts with a dash", T("-abc")],
  ["goog prefix", T("goog-topic")],
  ["GOOG prefix in capitals", T("GOOGtopic")],
  ["a space", T("bad name")],
  ["a dollar sign", T("bad$name")],
  ["a slash in the id", "projects/p1/topics/a/b"],
  ["wrong collection", "projects/p1/subscriptions/abc"],
  ["no projects/ prefix", "p1/topics/abc"],
  ["empty", ""],
  ["empty project", "projects//topics/abc"],
];

describe("resource names", () => {
  test.each(bad)("%s is INVALID_ARGUMENT naming the field", (_why, name) => {
    expectRefused(() => parseName(name, "topics", "topic"), "INVALID_ARGUMENT", "topic");
  });

  test.each([
    ["3 characters", "abc"],
    ["255 characters", "a" + "b".repeat(254)],
    ["every allowed character", "a-_.~+%Z9"],
    ["goog inside", "my-goog"],
  ])("%s is accepted", (_why, id) => {
    expect(parseName(T(id), "topics")).toEqual({ project: "p1", id });
  });

  test("the broker validates names on create", () => {
    const { broker } = setup();
    expectRefused(() => broker.topics.create({ name: T("goog-x"), labels: {} }), "INVALID_ARGUMENT", T("goog-x"));
    expect(caught(() => broker.subscriptions.create({ name: "projects/p1/topics/abc", topic: T("abc") } as never)).code).toBe(
      "INVALID_ARGUMENT",
    );
  });

  test("parseProject accepts projects/{p} and rejects the rest", () => {
    expect(parseProject("projects/my-proj")).toBe("my-proj");
    for (const p of ["my-proj", "projects/", "projects/a/b", undefined]) {
      expect(caught(() => parseProject(p)).code).toBe("INVALID_ARGUMENT");
    }
  });
});
