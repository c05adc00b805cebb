/** push_config as the core reads it, and its validation on create, update and ModifyPushConfig. */
import { bounded, invalid } from "../../errors.ts";
import type { SubscriptionResource } from "../../resources.ts";

export interface PushConfigView {
  pushEndpoint?: string;
  attributes?: Record<string, string>;
  oidcToken?: { serviceAccountEmail?: string; audience?: string };
  pubsubWrapper?: Record<string, never>;
  noWrapper?: { writeMetadata?: boolean };
}

const VERSIONS = new Set(["v1", "v1beta1", "v1beta2"]);
const MAX_URL = 2048;

/** The push endpoint, or "" for a pull subscription. */
export function pushEndpointOf(config: SubscriptionResource): string {
  return (config.pushConfig as PushConfigView | undefined)?.pushEndpoint ?? "";
}

/**
 * Validates a push config and fills what the real service reports: `x-goog-version` defaults to
 * v1 on create and keeps its previous value when an update leaves it out.
 */
export function normalizePushConfig(
  next: Record<string, unknown> | undefined,
  previous?: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const pc = next as PushConfigView | undefined;
  if (!pc?.pushEndpoint) return next;
  checkEndpoint(pc.pushEndpoint);
  const oidc = pc.oidcToken;
  if (oidc) {
    const email = oidc.serviceAccountEmail ?? "";
    if (!/^[^@\s]+@[^@\s]+$/.test(email) || email.length > 254) {
      throw invalid(`Invalid push_config.oidc_token.service_account_email: "${bounded(email)}". It must be a service account email.`);
    }
    if ((oidc.audience ?? "").length > MAX_URL) throw invalid(`push_config.oidc_token.audience is longer than ${MAX_URL} characters.`);
  }
  const attributes = { ...pc.attributes };
  const version = attributes["x-goog-version"] ?? (previous as PushConfigView | undefined)?.attributes?.["x-goog-version"] ?? "v1";
  if (!VERSIONS.has(version)) {
    throw invalid(`Invalid push_config.attributes["x-goog-version"]: "${bounded(version)}". It must be v1, v1beta1 or v1beta2.`);
  }
  attributes["x-goog-version"] = version;
  return { ...next, attributes };
}

function checkEndpoint(endpoint: string): void {
  let url: URL | null = null;
  try {
    url = endpoint.length <= MAX_URL ? new URL(endpoint) : null;
  } catch {
    url = null;
  }
  // The real service requires https; the emulator also takes http so local receivers work.
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname) {
    throw invalid(`Invalid push_config.push_endpoint: "${bounded(endpoint)}". It must be an http or https URL.`);
  }
}
