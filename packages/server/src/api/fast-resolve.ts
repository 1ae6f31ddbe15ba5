// The hot path of the API: a cache hit of `GET /v1/resolve/:namespace/:label`, answered in front of Fastify.
// Why by hand: on a hit the answer is a serialised string already, and Fastify's per-request machinery (request
// and reply objects, routing, hook chains, the schema validator) cost as much CPU as everything else the answer
// needs, which kept resolve at ~0.4 of a bare node:http server. This handler does only what the Fastify route does
// for a hit — the global per-IP limit (same store and key as the plugin; an IPv4 client counted in the in-process
// store directly, without the plugin's promise round; its 429 too, so a request is counted once), the CORS headers
// of a public route, the expiry check, the resolution counter, the request metric and log lines — and writes the
// same bytes. Anything else falls through to Fastify untouched: a miss, a name that is missing or expired, a store
// error, HEAD/OPTIONS, a query string, a missing or repeated Host header, percent-encoded or odd paths.
// fast-resolve.integration.test.ts holds the two paths to the same status, headers and body.
import type { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyAddr from "@fastify/proxy-addr";
import type { FastifyBaseLogger } from "fastify";
import type { DurationCell } from "../metrics/request-durations.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { ApiError } from "./errors.ts";
import type { AnswerSink } from "./plugins/answer-log.ts";
import { hostProblem } from "./plugins/errors.ts";
import type { LocalLimit } from "./plugins/rate-limit.ts";
import type { ResolutionServices } from "./resolution-services.ts";
import type { CachedResolution, CacheHit } from "./resolve-cache.ts";

type FoundAnswer = Extract<CachedResolution, { kind: "found" }>;

const PREFIX = "/v1/resolve/";
/** The body the error handler gives a request over the global limit. */
const RATE_LIMITED = JSON.stringify(new ApiError("rate_limited").body());
const RATE_LIMITED_LENGTH = String(Buffer.byteLength(RATE_LIMITED));
const JSON_TYPE = "application/json; charset=utf-8";
/** A hit's headers after the CORS ones: the limit's figures, then the body's type and length. */
const FOUND_HEADERS = [
  "ratelimit-limit",
  "",
  "ratelimit-remaining",
  "",
  "ratelimit-reset",
  "",
  "content-type",
  JSON_TYPE,
  "content-length",
  "",
];
/** Where a hit's own values go in that list (after the CORS headers). */
const FOUND_LIMIT = 1;
const FOUND_REMAINING = 3;
const FOUND_RESET = 5;
const FOUND_LENGTH = 9;
export const RESOLVE_ROUTE = "/v1/resolve/:namespace/:label";
/** Levels at which Fastify logs every request. */
const REQUEST_LOG_LEVELS = new Set(["trace", "debug", "info"]);

/** The global limit's check as `app.createRateLimit()` returns it. */
export type GlobalLimitCheck = (request: {
  ip: string;
  routeOptions: { config: Record<string, never> };
}) => Promise<{ max?: number; remaining?: number; ttlInSeconds?: number; isExceeded?: boolean }>;

/** What a limit check tells (the plugin's names). */
interface LimitFigures {
  readonly max: number;
  readonly remaining?: number;
  readonly ttlInSeconds?: number;
  readonly isExceeded?: boolean;
}

export interface FastResolveDeps {
  readonly resolution: ResolutionServices;
  readonly limit: GlobalLimitCheck;
  /** The global limit's in-process store (null when Redis counts it): a request is counted there without a promise. */
  readonly localLimit: LocalLimit | null;
  /** The fixed headers of a public GET: those @fastify/cors gives (cors.ts), in its order, and the cache policy (cache.ts). */
  readonly corsHeaders: Readonly<Record<string, string>>;
  /** The `trustProxy` option the app gave Fastify. */
  readonly trustProxy: ProxyTrust;
  readonly logger: FastifyBaseLogger;
  readonly metrics: ServiceMetrics | null;
  /** Test instrumentation (plugins/answer-log.ts): told of every answer sent here. */
  readonly onAnswer?: AnswerSink | null;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export class FastResolve {
  /** Hits answered here (the rest went to Fastify); for tests and the benchmark. */
  served = 0;
  readonly #d: FastResolveDeps;
  readonly #clientIp: (req: IncomingMessage) => string;
  readonly #corsFlat: string[];
  /** Every hit's header list (the CORS headers, then FOUND_HEADERS), its values written per hit. */
  readonly #found: string[];
  /** The request-duration cells of this route's two answers, looked up once. */
  readonly #duration200: DurationCell | null;
  readonly #duration429: DurationCell | null;
  #requests = 0;
  /** Whether every request gets its log line: read at start and on each level change, not on every request. */
  #logRequests = false;
  /** The local store's answer: it calls back before `incr` returns, so one callback serves every request. */
  #counted: { current: number; ttl: number } | null = null;
  readonly #onCounted = (_error: Error | null, result: { current: number; ttl: number }): void => {
    this.#counted = result;
  };

  constructor(deps: FastResolveDeps) {
    this.#d = deps;
    this.#clientIp = clientIpOf(deps.trustProxy);
    this.#corsFlat = Object.entries(deps.corsHeaders).flat();
    this.#found = this.#corsFlat.concat(FOUND_HEADERS);
    const cell = (status: string) =>
      deps.metrics?.httpDuration.cell({ route: RESOLVE_ROUTE, method: "GET", status }) ?? null;
    this.#duration200 = cell("200");
    this.#duration429 = cell("429");
    const follow = () => {
      this.#logRequests = REQUEST_LOG_LEVELS.has(deps.logger.level);
    };
    follow();
    // pino announces a level change on the logger itself; a logger that cannot is asked on every request.
    const changes = (deps.logger as Partial<Pick<EventEmitter, "on">>).on;
    if (typeof changes === "function") changes.call(deps.logger, "level-change", follow);
    else this.#logRequests = true;
  }

  /** Answers `req` when it is a cache hit it can serve in full; otherwise hands it to `next` (Fastify). */
  handle(req: IncomingMessage, res: ServerResponse, next: Handler): void {
    if (!this.#serve(req, res, next)) next(req, res);
  }

  /** False when the request is not a servable hit (then nothing was sent, nothing counted). */
  #serve(req: IncomingMessage, res: ServerResponse, next: Handler): boolean {
    const url = req.url ?? "";
    if (req.method !== "GET" || !url.startsWith(PREFIX)) return false;
    const start = performance.now();
    // The cache is keyed by `namespace/label` of names that passed the route's validation, so a path that is a key
    // needs no checks of its own: a query string, a percent-encoded, odd or extra segment is never a key, and goes
    // to Fastify as a miss does.
    const hit = this.#d.resolution.cache.hitPath(url.slice(PREFIX.length));
    const entry = hit?.value;
    if (hit === undefined || entry?.kind !== "found" || this.#d.resolution.clock.isExpired(entry.expiresAt))
      return false;
    // A Host header that is missing or repeated is Fastify's to refuse with 400 (plugins/errors.ts).
    if (hostProblem(req.rawHeaders, req.httpVersion) !== null) return false;
    const ip = this.#clientIp(req);
    const local = this.#d.localLimit;
    // An IPv4 address is its own key in the plugin's store (it masks IPv6 ones to a subnet, so those go its way).
    if (local !== null && !ip.includes(":")) {
      this.#counted = null;
      local.store.incr(ip, this.#onCounted, local.windowMs, local.max);
      const counted = this.#counted as { current: number; ttl: number } | null;
      if (counted !== null) {
        // The figures exactly as the plugin derives them from the store's answer (applyRateLimit).
        this.#answer(req, res, start, ip, hit, entry, {
          max: local.max,
          remaining: Math.max(0, local.max - counted.current),
          ttlInSeconds: Math.ceil(counted.ttl / 1000),
          isExceeded: counted.current > local.max,
        });
        return true;
      }
    }
    this.#d.limit({ ip, routeOptions: { config: {} } }).then(
      (limit) => {
        // A store error (no figures: the plugin skips limiting on one) is Fastify's to answer.
        if (limit.max === undefined) next(req, res);
        else this.#answer(req, res, start, ip, hit, entry, { ...limit, max: limit.max });
      },
      () => next(req, res),
    );
    return true;
  }

  #answer(
    req: IncomingMessage,
    res: ServerResponse,
    start: number,
    ip: string,
    hit: CacheHit,
    entry: FoundAnswer,
    limit: LimitFigures,
  ): void {
    const max = String(limit.max);
    const reset = String(limit.ttlInSeconds ?? 0);
    // Counted once, here: handing a request over the limit to Fastify would count it a second time.
    if (limit.isExceeded === true) {
      const headers = this.#corsFlat.concat([
        "ratelimit-limit",
        max,
        "ratelimit-remaining",
        "0",
        "ratelimit-reset",
        reset,
        "retry-after",
        reset,
        "content-type",
        JSON_TYPE,
        "content-length",
        RATE_LIMITED_LENGTH,
      ]);
      this.#send(req, res, start, ip, 429, RATE_LIMITED, headers);
      return;
    }
    const { cache, counter } = this.#d.resolution;
    cache.stats.hits++;
    hit.counted = counter.count(hit.counted, hit.node);
    this.served++;
    // One list for every hit, its figures written in place: writeHead reads it into the header block before it
    // returns and keeps no reference, so no hit allocates its headers.
    const headers = this.#found;
    const at = this.#corsFlat.length;
    headers[at + FOUND_LIMIT] = max;
    headers[at + FOUND_REMAINING] = String(limit.remaining ?? 0);
    headers[at + FOUND_RESET] = reset;
    headers[at + FOUND_LENGTH] = entry.length;
    this.#send(req, res, start, ip, 200, entry.body, headers);
  }

  #send(
    req: IncomingMessage,
    res: ServerResponse,
    start: number,
    ip: string,
    status: 200 | 429,
    body: string,
    headers: string[],
  ): void {
    // A flat list is the cheapest form writeHead takes: no key walk, no own-property checks.
    res.writeHead(status, headers);
    res.end(body);
    this.#d.onAnswer?.({
      method: "GET",
      route: RESOLVE_ROUTE,
      status,
      contentType: JSON_TYPE,
      body: JSON.parse(body),
    });
    const ms = performance.now() - start;
    (status === 200 ? this.#duration200 : this.#duration429)?.observe(ms / 1000);
    this.#logCompleted(req, ip, status, ms);
  }

  /** The one line every request gets (api/request-log.ts), when request logging is on (LOG_LEVEL info or below). */
  #logCompleted(req: IncomingMessage, ip: string, statusCode: number, responseTime: number): void {
    if (!this.#logRequests || !REQUEST_LOG_LEVELS.has(this.#d.logger.level)) return;
    this.#d.logger.info(
      {
        reqId: `fast-${(++this.#requests).toString(36)}`,
        req: {
          method: req.method,
          url: req.url,
          host: req.headers.host,
          remoteAddress: ip,
          remotePort: req.socket.remotePort,
        },
        res: { statusCode },
        responseTime,
      },
      "request completed",
    );
  }
}

/** Fastify's `trustProxy` option as the app sets it from TRUST_PROXY (app.ts). */
export type ProxyTrust = boolean | string[] | ((address: string, hop: number) => boolean);

/** The client address exactly as Fastify's `request.ip` has it for the same `trustProxy` option. */
function clientIpOf(trust: ProxyTrust): (req: IncomingMessage) => string {
  if (trust === false) return (req) => req.socket.remoteAddress ?? "";
  const fn: (address: string, hop: number) => boolean =
    trust === true ? () => true : typeof trust === "function" ? trust : proxyAddr.compile(trust);
  return (req) => {
    const all = proxyAddr.all(req, fn);
    return all[all.length - 1] ?? "";
  };
}

const installed = new WeakMap<object, FastResolve>();

/** The fast path installed in `app` (null when built without it): tests count what it served. */
export function fastResolveOf(app: object): FastResolve | null {
  return installed.get(app) ?? null;
}

export function recordFastResolve(app: object, fast: FastResolve): void {
  installed.set(app, fast);
}

/**
 * A server request listener that offers each request to the fast path once it is installed (the routes and the
 * cache exist only after Fastify has created its server), else passes it straight to Fastify.
 */
export class FastPathSlot {
  fast: FastResolve | null = null;
  listener(fastify: Handler): Handler {
    return (req, res) => {
      const fast = this.fast;
      if (fast === null) fastify(req, res);
      else fast.handle(req, res, fastify);
    };
  }
}
