// What a batch read costs against the global per-IP limit (docs/api.md "POST /v1/resolve"): one request per 10
// items or part of 10, so 100 names count as 10 requests and a batch cannot multiply a client's budget tenfold.
// The global limit's own hook counted the first already; the rest are counted here, after the body was
// validated (a refused batch costs one), in the same store under the same key (@fastify/rate-limit's
// createRateLimit with the global options), so they show in the same RateLimit-* headers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../errors.ts";

export const ITEMS_PER_REQUEST = 10;

interface LimitResult {
  readonly max?: number;
  readonly remaining?: number;
  readonly ttlInSeconds?: number;
  readonly isExceeded?: boolean;
}

type Check = (request: FastifyRequest) => Promise<LimitResult>;

/** How many requests a batch of `items` counts as. */
export function requestsOf(items: number): number {
  return Math.max(1, Math.ceil(items / ITEMS_PER_REQUEST));
}

/** Charges a batch of `items` to the client's global budget; 429 `rate_limited` when that goes over it. */
export function batchCharge(app: FastifyInstance) {
  const limited = app as unknown as { createRateLimit?: () => Check };
  const check = typeof limited.createRateLimit === "function" ? limited.createRateLimit() : null;
  return async (request: FastifyRequest, reply: FastifyReply, items: number): Promise<void> => {
    if (check === null) return;
    let last: LimitResult | undefined;
    for (let counted = 1; counted < requestsOf(items); counted++) last = await check(request);
    // Skipped on a store error (as the global limit is): serving beats refusing everyone.
    if (last?.max === undefined) return;
    const reset = String(last.ttlInSeconds ?? 0);
    void reply.headers({
      "ratelimit-limit": String(last.max),
      "ratelimit-remaining": String(last.remaining ?? 0),
      "ratelimit-reset": reset,
    });
    if (last.isExceeded === true) {
      void reply.header("retry-after", reset);
      throw new ApiError("rate_limited", {
        detail: `a batch of ${items} counts as ${requestsOf(items)} requests (one per ${ITEMS_PER_REQUEST} items) against the limit of ${last.max} a minute`,
      });
    }
  };
}
