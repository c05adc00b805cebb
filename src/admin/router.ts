/**
 * A small router for the HTTP/1.1 side of the port: routes by method and path pattern
 * (`:name` matches one segment), bounded JSON bodies, JSON answers; a PubSubError is answered by
 * the one mapper REST uses too (http/status.ts).
 * Every mutating route passes the cross-site guard first (guard.ts).
 */
import { ClientGone } from "../http/client-gone.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import { PubSubError } from "../core/errors.ts";
import { errorResponse } from "../http/status.ts";
import { log } from "../runtime/log.ts";
import { crossSiteRefusal } from "./guard.ts";

/** Largest JSON body the admin API reads (a dashboard test message fits many times over). */
const MAX_BODY = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Path parameters, decoded; a null-prototype object since names and values come from clients. */
  params: Record<string, string>;
  /** The JSON body (an object; `{}` when empty). */
  body(): Promise<Record<string, unknown>>;
}

/** A handler's return value is sent as JSON with 200; `undefined` means it answered itself. */
export type RouteHandler = (ctx: RouteContext) => unknown | Promise<unknown>;

interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "cache-control": "no-store" });
  res.end(text);
}

export function sendError(res: ServerResponse, status: number, message: string, code = statusName(status)): void {
  sendJson(res, status, { error: { code: status, message: message.slice(0, 1000), status: code } });
}

export class Router {
  private routes: Route[] = [];

  constructor(private allowedHosts: ReadonlySet<string> = new Set()) {}

  add(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: pattern.split("/").slice(1), handler });
    return this;
  }

  /** Answers the request; false when no route's path matched (the caller answers 404). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    // "//" and the like are valid request targets but no URL: answered 400, never thrown.
    const url = URL.parse(req.url ?? "/", "http://emulator.invalid");
    if (!url) return (sendError(res, 400, "The request URL is malformed.", "INVALID_ARGUMENT"), true);
    const parts = url.pathname.split("/").slice(1);
    let pathMatched = false;
    for (const r of this.routes) {
      const params = match(r.segments, parts);
      if (!params) continue;
      pathMatched = true;
      if (r.method !== req.method && !(r.method === "GET" && req.method === "HEAD")) continue;
      if (MUTATING.has(req.method ?? "")) {
        const refusal = crossSiteRefusal(req, this.allowedHosts);
        if (refusal) return (sendError(res, 403, refusal, "PERMISSION_DENIED"), true);
      }
      void this.run(r.handler, { req, res, url, params, body: () => readJson(req) });
      return true;
    }
    if (!pathMatched) return false;
    if (req.method === "OPTIONS") sendError(res, 403, "Cross-origin requests are not allowed.", "PERMISSION_DENIED");
    else sendError(res, 405, `${req.method} is not allowed on ${url.pathname.slice(0, 200)}.`, "METHOD_NOT_ALLOWED");
    return true;
  }

  private async run(handler: RouteHandler, ctx: RouteContext): Promise<void> {
    try {
      const result = await handler(ctx);
      if (result !== undefined && !ctx.res.headersSent) sendJson(ctx.res, 200, result);
    } catch (e) {
      if (ctx.res.headersSent || e instanceof ClientGone) return void ctx.res.destroy();
      if (e instanceof HttpError) return sendError(ctx.res, e.status, e.message);
      if (e instanceof PubSubError) {
        const { httpStatus, body } = errorResponse(e);
        return sendJson(ctx.res, httpStatus, body);
      }
      log.error("admin API internal error", e);
      sendError(ctx.res, 500, "Internal error.", "INTERNAL");
    }
  }
}

function match(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = Object.create(null);
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.startsWith(":")) {
      if (!parts[i]) return null;
      try {
        params[p.slice(1)] = decodeURIComponent(parts[i]);
      } catch {
        return null;
      }
    } else if (p !== parts[i]) return null;
  }
  return params;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) throw new HttpError(413, `The request body is larger than ${MAX_BODY} bytes.`);
      chunks.push(chunk);
    }
  } catch (e) {
    throw e instanceof HttpError ? e : new ClientGone(e);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (!text) return Object.create(null);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new HttpError(400, "The request body must be a JSON object.");
  return parsed as Record<string, unknown>;
}

export function statusName(status: number): string {
  const names: Record<number, string> = {
    400: "INVALID_ARGUMENT",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "ALREADY_EXISTS",
    413: "INVALID_ARGUMENT",
    501: "UNIMPLEMENTED",
  };
  return names[status] ?? "INTERNAL";
}
