/**
 * The HTTP request a push delivery becomes, as the real service sends it: by default a JSON
 * wrapper (message with base64 data, attributes, ids and publish times in both spellings,
 * ordering key; the subscription; deliveryAttempt with a dead-letter policy); with no_wrapper the
 * raw data, and with write_metadata the attributes and x-goog-pubsub-* metadata as headers.
 */
import type { PushRequest } from "../core/delivery/push/push-delivery.ts";
import { messageJson } from "../proto/message-json.ts";

export const USER_AGENT = "APIs-Google; (+https://developers.google.com/webmasters/APIs-Google.html)";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers an attribute may not set: the transport's own, and the metadata the service writes. */
const RESERVED = new Set([
  "authorization",
  "connection",
  "content-length",
  "content-type",
  "expect",
  "host",
  "keep-alive",
  "te",
  "transfer-encoding",
  "upgrade",
  "user-agent",
]);

export interface HttpPush {
  headers: Record<string, string>;
  body: Uint8Array | string;
}

export function pushHttpRequest(req: PushRequest, token: string | null): HttpPush {
  const m = req.delivery.message;
  const publishTime = new Date(m.publishTime).toISOString();
  const headers: Record<string, string> = Object.create(null);
  const noWrapper = req.config.noWrapper;
  let body: Uint8Array | string;
  if (noWrapper) {
    body = m.data;
    if (noWrapper.writeMetadata) {
      for (const k in m.attributes) {
        const v = m.attributes[k];
        const name = k.toLowerCase();
        // Attributes that cannot travel as a header (or would replace one the transport owns) are left out.
        if (TOKEN.test(k) && VALUE.test(v) && !RESERVED.has(name) && !name.startsWith("x-goog-pubsub-")) headers[k] = v;
      }
      headers["x-goog-pubsub-subscription-name"] = req.subscription;
      headers["x-goog-pubsub-message-id"] = m.id;
      headers["x-goog-pubsub-publish-time"] = publishTime;
      if (m.orderingKey && VALUE.test(m.orderingKey)) headers["x-goog-pubsub-ordering-key"] = m.orderingKey;
    }
    headers["content-type"] = "application/octet-stream";
  } else {
    // The real service writes both spellings of the id and the time; the time always with milliseconds.
    const message = messageJson(m, { time: () => publishTime });
    message.message_id = m.id;
    message.publish_time = publishTime;
    const wrapper: Record<string, unknown> = { message, subscription: req.subscription };
    if (req.withAttempt) wrapper.deliveryAttempt = req.delivery.deliveryAttempt;
    body = JSON.stringify(wrapper);
    headers["content-type"] = "application/json";
  }
  headers["user-agent"] = USER_AGENT;
  if (token) headers.authorization = `Bearer ${token}`;
  return { headers, body };
}
