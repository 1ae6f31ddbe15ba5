// The rate limits' counts shared through Redis, bounded (docs/api.md "Rate limits"). Every call to Redis must
// answer within REDIS_TIMEOUT_MS (tens of milliseconds); past it, or on any error, the request is judged by this
// process's own count — kept all along, so it is warm — and Redis is left alone until a probe finds it answering
// again: a frozen Redis costs one request one timeout per incident, not every request a second. An increment
// that reaches Redis late (it was frozen with the command in its socket) is dropped by the script itself, which
// compares the time it was sent with Redis's clock: those requests were already judged, by this process.
// @fastify/rate-limit's own Redis store has no deadline and counts whatever arrives (skipOnError then served
// unlimited, saying the full budget was left), hence this store.
import LocalStore from "@fastify/rate-limit/store/LocalStore.js";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

/** INCR with the window's expiry, unless the call is older than its deadline when Redis runs it. */
const FRESH_INCR = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now - tonumber(ARGV[2]) > tonumber(ARGV[3]) then return {-1, 0} end
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

/** While Redis is away, a probe asks it this often whether it answers again. */
const PROBE_EVERY_MS = 500;

type Counted = { current: number; ttl: number };
type IncrCallback = (error: Error | null, result: Counted) => void;
interface LimitRedis extends Redis {
  namereg_freshIncr(
    key: string,
    windowMs: number,
    sentAt: number,
    maxAgeMs: number,
  ): Promise<[number, number]>;
}

export interface RateLimitsComponent {
  readonly name: "Rate limits";
  readonly state: "operational" | "degraded";
  /** Where the counts being enforced are kept: Redis (shared by the replicas) or this process. */
  readonly store: "redis" | "process";
}

/** Whether Redis answers in time, with the offset of its clock; logs one warning per incident. */
export class SharedLimits {
  readonly redis: LimitRedis;
  readonly timeoutMs: number;
  readonly #log: FastifyBaseLogger;
  #up = true;
  #offsetMs = 0;
  #probe: NodeJS.Timeout | null = null;
  #probing = false;

  constructor(redis: Redis, options: { readonly timeoutMs: number; readonly log: FastifyBaseLogger }) {
    this.redis = redis as LimitRedis;
    this.timeoutMs = options.timeoutMs;
    this.#log = options.log;
    if (typeof this.redis.namereg_freshIncr !== "function")
      this.redis.defineCommand("namereg_freshIncr", { numberOfKeys: 1, lua: FRESH_INCR });
    redis.on("error", (error: Error) => this.failed(error.message));
  }

  get up(): boolean {
    return this.#up;
  }

  /** Measures Redis's clock against this one; a Redis that does not answer in time is an incident. */
  async calibrate(): Promise<void> {
    await this.#measure().catch((error: unknown) =>
      this.failed(error instanceof Error ? error.message : String(error)),
    );
  }

  /** The offset of Redis's clock from this one, by TIME, halfway through the round trip. */
  async #measure(): Promise<void> {
    const before = Date.now();
    const [seconds, micros] = await bounded(this.redis.time(), this.timeoutMs);
    const after = Date.now();
    this.#offsetMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) - (before + after) / 2;
  }

  /** Redis's count for `key` after this request, or null when it did not answer in time (then: an incident). */
  async increment(key: string, windowMs: number): Promise<Counted | null> {
    if (!this.#up) return null;
    const sentAt = Date.now() + this.#offsetMs;
    try {
      const call = this.redis.namereg_freshIncr(key, windowMs, sentAt, this.timeoutMs);
      const [current, ttl] = await bounded(call, this.timeoutMs);
      // Refused as late although it answered in time: the clocks drifted apart. Measured again by the probe.
      if (current < 0) throw new Error("Redis judged a timely increment late (its clock moved)");
      return { current, ttl };
    } catch (error) {
      this.failed(error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  /** Starts an incident (once): this process counts alone until a probe finds Redis answering. */
  failed(reason: string): void {
    if (!this.#up) return;
    this.#up = false;
    this.#log.warn(
      { reason, timeoutMs: this.timeoutMs },
      "rate limits: Redis did not answer in time; each process enforces its own count until it is back",
    );
    this.#probe = setInterval(() => void this.#tryProbe(), PROBE_EVERY_MS);
    this.#probe.unref();
  }

  async #tryProbe(): Promise<void> {
    if (this.#probing || this.#up) return;
    this.#probing = true;
    try {
      await this.#measure();
      if (this.#probe !== null) clearInterval(this.#probe);
      this.#probe = null;
      this.#up = true;
      this.#log.info("rate limits: Redis answers again; the shared counts are enforced");
    } catch {
      // Still away: the next probe asks again.
    } finally {
      this.#probing = false;
    }
  }

  component(): RateLimitsComponent {
    return this.#up
      ? { name: "Rate limits", state: "operational", store: "redis" }
      : { name: "Rate limits", state: "degraded", store: "process" };
  }

  close(): void {
    if (this.#probe !== null) clearInterval(this.#probe);
    this.#probe = null;
  }
}

/** `work`, or a rejection after `ms`. */
async function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A store class for @fastify/rate-limit counting in `shared` Redis when it answers in time and in this
 * process otherwise; `prefix` keeps deployments sharing a Redis apart. Each store (the global one and each
 * per-route group's child) keeps its own local count.
 */
export function sharedLimitStore(shared: SharedLimits, prefix: string) {
  return class SharedLimitStore {
    readonly #local: LocalStore;
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean } = {}) {
      this.#local = new LocalStore(params.continueExceeding, params.exponentialBackoff);
    }

    incr(key: string, callback: IncrCallback, windowMs: number, max: number): void {
      let own: Counted = { current: 0, ttl: windowMs };
      this.#local.incr(
        key,
        (_error: Error | null, result: Counted) => {
          own = result;
        },
        windowMs,
        max,
      );
      shared.increment(prefix + key, windowMs).then((counted) => callback(null, counted ?? own));
    }

    read(key: string, callback: IncrCallback, windowMs: number, max: number): void {
      this.#local.read(key, callback, windowMs, max);
    }

    child(): SharedLimitStore {
      return new SharedLimitStore();
    }
  };
}
