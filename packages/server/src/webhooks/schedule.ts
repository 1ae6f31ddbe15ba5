// What one attempt's outcome means for its delivery and its endpoint (docs/webhooks.md "Delivery"): a 2xx
// delivers; 5xx, 429, 408, a timeout or a network error is retried on the schedule (a receiver's Retry-After
// honoured: never sooner than it asks, up to RETRY_AFTER_CAP_MS); 410 Gone disables
// the endpoint; any other answer (a 3xx — redirects are not followed — or a 4xx) is not retried. Pure, so every
// branch is tested without a receiver.

export interface AttemptOutcome {
  /** The receiver's status code; null when no answer came (timeout, network error, refused target). */
  readonly statusCode: number | null;
  /** The receiver's Retry-After, in ms from the attempt; null when absent or unreadable. */
  readonly retryAfterMs: number | null;
}

export type Verdict =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly delayMs: number }
  | { readonly kind: "give-up"; readonly reason: string }
  | { readonly kind: "gone" };

/** A receiver's Retry-After is honoured up to this (the default schedule's longest wait): no endpoint parks itself. */
export const RETRY_AFTER_CAP_MS = 10 * 3_600_000;

export function isRetryable(statusCode: number | null): boolean {
  return statusCode === null || statusCode >= 500 || statusCode === 429 || statusCode === 408;
}

/**
 * The verdict after the `attempts`-th attempt (1 for the first) of a delivery, given the schedule of waits
 * before each retry: with 7 waits a delivery has 8 attempts.
 */
export function verdictOf(outcome: AttemptOutcome, attempts: number, scheduleMs: readonly number[]): Verdict {
  const { statusCode } = outcome;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: "delivered" };
  if (statusCode === 410) return { kind: "gone" };
  if (!isRetryable(statusCode)) {
    return { kind: "give-up", reason: `the receiver answered ${statusCode}, which is not retried` };
  }
  const wait = scheduleMs[attempts - 1];
  if (wait === undefined) return { kind: "give-up", reason: `no success after ${attempts} attempts` };
  const asked = outcome.retryAfterMs ?? 0;
  return { kind: "retry", delayMs: Math.max(wait, Math.min(asked, RETRY_AFTER_CAP_MS)) };
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent, unreadable or in the past. */
export function retryAfterMs(header: string | string[] | undefined, now: Date): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  const ms = at - now.getTime();
  return ms > 0 ? ms : null;
}
