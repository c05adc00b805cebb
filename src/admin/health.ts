/**
 * The two health answers: `GET /` as the gcloud emulator gives it, and `GET /health`. A module of
 * its own so the server answers them without loading the admin API (server/lazy-surfaces.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "./router.ts";

export const answerRoot = (res: ServerResponse) => void res.end("Ok\n");
export const answerHealthJson = (res: ServerResponse) => sendJson(res, 200, { status: "ok" });

/** Answers `GET|HEAD /` or `/health` (exactly these URLs); false for any other request. */
export function answerHealth(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.url === "/health") return (answerHealthJson(res), true);
  if (req.url === "/") return (answerRoot(res), true);
  return false;
}
