// The global per-IP limit (docs/operations.md "Topologies"), counted in Redis when several replicas share it, else in
// this process (also while Redis does not answer in time: shared-limits.ts).
// Headers follow the IETF RateLimit draft (RateLimit-Limit/-Remaining/-Reset) plus Retry-After on a 429.
import rateLimit from "@fastify/rate-limit";
import LocalStore from "@fastify/rate-limit/store/LocalStore.js";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";
import { type SharedLimits, sharedLimitStore } from "../shared-limits.ts";

export interface RateLimitOptions {
  readonly perMinute: number;
  /** Null: count in memory, per process. */
  readonly shared: SharedLimits | null;
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
    // Through Redis, a store that falls back to this process's own count (shared-limits.ts) and never errs.
    store: options.shared === null ? Store : sharedLimitStore(options.shared, options.keyPrefix),
    errorResponseBuilder: () => new ApiError("rate_limited"),
  });
  return local === null ? null : { store: local, max: options.perMinute, windowMs: LIMIT_WINDOW_MS };
}
