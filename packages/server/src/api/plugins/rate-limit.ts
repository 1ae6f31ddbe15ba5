// The global per-IP limit (docs/operations.md "Topologies"), counted in Redis when several replicas share it, else in this process.
// Headers follow the IETF RateLimit draft (RateLimit-Limit/-Remaining/-Reset) plus Retry-After on a 429.
import rateLimit from "@fastify/rate-limit";
import LocalStore from "@fastify/rate-limit/store/LocalStore.js";
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

export const LIMIT_WINDOW_MS = 60_000;

/**
 * The global limit when it is counted in this process: the plugin's own store (the one it counts every Fastify
 * request in), so the fast resolve path can count a request there without the plugin's promise round.
 */
export interface LocalLimit {
  readonly store: LocalStore;
  readonly max: number;
  readonly windowMs: number;
}

/** Registers the global limit; returns its in-process store, or null when Redis counts it. */
export async function registerRateLimit(
  app: FastifyInstance,
  options: RateLimitOptions,
): Promise<LocalLimit | null> {
  let local: LocalStore | null = null;
  // The plugin builds its store from the class it is given; this one is the plugin's own in-memory store, kept.
  const Store = class extends LocalStore {
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      super(params.continueExceeding, params.exponentialBackoff);
      local = this;
    }
  };
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: LIMIT_WINDOW_MS,
    enableDraftSpec: true,
    ...(options.redis === null ? { store: Store } : { redis: options.redis }),
    nameSpace: options.keyPrefix,
    // If Redis is unreachable, serving unlimited beats refusing everyone; the Redis client logs the outage.
    skipOnError: true,
    errorResponseBuilder: () => new ApiError("rate_limited"),
  });
  return local === null ? null : { store: local, max: options.perMinute, windowMs: LIMIT_WINDOW_MS };
}
