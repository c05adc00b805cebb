/** REST routes come from the descriptor's google.api.http annotations: every RPC has one. */
import { describe, expect, test } from "bun:test";
import { PubSubError } from "../../src/core/errors.ts";
import { Broker } from "../../src/core/broker.ts";
import { ManualClock } from "../../src/core/clock.ts";
import { SERVICES, serviceMethods, type ServiceName } from "../../src/rpc/services.ts";
import { createRpcTable } from "../../src/rpc/table.ts";
import { matchTemplate, parseTemplate } from "../../src/rest/path-template.ts";
import { ROUTES, findRoute } from "../../src/rest/routes.ts";
import { transcode } from "../../src/rest/transcode.ts";

const table = createRpcTable(new Broker({ clock: new ManualClock() }));

function routeFor(method: string, path: string) {
  const m = findRoute(method, path);
  if (!m || !("route" in m)) throw new Error(`no route for ${method} ${path}`);
  return m;
}

describe("routes", () => {
  for (const service of Object.keys(SERVICES) as ServiceName[]) {
    test(`${service}: every unary RPC has a route, and the table serves it`, () => {
      const methods = Object.entries(serviceMethods(service)).filter(([, m]) => !m.requestStream && !m.responseStream);
      expect(methods.length).toBeGreaterThan(0);
      for (const [method] of methods) {
        const key = `${service}.${method}`;
        expect(ROUTES.some((r) => r.key === key), `${key} has no REST route`).toBe(true);
        expect(table.unary.has(key)).toBe(true);
      }
    });
  }

  test("StreamingPull has no route (it has no HTTP binding on the real service either)", () => {
    expect(ROUTES.some((r) => r.key === "Subscriber.StreamingPull")).toBe(false);
  });

  test.each([
    ["PUT", "/v1/projects/p/topics/t1", "Publisher.CreateTopic", { name: "projects/p/topics/t1" }],
    ["PATCH", "/v1/projects/p/topics/t1", "Publisher.UpdateTopic", { "topic.name": "projects/p/topics/t1" }],
    ["POST", "/v1/projects/p/topics/t1:publish", "Publisher.Publish", { topic: "projects/p/topics/t1" }],
    ["GET", "/v1/projects/p/topics", "Publisher.ListTopics", { project: "projects/p" }],
    ["GET", "/v1/projects/p/topics/t1/subscriptions", "Publisher.ListTopicSubscriptions", { topic: "projects/p/topics/t1" }],
    ["POST", "/v1/projects/p/subscriptions/s1:modifyAckDeadline", "Subscriber.ModifyAckDeadline", { subscription: "projects/p/subscriptions/s1" }],
    ["POST", "/v1/projects/p/subscriptions/s1:seek", "Subscriber.Seek", { subscription: "projects/p/subscriptions/s1" }],
    ["POST", "/v1/projects/p/subscriptions/s1:detach", "Publisher.DetachSubscription", { subscription: "projects/p/subscriptions/s1" }],
    ["GET", "/v1/projects/p/schemas/sc:listRevisions", "SchemaService.ListSchemaRevisions", { name: "projects/p/schemas/sc" }],
    ["POST", "/v1/projects/p/schemas:validateMessage", "SchemaService.ValidateMessage", { parent: "projects/p" }],
    // The service config binds getIamPolicy as a GET (gcloud's form); the IAM mixin's {resource=**} POST stays served.
    ["GET", "/v1/projects/p/topics/t1:getIamPolicy", "IAMPolicy.GetIamPolicy", { resource: "projects/p/topics/t1" }],
    ["POST", "/v1/projects/p/schemas/sc:getIamPolicy", "IAMPolicy.GetIamPolicy", { resource: "projects/p/schemas/sc" }],
    // googleapis' 2026 service config binds schemas too (discovery-based clients send this GET).
    ["GET", "/v1/projects/p/schemas/sc:getIamPolicy", "IAMPolicy.GetIamPolicy", { resource: "projects/p/schemas/sc" }],
    ["POST", "/v1/projects/p/schemas/sc:setIamPolicy", "IAMPolicy.SetIamPolicy", { resource: "projects/p/schemas/sc" }],
    ["POST", "/v1/projects/p/schemas/sc:testIamPermissions", "IAMPolicy.TestIamPermissions", { resource: "projects/p/schemas/sc" }],
    ["POST", "/v1/projects/p/subscriptions/s1:setIamPolicy", "IAMPolicy.SetIamPolicy", { resource: "projects/p/subscriptions/s1" }],
    ["POST", "/v1/projects/p/snapshots/n1:testIamPermissions", "IAMPolicy.TestIamPermissions", { resource: "projects/p/snapshots/n1" }],
  ])("%s %s → %s", (method, path, key, bound) => {
    const m = routeFor(method, path);
    expect(m.route.key).toBe(key);
    expect(Object.fromEntries(m.bound)).toEqual(bound);
  });

  test("path segments are percent-decoded; an encoded slash stays encoded in a multi-segment variable", () => {
    expect(routeFor("GET", "/v1/projects/p/topics/a%2Bb%7E").bound.get("topic")).toBe("projects/p/topics/a+b~");
    expect(routeFor("GET", "/v1/projects/p/topics/a%2Fb").bound.get("topic")).toBe("projects/p/topics/a%2Fb");
    expect(findRoute("GET", "/v1/projects/p/topics/%E0%A4%A")).toBeUndefined();
  });

  test("a known path with the wrong HTTP method reports the methods it takes", () => {
    expect(findRoute("GET", "/v1/projects/p/topics/t1:publish")).toEqual({ allowed: ["POST"] });
    expect(findRoute("POST", "/v1/projects/p/topics/t1")).toEqual({ allowed: ["PUT", "PATCH", "GET", "DELETE"] });
  });

  test("unknown paths, verbs and empty segments match nothing", () => {
    for (const path of ["/v1/projects/p/nothing", "/v1/projects/p/topics/t1:explode", "/v1/projects//topics/t1", "/v2/projects/p/topics/t1", "/v1/projects/p/topics/t1/x/y"]) {
      expect(findRoute("GET", path)).toBeUndefined();
    }
  });
});

describe("path templates", () => {
  test("literal, single and multi-segment variables, a custom verb", () => {
    const t = parseTemplate("/v1/{parent=projects/*}/schemas:validate");
    expect(t.verb).toBe("validate");
    expect(matchTemplate(t, ["v1", "projects", "p", "schemas"])?.get("parent")).toBe("projects/p");
    const rest = parseTemplate("/v1/{resource=**}:setIamPolicy");
    expect(matchTemplate(rest, ["v1", "a", "b", "c"])?.get("resource")).toBe("a/b/c");
    expect(matchTemplate(rest, ["v1"])).toBeUndefined();
    expect(matchTemplate(parseTemplate("/v1/{name}"), ["v1", "x"])?.get("name")).toBe("x");
  });

  test("a template this parser does not understand fails loudly", () => {
    expect(() => parseTemplate("v1/x")).toThrow();
    expect(() => parseTemplate("/v1/{a=**}/b")).toThrow();
  });
});

describe("transcoding", () => {
  const q = (s: string) => new URLSearchParams(s);
  const request = (method: string, path: string, query = "", body?: unknown) => {
    const m = routeFor(method, path);
    return transcode(m.route, m.bound, q(query), body);
  };

  test("GET binds query parameters, by JSON or proto name, enums by name", () => {
    expect(request("GET", "/v1/projects/p/schemas", "pageSize=5&page_token=abc&view=FULL&alt=json&$prettyPrint=0")).toEqual({
      parent: "projects/p",
      pageSize: 5,
      pageToken: "abc",
      view: "FULL",
    });
  });

  test("nested query parameters fill sub-messages", () => {
    expect(request("GET", "/v1/projects/p/topics/t1:getIamPolicy", "options.requestedPolicyVersion=3")).toEqual({
      resource: "projects/p/topics/t1",
      options: { requestedPolicyVersion: 3 },
    });
  });

  test("a named body fills that field; the other fields come from the query", () => {
    const req = request("POST", "/v1/projects/p/schemas", "schemaId=sc1", { type: "AVRO", definition: "{}" });
    expect(req).toEqual({ parent: "projects/p", schemaId: "sc1", schema: { type: "AVRO", definition: "{}" } });
  });

  test('body "*": the path variable wins over the body, query parameters other than system ones are refused', () => {
    const req = request("PATCH", "/v1/projects/p/topics/t1", "alt=json", { topic: { name: "projects/p/topics/other", labels: { a: "b" } }, updateMask: "labels" });
    expect(req.topic).toEqual({ name: "projects/p/topics/t1", labels: { a: "b" } });
    expect(() => request("POST", "/v1/projects/p/topics/t1:publish", "messages=x", {})).toThrow(PubSubError);
  });

  test("unknown or ill-typed query parameters are INVALID_ARGUMENT naming them", () => {
    for (const [query, words] of [["bogus=1", '"bogus"'], ["pageSize=lots", "page_size"], ["options=3", "options"]]) {
      let err: unknown;
      try {
        request("GET", query.startsWith("options") ? "/v1/projects/p/topics/t1:getIamPolicy" : "/v1/projects/p/topics", query);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PubSubError);
      expect((err as PubSubError).code).toBe("INVALID_ARGUMENT");
      expect((err as PubSubError).message).toContain(words);
    }
  });
});
