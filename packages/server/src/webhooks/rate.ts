// The per-namespace delivery rate cap (WEBHOOK_RATE_PER_MINUTE, docs/webhooks.md "Limits"): a token bucket per
// namespace, held by the one deliverer, so one namespace's busy minute cannot crowd out the others'. A delivery
// without a token simply waits for a later pass; nothing is counted as an attempt.

export class NamespaceRate {
  readonly #perMinute: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(perMinute: number) {
    this.#perMinute = perMinute;
  }

  /** Takes one token of `namespace`'s bucket if it has one. */
  take(namespace: string, nowMs: number): boolean {
    const bucket = this.#buckets.get(namespace) ?? { tokens: this.#perMinute, at: nowMs };
    const refilled = Math.min(
      this.#perMinute,
      bucket.tokens + ((nowMs - bucket.at) * this.#perMinute) / 60_000,
    );
    const ok = refilled >= 1;
    this.#buckets.set(namespace, { tokens: ok ? refilled - 1 : refilled, at: nowMs });
    return ok;
  }
}
