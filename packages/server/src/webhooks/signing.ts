// Webhook secrets and signatures as the Standard Webhooks specification defines them (docs/webhooks.md
// "Verifying a delivery"): a secret is `whsec_` + base64 of random bytes, and the signature of a message is
// `v1,` + base64(HMAC-SHA256(secret bytes, "<webhook-id>.<webhook-timestamp>.<body>")). During a rotation the
// header carries one signature per live secret, space-separated, so a receiver holding either one verifies.
import { createHmac, randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";
/** The specification asks for 24 to 64 bytes; 32 matches the HMAC's own block of strength. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, "base64");
}

/** `v1,<base64>` for one secret. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", keyOf(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest("base64");
  return `v1,${mac}`;
}

/** The `webhook-*` headers of one attempt, signed with every secret in `secrets` (current first). */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": secrets.map((s) => signatureOf(s, id, timestampSeconds, body)).join(" "),
  };
}

/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch without a gap. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** An endpoint's id: `ep_` and 16 random bytes. */
export const newEndpointId = (): string => `ep_${randomBytes(16).toString("base64url")}`;
