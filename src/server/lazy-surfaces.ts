/**
 * The HTTP surfaces (REST, the admin API and dashboard) and the push client, loaded on first use:
 * a server that only serves gRPC publish/pull never parses their code (≈ 5 MiB of idle RSS, issue
 * 21). The imports are literal so `bun build --compile` still bundles them. `GET /health` and
 * `GET /` are answered here, so readiness probes do not load the admin API.
 */
import type { RequestListener } from "node:http";
import type { PushRequest, PushSender } from "../core/delivery/push/push-delivery.ts";
import type { AdminDeps } from "../admin/http.ts";
import type { OidcSigner } from "../push-http/oidc.ts";
import type { RpcTable } from "../rpc/table.ts";
import { browserRefusal } from "../admin/guard.ts";
import { answerHealth } from "../admin/health.ts";
import { sendError } from "../admin/router.ts";
import { log } from "../runtime/log.ts";

/** Runs `load` once, on the first call; every later call gets the same promise. */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

/** A listener that loads the real one on its first request; requests meanwhile wait (their bodies stay unread until then). */
function lazyListener(load: () => Promise<RequestListener>): RequestListener {
  let ready: RequestListener | undefined;
  const get = once(async () => (ready = await load()));
  return (req, res) => {
    if (ready) return ready(req, res);
    get().then(
      (listener) => listener(req, res),
      (e: Error) => {
        log.error("cannot load the HTTP surface", e);
        sendError(res, 500, "Internal error.", "INTERNAL");
      },
    );
  };
}

/** REST/JSON under /v1/, as on pubsub.googleapis.com; health, metrics and the operator API beside it. */
export function httpSurfaces(table: RpcTable, admin: Omit<AdminDeps, "table">): RequestListener {
  const rest = lazyListener(() => import("../rest/handler.ts").then((m) => m.restHandler(table)));
  const operator = lazyListener(() => import("../admin/http.ts").then((m) => m.adminHandler({ ...admin, table })));
  const hosts = new Set([admin.host.toLowerCase()]);
  return (req, res) => {
    if (!req.url?.startsWith("/v1/")) return answerHealth(req, res) || operator(req, res);
    // A browser page on another site must not mutate the emulator through REST either.
    const refusal = req.method === "GET" || req.method === "HEAD" ? null : browserRefusal(req, hosts);
    if (refusal) return sendError(res, 403, refusal, "PERMISSION_DENIED");
    rest(req, res);
  };
}

/** The OIDC signer (its RSA key is made on first use anyway) and the push HTTP client, loaded with the first push or JWKS request. */
export function lazyPush(nowMs: () => number): { sender: PushSender; signer: () => Promise<OidcSigner> } {
  const signer = once(() => import("../push-http/oidc.ts").then((m) => new m.OidcSigner(nowMs)));
  const sender = once(async () => new (await import("../push-http/http-sender.ts")).HttpPushSender(await signer()));
  // The sender never throws into the core: a failure is status 0, a nack.
  const send = (req: PushRequest) => sender().then((s) => s.send(req), () => 0);
  return { signer, sender: { send } };
}
