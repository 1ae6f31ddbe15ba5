// Checking a hosted-webhook delivery as a receiver (the server's docs/webhooks.md "Verifying a delivery"), per the
// Standard Webhooks specification: the signature is `v1,` + base64(HMAC-SHA256(secret bytes,
// "<webhook-id>.<webhook-timestamp>.<raw body>")), several space-separated during a secret rotation, and the
// timestamp must be within a tolerance of the receiver's clock (5 minutes), so a captured delivery cannot be
// replayed later. The comparison is WebCrypto's `verify` (constant time, in Node and browsers alike): nothing
// here compares signature bytes by hand. Verify the raw body as received, before any JSON parsing.
import type { ChangeEvent } from "./events.ts";

/** How a delivery failed verification. */
export type WebhookRejection =
  | "missing_headers"
  | "invalid_secret"
  | "timestamp_invalid"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "no_matching_signature"
  | "invalid_body";

export class WebhookVerificationError extends Error {
  readonly reason: WebhookRejection;
  constructor(reason: WebhookRejection, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from `now`, either way, in seconds. Default 300 (5 minutes). */
  readonly toleranceSeconds?: number;
  /** The receiver's clock. Default `new Date()`. */
  readonly now?: Date;
}

/** Request headers as Node (`IncomingHttpHeaders`), fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

const SECRET_PREFIX = "whsec_";
const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/**
 * Verifies a delivery and returns its parsed event, typed as the change-event union (narrow it on `type`). Throws WebhookVerificationError (with `reason`) when the
 * headers are missing, the timestamp is outside the tolerance, or no `v1` signature matches `secret` (the
 * `whsec_…` the service showed when the endpoint was made or its secret rotated).
 */
export async function verifyWebhook(
  headers: WebhookHeaders,
  body: string | Uint8Array,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<ChangeEvent> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError(
      "missing_headers",
      "webhook-id, webhook-timestamp and webhook-signature are all required",
    );
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError("timestamp_invalid", "webhook-timestamp must be whole seconds");
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const sent = Number(timestamp);
  if (sent < nowSeconds - tolerance) {
    throw new WebhookVerificationError("timestamp_too_old", "the delivery is older than the tolerance");
  }
  if (sent > nowSeconds + tolerance) {
    throw new WebhookVerificationError("timestamp_too_new", "the delivery is dated in the future");
  }
  const keyBytes = base64Bytes(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
  );
  if (keyBytes === null || keyBytes.length === 0) {
    throw new WebhookVerificationError("invalid_secret", "the secret is not whsec_ followed by base64");
  }
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "verify",
  ]);
  const encoder = new TextEncoder();
  const raw = typeof body === "string" ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + raw.length);
  signed.set(prefix, 0);
  signed.set(raw, prefix.length);
  let matched = false;
  for (const entry of signatures.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || value === undefined) continue;
    const mac = base64Bytes(value);
    if (mac === null) continue;
    // Every candidate is checked, so the time taken does not tell which one matched.
    if (await crypto.subtle.verify("HMAC", key, mac, signed)) matched = true;
  }
  if (!matched)
    throw new WebhookVerificationError("no_matching_signature", "no signature matches the secret");
  try {
    return JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body)) as ChangeEvent;
  } catch {
    throw new WebhookVerificationError("invalid_body", "the signed body is not JSON");
  }
}
