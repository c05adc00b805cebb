/**
 * The bodies of the two probe answers, `GET /` (as the gcloud emulator gives it) and
 * `GET /health`, for the answers that do not go through admin/health.ts: the raw front's HTTP/1.1
 * fast path (server/quick-health.ts) and an HTTP/2 request to the gRPC routes (grpc/call/routes.ts).
 */
export const ROOT_BODY = "Ok\n";
export const HEALTH_BODY = '{"status":"ok"}';

/** The probe `path` names, or null: `/` and `/health` exactly. */
export function probe(path: string | undefined): { type: string | null; body: string } | null {
  if (path === "/") return { type: null, body: ROOT_BODY };
  if (path === "/health") return { type: "application/json", body: HEALTH_BODY };
  return null;
}
