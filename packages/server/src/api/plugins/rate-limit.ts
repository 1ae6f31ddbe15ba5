// The global per-IP limit of spec §8, counted in Redis when several replicas share it, else in this process.
// Headers follow the IETF RateLimit draft (RateLimit-Limit/-Remaining/-Reset) plus Retry-After on a 429.
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { ApiError } from "../errors.ts";

export interface RateLimitOptions {
  readonly perMinute: number;
  /** Null: count in memory, per process. */
  readonly redis: Redis | null;
  /** Prefix of the Redis keys, so deployments (and test runs) sharing a Redis keep separate counts. */
  readonly keyPrefix: string;
}

export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    enableDraftSpec: true,
    ...(options.redis === null ? {} : { redis: options.redis }),
    nameSpace: options.keyPrefix,
    // If Redis is unreachable, serving unlimited beats refusing everyone; the Redis client logs the outage.
    skipOnError: true,
    errorResponseBuilder: () => new ApiError("rate_limited"),
  });
}
