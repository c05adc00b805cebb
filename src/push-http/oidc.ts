/**
 * OIDC tokens for authenticated push, shaped as Google's: RS256 JWTs with iss
 * https://accounts.google.com, aud (the configured audience, else the endpoint), email,
 * email_verified, sub/azp, iat and exp an hour later. The key is generated once, on first use (off
 * the event loop), and published as a JWKS, so receivers verify tokens as they would Google's.
 */
import { createHash, createSign, generateKeyPair, type KeyObject } from "node:crypto";

export const ISSUER = "https://accounts.google.com";
/** Where the emulator serves its keys, the path of Google's own (www.googleapis.com/oauth2/v3/certs). */
export const JWKS_PATH = "/oauth2/v3/certs";
const LIFETIME_S = 3600;
/** A cached token is reused until this close to its expiry. */
const REFRESH_S = 300;
const MAX_CACHED = 1000;

interface Keys {
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
  kid: string;
}

export class OidcSigner {
  private generated: Promise<Keys> | null = null;
  private cache = new Map<string, { token: string; exp: number }>();

  constructor(private nowMs: () => number) {}

  /** Made on first use (a token or the JWKS), off the event loop, so start-up does not pay for it. */
  private get keys(): Promise<Keys> {
    this.generated ??= new Promise((resolve, reject) =>
      generateKeyPair("rsa", { modulusLength: 2048 }, (err, publicKey, privateKey) => {
        if (err) return reject(err);
        const jwk = publicKey.export({ format: "jwk" }) as Record<string, unknown>;
        const kid = createHash("sha256").update(String(jwk.n)).digest("hex").slice(0, 40);
        resolve({ privateKey, jwk: { ...jwk, alg: "RS256", use: "sig", kid }, kid });
      }),
    );
    return this.generated;
  }

  /** The public keys, as Google's certs endpoint serves them. */
  async jwks(): Promise<{ keys: Record<string, unknown>[] }> {
    return { keys: [(await this.keys).jwk] };
  }

  /** A token for the service account `email` and `audience`, signed once and reused for most of its hour. */
  async token(email: string, audience: string): Promise<string> {
    const key = `${email}\n${audience}`;
    const now = Math.floor(this.nowMs() / 1000);
    const hit = this.cache.get(key);
    if (hit && hit.exp - REFRESH_S > now) return hit.token;
    const { privateKey, kid } = await this.keys;
    const sub = numericId(email);
    const payload = { aud: audience, azp: sub, email, email_verified: true, exp: now + LIFETIME_S, iat: now, iss: ISSUER, sub };
    const input = `${b64url({ alg: "RS256", kid, typ: "JWT" })}.${b64url(payload)}`;
    const signature = createSign("RSA-SHA256").update(input).sign(privateKey).toString("base64url");
    const token = `${input}.${signature}`;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(key, { token, exp: payload.exp });
    return token;
  }
}

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");

/** Google's sub/azp is the service account's 21-digit unique id; ours is derived from the email. */
function numericId(email: string): string {
  const digest = createHash("sha256").update(email).digest();
  let id = "1";
  for (let i = 0; id.length < 21; i++) id += (digest[i % digest.length] % 10).toString();
  return id;
}
