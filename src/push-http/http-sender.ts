/**
 * The PushSender of the running emulator: one fetch per delivery, bounded by the request's
 * timeout, redirects not followed (a 3xx is a nack, as in the real service). A failure of any
 * kind is status 0, a nack; nothing here can throw into the core.
 */
import type { PushRequest, PushSender } from "../core/delivery/push/push-delivery.ts";
import { log } from "../runtime/log.ts";
import { pushHttpRequest } from "./format.ts";
import type { OidcSigner } from "./oidc.ts";

export class HttpPushSender implements PushSender {
  constructor(private signer: OidcSigner) {}

  async send(req: PushRequest): Promise<number> {
    try {
      const oidc = req.config.oidcToken;
      const token = oidc ? await this.signer.token(oidc.serviceAccountEmail ?? "", oidc.audience || req.endpoint) : null;
      const { headers, body } = pushHttpRequest(req, token);
      const res = await fetch(req.endpoint, {
        method: "POST",
        headers,
        body: body as BodyInit,
        redirect: "manual",
        signal: AbortSignal.timeout(req.timeoutMs),
      });
      // The answer's body is not needed; dropping it frees the connection at once.
      await res.body?.cancel().catch(() => {});
      return res.status;
    } catch (e) {
      log.debug(`push to ${req.endpoint} for ${req.subscription} failed: ${(e as Error).message}`);
      return 0;
    }
  }
}
