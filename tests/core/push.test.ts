/** Push delivery in the core: a fake sender, a manual clock, every answer decided by the test. */
import { describe, expect, test } from "bun:test";
import type { PushRequest, PushSender } from "../../src/core/delivery/push/push-delivery.ts";
import { StreamSession } from "../../src/core/delivery/stream-session.ts";
import { FakeSink, SEC, caught, flush, makeSub, makeTopic, publishTexts, pullNow, setup, topicAndSub, expectRefused } from "../helpers/core.ts";

const ENDPOINT = "http://127.0.0.1:1/push";

/** Records each request; the test answers it with a status (0 = no answer). */
class FakeSender implements PushSender {
  requests: { req: PushRequest; answer: (status: number) => void }[] = [];

  send(req: PushRequest): Promise<number> {
    return new Promise((resolve) => this.requests.push({ req, answer: resolve }));
  }

  get texts(): string[] {
    return this.requests.map((r) => new TextDecoder().decode(r.req.delivery.message.data));
  }

  /** Answers every unanswered request with `status`, in order. */
  async answerAll(status: number): Promise<number> {
    const open = this.requests.filter((r) => !("answered" in r));
    for (const r of open) {
      Object.assign(r, { answered: true });
      r.answer(status);
    }
    await flush();
    return open.length;
  }
}

function pushSetup(options = {}) {
  const sender = new FakeSender();
  const f = setup({ push: { sender, options } });
  return { ...f, sender };
}

const push = (extra = {}) => ({ pushConfig: { pushEndpoint: ENDPOINT }, ...extra });

describe("push delivery", () => {
  test("each message is one request; a 2xx ack empties the subscription", async () => {
    const { broker, sender } = pushSetup();
    const { topic, sub } = topicAndSub(broker, push());
    publishTexts(broker, topic, ["a", "b"]);
    expect(sender.texts).toEqual(["a", "b"]);
    expect(sender.requests[0].req.subscription).toBe(sub);
    expect(sender.requests[0].req.endpoint).toBe(ENDPOINT);
    expect(sender.requests[0].req.timeoutMs).toBe(10 * SEC);
    await sender.answerAll(204);
    expect(broker.stats().backlog).toBe(0);
  });

  test("102, 200, 201, 202 and 204 ack; other statuses and no answer nack", async () => {
    for (const [status, acked] of [[102, true], [200, true], [201, true], [202, true], [204, true], [203, false], [302, false], [400, false], [429, false], [500, false], [0, false]] as const) {
      const { broker, sender } = pushSetup();
      const { topic } = topicAndSub(broker, push());
      publishTexts(broker, topic, ["x"]);
      await sender.answerAll(status);
      expect([status, broker.stats().backlog]).toEqual([status, acked ? 0 : 1]);
    }
  });

  test("failures back the whole subscription off exponentially from 100 ms; a success resets it", async () => {
    const { broker, clock, sender } = pushSetup();
    const { topic } = topicAndSub(broker, push());
    publishTexts(broker, topic, ["a"]);
    await sender.answerAll(503);
    publishTexts(broker, topic, ["b"]);
    expect(sender.requests.length).toBe(1); // paused: nothing is sent during the backoff
    clock.advance(99);
    expect(sender.requests.length).toBe(1);
    clock.advance(1);
    expect(sender.texts).toEqual(["a", "a", "b"]);
    await sender.answerAll(500); // answers of requests out together count as one failure: 200 ms
    clock.advance(199);
    expect(sender.requests.length).toBe(3);
    clock.advance(1);
    expect(sender.requests.length).toBe(4); // the window is down to 1
    await sender.answerAll(500); // 400 ms
    clock.advance(399);
    expect(sender.requests.length).toBe(4);
    clock.advance(1);
    expect(sender.requests.length).toBe(5);
    await sender.answerAll(200);
    await sender.answerAll(200);
    expect(broker.stats().backlog).toBe(0);
    publishTexts(broker, topic, ["c"]);
    await sender.answerAll(500);
    publishTexts(broker, topic, ["d"]);
    const before = sender.requests.length;
    clock.advance(100); // a success reset the backoff to its first step
    expect(sender.requests.length).toBe(before + 2);
  });

  test("the backoff is capped by the configured maximum", async () => {
    const { broker, clock, sender } = pushSetup({ backoffMinMs: 100, backoffMaxMs: 250 });
    const { topic } = topicAndSub(broker, push());
    publishTexts(broker, topic, ["a"]);
    for (let i = 0; i < 4; i++) {
      await sender.answerAll(500);
      clock.advance(250);
    }
    expect(sender.requests.length).toBe(5);
  });

  test("requests in flight start at a window of 3 that grows with each ack", async () => {
    const { broker, sender } = pushSetup();
    const { topic } = topicAndSub(broker, push());
    publishTexts(broker, topic, Array.from({ length: 20 }, (_, i) => `m${i}`));
    expect(sender.requests.length).toBe(3);
    expect(await sender.answerAll(200)).toBe(3);
    expect(sender.requests.length).toBe(3 + 6); // 3 acks: window 6
    expect(await sender.answerAll(200)).toBe(6);
    expect(sender.requests.length).toBe(9 + 11); // all 20 out
  });

  test("the request timeout is the ack deadline, capped by timeoutCapMs", () => {
    const { broker, sender } = pushSetup({ timeoutCapMs: 250 });
    const { topic } = topicAndSub(broker, push({ ackDeadlineSeconds: 30 }));
    publishTexts(broker, topic, ["a"]);
    expect(sender.requests[0].req.timeoutMs).toBe(250);
    const other = pushSetup({ timeoutCapMs: 60_000 });
    const t2 = topicAndSub(other.broker, push({ ackDeadlineSeconds: 30 }));
    publishTexts(other.broker, t2.topic, ["a"]);
    expect(other.sender.requests[0].req.timeoutMs).toBe(30 * SEC);
  });

  test("an ordering key has one request in flight; a nack redelivers in order", async () => {
    const { broker, clock, sender } = pushSetup();
    const { topic } = topicAndSub(broker, push({ enableMessageOrdering: true }));
    publishTexts(broker, topic, ["k1", "k2", "k3"], "k");
    publishTexts(broker, topic, ["j1", "j2"], "j");
    expect(sender.texts).toEqual(["k1", "j1"]);
    const [k1] = sender.requests;
    Object.assign(k1, { answered: true });
    k1.answer(200);
    await flush();
    expect(sender.texts).toEqual(["k1", "j1", "k2"]);
    await sender.answerAll(500); // j1 and k2 fail
    clock.advance(SEC); // past the push backoff, within the ack deadline
    expect(sender.texts.slice(3).sort()).toEqual(["j1", "k2"]);
    await sender.answerAll(200);
    expect(sender.texts.slice(5).sort()).toEqual(["j2", "k3"]);
  });

  test("delivery attempts count and the dead-letter topic takes the message after max_delivery_attempts", async () => {
    const { broker, clock, sender } = pushSetup();
    const dlq = makeTopic(broker);
    const dlqSub = makeSub(broker, dlq);
    const { topic } = topicAndSub(broker, push({ deadLetterPolicy: { deadLetterTopic: dlq, maxDeliveryAttempts: 5 } }));
    publishTexts(broker, topic, ["poison"]);
    for (let i = 1; i <= 5; i++) {
      const last = sender.requests[sender.requests.length - 1].req;
      expect(last.withAttempt).toBe(true);
      expect(last.delivery.deliveryAttempt).toBe(i);
      await sender.answerAll(500);
      clock.advance(SEC); // past the push backoff (100 ms doubling), within the ack deadline
    }
    expect(sender.requests.length).toBe(5);
    const dead = await pullNow(broker, dlqSub);
    expect(dead.map((d) => new TextDecoder().decode(d.message.data))).toEqual(["poison"]);
  });

  test("a filter decides what is pushed", () => {
    const { broker, sender } = pushSetup();
    const { topic } = topicAndSub(broker, push({ filter: 'attributes.color = "red"' }));
    broker.topics.publish(topic, [
      { data: new TextEncoder().encode("red"), attributes: { color: "red" } },
      { data: new TextEncoder().encode("blue"), attributes: { color: "blue" } },
    ]);
    expect(sender.texts).toEqual(["red"]);
  });

  test("a retry policy holds each nacked message back on top of the push backoff", async () => {
    const { broker, clock, sender } = pushSetup();
    const { topic } = topicAndSub(broker, push({ retryPolicy: { minimumBackoff: 5 * SEC, maximumBackoff: 5 * SEC } }));
    publishTexts(broker, topic, ["a"]);
    await sender.answerAll(500);
    clock.advance(4 * SEC);
    expect(sender.requests.length).toBe(1);
    clock.advance(1 * SEC);
    expect(sender.requests.length).toBe(2);
  });

  test("Pull and StreamingPull on a push subscription are FAILED_PRECONDITION", () => {
    const { broker } = pushSetup();
    const { sub } = topicAndSub(broker, push());
    expect(caught(() => broker.subscriptions.pull(sub, 1, true)).code).toBe("FAILED_PRECONDITION");
    expectRefused(() => broker.subscriptions.streamConsumer(sub, { ackDeadlineSeconds: 10, deliver: () => {} }), "FAILED_PRECONDITION", "push");
  });

  test("ModifyPushConfig switches push to pull and back; nothing in flight is lost", async () => {
    const { broker, sender } = pushSetup();
    const { topic, sub } = topicAndSub(broker, push());
    publishTexts(broker, topic, ["a"]);
    expect(sender.requests.length).toBe(1);
    broker.subscriptions.modifyPushConfig(sub, {});
    publishTexts(broker, topic, ["b"]);
    expect(sender.requests.length).toBe(1);
    await sender.answerAll(200); // the request already out still acks "a"
    expect((await pullNow(broker, sub)).map((d) => new TextDecoder().decode(d.message.data))).toEqual(["b"]);
    broker.subscriptions.modifyPushConfig(sub, { pushEndpoint: ENDPOINT });
    publishTexts(broker, topic, ["c"]);
    expect(sender.texts).toEqual(["a", "c"]);
    expect(broker.subscriptions.get(sub).pushConfig?.attributes).toEqual({ "x-goog-version": "v1" });
  });

  test("after the switch to push, new messages go to the endpoint and new streams are refused", () => {
    const { broker, sender } = pushSetup();
    const { topic, sub } = topicAndSub(broker);
    const sink = new FakeSink();
    new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, sink);
    sink.writable = false; // backpressured after "a": the stream takes nothing more
    publishTexts(broker, topic, ["a"]);
    expect(sink.sends.flat().map((d) => new TextDecoder().decode(d.message.data))).toEqual(["a"]);
    broker.subscriptions.modifyPushConfig(sub, { pushEndpoint: ENDPOINT });
    publishTexts(broker, topic, ["b"]);
    expect(sender.texts.sort()).toEqual(["b"]);
    expect(sink.failure).toBeNull();
    const other = new FakeSink();
    expect(caught(() => new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, other)).code).toBe("FAILED_PRECONDITION");
  });

  test("a stream that receives after the switch to push returns the messages and ends", () => {
    const { broker, sender } = pushSetup({ initialWindow: 1 });
    const { topic, sub } = topicAndSub(broker);
    const sink = new FakeSink();
    new StreamSession(broker.subscriptions, { subscription: sub, streamAckDeadlineSeconds: 10 }, sink);
    broker.subscriptions.modifyPushConfig(sub, { pushEndpoint: ENDPOINT });
    publishTexts(broker, topic, ["a", "b", "c"]);
    expect(sink.failure?.code).toBe("FAILED_PRECONDITION");
    expect(sink.sends.flat()).toEqual([]);
    expect(sender.texts).toEqual(["a"]); // window 1; b and c wait for it
    expect(broker.stats().backlog).toBe(3);
  });

  test("an update of push_config or ack_deadline_seconds applies to the next request", () => {
    const { broker, sender } = pushSetup();
    const { topic, sub } = topicAndSub(broker, push());
    broker.subscriptions.update(
      { ...broker.subscriptions.get(sub), pushConfig: { pushEndpoint: "http://127.0.0.1:2/other" }, ackDeadlineSeconds: 20 },
      ["push_config", "ack_deadline_seconds"],
    );
    publishTexts(broker, topic, ["a"]);
    expect(sender.requests[0].req.endpoint).toBe("http://127.0.0.1:2/other");
    expect(sender.requests[0].req.timeoutMs).toBe(20 * SEC);
  });

  test("deleting a subscription with requests in flight settles nothing and throws nothing", async () => {
    const { broker, sender } = pushSetup();
    const { topic, sub } = topicAndSub(broker, push());
    publishTexts(broker, topic, ["a"]);
    broker.subscriptions.delete(sub);
    await sender.answerAll(200);
    await sender.answerAll(500);
    expect(broker.stats().subscriptions).toBe(0);
  });

  test("a sender that throws is a nack, not a crash", async () => {
    const { broker, clock } = setup({
      push: {
        sender: {
          send: () => {
            throw new Error("boom");
          },
        },
      },
    });
    const { topic } = topicAndSub(broker, push());
    publishTexts(broker, topic, ["a"]);
    await flush();
    expect(broker.stats().backlog).toBe(1);
    clock.advance(100);
  });

  test("push configs are validated: endpoint URL, OIDC service account, x-goog-version", () => {
    const { broker } = pushSetup();
    const topic = makeTopic(broker);
    for (const pushConfig of [
      { pushEndpoint: "not a url" },
      { pushEndpoint: "ftp://example.com/push" },
      { pushEndpoint: ENDPOINT, oidcToken: { serviceAccountEmail: "" } },
      { pushEndpoint: ENDPOINT, attributes: { "x-goog-version": "v2" } },
    ]) {
      expectRefused(() => makeSub(broker, topic, { pushConfig }), "INVALID_ARGUMENT", "push_config");
    }
  });
});
