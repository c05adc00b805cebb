import { describe, expect, test } from "bun:test";
import type { Page } from "../../src/core/rules/paging.ts";
import { caught, makeSub, makeTopic, setup, subName, topicName, uid, expectRefused } from "../helpers/core.ts";
import { PARENT } from "../helpers/project.ts";

/** Follows next_page_token until it is empty; returns every page (bounded to 50 pages). */
function allPages<T>(list: (token: string) => Page<T>): T[][] {
  const pages: T[][] = [];
  let token = "";
  for (let i = 0; i < 50; i++) {
    const page = list(token);
    pages.push(page.items);
    token = page.nextPageToken;
    if (!token) return pages;
  }
  throw new Error("paging did not end within 50 pages");
}

describe("paging", () => {
  test("listTopics pages of 2 over 5 topics give 2,2,1 and every topic once", () => {
    const { broker } = setup();
    const project = uid("proj");
    const names = Array.from({ length: 5 }, () => makeTopic(broker, { name: topicName(undefined, project) }));
    makeTopic(broker, { name: topicName(undefined, uid("other")) });
    const pages = allPages((t) => broker.topics.list(`projects/${project}`, 2, t));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((t) => t.name).sort()).toEqual(names.sort());
  });

  test("listTopics with page_size 0 returns everything in one page", () => {
    const { broker } = setup();
    const project = uid("proj");
    for (let i = 0; i < 3; i++) makeTopic(broker, { name: topicName(undefined, project) });
    const page = broker.topics.list(`projects/${project}`, 0);
    expect(page.items.length).toBe(3);
    expect(page.nextPageToken).toBe("");
  });

  test("listSubscriptions pages of 3 over 7 subscriptions give 3,3,1 without repeats", () => {
    const { broker } = setup();
    const project = uid("proj");
    const topic = makeTopic(broker, { name: topicName(undefined, project) });
    const names = Array.from({ length: 7 }, () => makeSub(broker, topic, { name: subName(undefined, project) }));
    const pages = allPages((t) => broker.subscriptions.list(`projects/${project}`, 3, t));
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    const seen = pages.flat().map((s) => s.name);
    expect(new Set(seen).size).toBe(7);
    expect(seen.sort()).toEqual(names.sort());
  });

  test("listTopicSubscriptions pages over a topic's subscriptions only", () => {
    const { broker } = setup();
    const topic = makeTopic(broker);
    const other = makeTopic(broker);
    const mine = Array.from({ length: 5 }, () => makeSub(broker, topic));
    makeSub(broker, other);
    const pages = allPages((t) => broker.topics.listSubscriptions(topic, 2, t));
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().sort()).toEqual(mine.sort());
  });

  test("an exact multiple of the page size ends with an empty token, not an empty page", () => {
    const { broker } = setup();
    const project = uid("proj");
    for (let i = 0; i < 4; i++) makeTopic(broker, { name: topicName(undefined, project) });
    const pages = allPages((t) => broker.topics.list(`projects/${project}`, 2, t));
    expect(pages.map((p) => p.length)).toEqual([2, 2]);
  });

  test("a garbage page_token is INVALID_ARGUMENT naming page_token", () => {
    const { broker } = setup();
    makeTopic(broker);
    expectRefused(() => broker.topics.list(PARENT, 1, "not-a-token"), "INVALID_ARGUMENT", "page_token");
  });

  test("a negative page_size is INVALID_ARGUMENT naming page_size", () => {
    const { broker } = setup();
    expectRefused(() => broker.topics.list(PARENT, -1), "INVALID_ARGUMENT", "page_size");
  });

  test("a malformed project is INVALID_ARGUMENT", () => {
    const { broker } = setup();
    expect(caught(() => broker.topics.list("core-test")).code).toBe("INVALID_ARGUMENT");
    expect(caught(() => broker.subscriptions.list("projects/a/b")).code).toBe("INVALID_ARGUMENT");
  });
});
