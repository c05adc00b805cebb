/**
 * REST/JSON over HTTP/1.1 on the gRPC port: route by the google.api.http templates, read the body
 * (refusing one over the front end's cap before it is held whole), transcode, call the RPC table,
 * answer proto3 JSON. Every failure answers in Google's error format through status.ts.
 */
import { ClientGone } from "../http/client-gone.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import { PubSubError } from "../core/errors.ts";
import type { CallContext, RpcTable } from "../rpc/table.ts";
import { messageToJson } from "../proto/json.ts";
import { publishRequest, pullResponseJson } from "./publish-pull.ts";
import { callRestOnly, matchRestOnly } from "./rest-only.ts";
import { findRoute, type Route } from "./routes.ts";
import { errorResponse } from "../http/status.ts";
import { responseOptions, transcode, type ResponseOptions } from "./transcode.ts";
import type { DeliveryBatch } from "../core/delivery/delivery-batch.ts";

/**
 * The real front end's request cap (10 MiB); it answers 400 INVALID_ARGUMENT with this wording.
 * Base64 makes a JSON publish of 10,000,000 bytes of data impossible there too.
 */
export const MAX_BODY_BYTES = 10_485_760;
const TOO_LARGE = `Request payload size exceeds the limit: ${MAX_BODY_BYTES} bytes.`;

const invalid = (message: string) => new PubSubError("INVALID_ARGUMENT", message);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

function send(res: ServerResponse, status: number, body: unknown, pretty = false, close = false): void {
  if (res.headersSent || res.writableEnded) return;
  const text = pretty ? JSON.stringify(body, null, 2) + "\n" : JSON.stringify(body);
  const headers: Record<string, string | number> = {
    "content-type": "application/json; charset=UTF-8",
    "content-length": Buffer.byteLength(text),
  };
  if (close) headers.connection = "close";
  res.writeHead(status, headers);
  res.end(text);
}

function sendError(res: ServerResponse, err: unknown, pretty = false, close = false): void {
  const { httpStatus, body } = errorResponse(err);
  send(res, httpStatus, body, pretty, close);
}

/** A body is JSON when it says so, or says nothing. */
function checkContentType(req: IncomingMessage): void {
  const type = req.headers["content-type"];
  if (type === undefined) return;
  const media = type.split(";")[0].trim().toLowerCase();
  if (media === "application/json" || media.endsWith("+json")) return;
  throw invalid(`Invalid JSON payload received. The request's Content-Type is ${JSON.stringify(media.slice(0, 64))}; send application/json.`);
}

/** Reads the body up to MAX_BODY_BYTES; rejects (and stops reading) as soon as it is over. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(new TooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        chunks.length = 0;
        req.removeAllListeners("data");
        req.pause();
        reject(new TooLarge());
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.on("error", (e) => reject(new ClientGone(e)));
  });
}

class TooLarge extends PubSubError {
  constructor() {
    super("INVALID_ARGUMENT", TOO_LARGE);
  }
}

function parseJson(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch (e) {
    throw invalid(`Invalid JSON payload received. ${String((e as Error).message).slice(0, 200)}`);
  }
}

function encodeResult(route: Route, result: unknown, opts: ResponseOptions): Obj {
  if (route.key === "Subscriber.Pull") return pullResponseJson(result as DeliveryBatch);
  return messageToJson(route.responseType, (result ?? {}) as Obj, opts);
}

/**
 * The request's method; a POST may name another in X-HTTP-Method-Override, as Google's front end
 * honours (Java's HTTP transport sends PATCH that way).
 */
function httpMethod(req: IncomingMessage): string {
  const override = req.headers["x-http-method-override"];
  const named = typeof override === "string" ? override.trim().toUpperCase() : "";
  if (req.method === "POST" && OVERRIDABLE.has(named)) return named;
  return req.method ?? "GET";
}

const OVERRIDABLE = new Set(["GET", "PUT", "PATCH", "DELETE"]);

/** The request's JSON body, or undefined when it has none. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const buf = await readBody(req);
  if (!buf.length) return undefined;
  checkContentType(req);
  return parseJson(buf);
}

async function serve(table: RpcTable, req: IncomingMessage, res: ServerResponse, url: URL, opts: ResponseOptions): Promise<void> {
  const method = httpMethod(req);
  const restOnly = matchRestOnly(method, url.pathname);
  if (restOnly) return send(res, 200, await callRestOnly(table, restOnly, await readJson(req)), opts.pretty);
  const found = findRoute(method, url.pathname);
  if (!found) throw new PubSubError("NOT_FOUND", `Method not found. (${method} ${url.pathname.slice(0, 200)})`);
  if ("allowed" in found) {
    throw new PubSubError("NOT_FOUND", `Method not found. (${method} ${url.pathname.slice(0, 200)} takes ${found.allowed.join(", ")})`);
  }
  const { route, bound } = found;
  const request = transcode(route, bound, url.searchParams, await readJson(req));
  const fn = table.unary.get(route.key);
  if (!fn) throw new PubSubError("UNIMPLEMENTED", `${route.key} is not implemented by this emulator yet.`);
  const ctx: CallContext = {
    onCancel: (cancel) => res.on("close", () => res.writableFinished || cancel()),
  };
  const result = await fn(route.key === "Publisher.Publish" ? publishRequest(request) : request, ctx);
  send(res, 200, encodeResult(route, result, opts), opts.pretty);
}

/** The HTTP handler for /v1/… paths. */
export function restHandler(table: RpcTable): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator");
    } catch {
      return sendError(res, invalid("The request URL is malformed."));
    }
    const opts = responseOptions(url.searchParams);
    serve(table, req, res, url, opts).catch((err) => {
      if (err instanceof ClientGone) return void req.socket.destroy();
      const tooLarge = err instanceof TooLarge;
      sendError(res, err, opts.pretty, tooLarge);
      // An unread body cannot be skipped on a kept-alive connection: close it once answered.
      if (tooLarge) res.on("finish", () => req.socket.destroy());
    });
  };
}
