// The HTTP application: shared plugins first (CORS, rate limit, errors), then one routes plugin per spec area.
import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import type { ChainClient } from "../chain/chain-client.ts";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import { ServiceMetrics } from "../metrics/service-metrics.ts";
import { loggerOptions } from "../process/logger.ts";
import { type Resolver, systemResolver } from "../webhooks/target-policy.ts";
import { installNoStore, NO_STORE_HEADERS } from "./cache.ts";
import type { ChainHeadSource } from "./chain-head.ts";
import {
  FastPathSlot,
  FastResolve,
  type GlobalLimitCheck,
  type Handler,
  type ProxyTrust,
  RESOLVE_ROUTE,
  recordFastResolve,
} from "./fast-resolve.ts";
import { answerSink, installAnswerLog } from "./plugins/answer-log.ts";
import { PUBLIC_GET_HEADERS, registerCors } from "./plugins/cors.ts";
import { type DemoWallet, registerDemoWallet } from "./plugins/demo-wallet.ts";
import {
  clientErrorHandler,
  connectRefused,
  frameworkErrorsTold,
  installErrorHandling,
} from "./plugins/errors.ts";
import { registerMetrics } from "./plugins/metrics.ts";
import { registerOpenApi } from "./plugins/openapi.ts";
import { registerRateLimit } from "./plugins/rate-limit.ts";
import { installRouteLimits } from "./plugins/route-limits.ts";
import { refuseUnknownQuery } from "./plugins/unknown-query.ts";
import { registerWebPage, webPageNotFound } from "./plugins/web.ts";
import { registerWebHeaders } from "./plugins/web-headers.ts";
import { closeRedis, connectRedis } from "./redis.ts";
import { OneLinePerRequest } from "./request-log.ts";
import { resolutionServicesOf } from "./resolution-services.ts";
import type { ResolveCacheOptions } from "./resolve-cache.ts";
import type { RouteDeps } from "./route-deps.ts";
import { declaredRoutes, recordRouteRules } from "./route-rules.ts";
import { chainAddressRoutes } from "./routes/addresses/chain-addresses.ts";
import { holderTxRoutes } from "./routes/addresses/holder-tx.ts";
import { archiveRoutes } from "./routes/archive/archive.ts";
import { authRoutes } from "./routes/auth/auth.ts";
import { allocationRoutes } from "./routes/claims/allocations.ts";
import { claimFeeRoutes } from "./routes/claims/claim-fee.ts";
import { consoleAnnounceRoutes } from "./routes/claims/console-announce.ts";
import { consoleWithdrawRoutes } from "./routes/claims/console-withdraw.ts";
import { consoleBillingRoutes } from "./routes/console/billing.ts";
import { installConsoleGuard } from "./routes/console/guard.ts";
import { consolePolicyRoutes } from "./routes/console/policy.ts";
import { consoleProfileRoutes } from "./routes/console/profile.ts";
import { directoryRoutes } from "./routes/directory/directory.ts";
import { discoveryRoutes } from "./routes/discovery/discovery.ts";
import { federationRoutes } from "./routes/federation/federation.ts";
import { buyerPrepareRoutes } from "./routes/market/buyer-prepare.ts";
import { buyerStateRoutes } from "./routes/market/buyer-state.ts";
import { consoleListingRoutes } from "./routes/market/console-listings.ts";
import { historyRoutes } from "./routes/market/history.ts";
import { intentRoutes } from "./routes/market/intent.ts";
import { listingRoutes } from "./routes/market/listings.ts";
import { marketRouteOptions, refuseWhenDisabled } from "./routes/market/market-enabled.ts";
import { sellerConsoleRoutes } from "./routes/market/seller-console.ts";
import { resolutionRoutes } from "./routes/resolution/resolution.ts";
import { healthRoutes } from "./routes/status/health.ts";
import { ledgerRoutes } from "./routes/status/ledger.ts";
import { networkRoutes } from "./routes/status/network.ts";
import { statusRoutes } from "./routes/status/status.ts";
import { streamRoutes } from "./routes/stream/stream.ts";
import { subnameRoutes } from "./routes/subnames/subnames.ts";
import { webhookRoutes } from "./routes/webhooks/webhooks.ts";
import { SharedLimits } from "./shared-limits.ts";

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Signed transactions are a few kilobytes; nothing the API accepts comes near this. */
export const DEFAULT_BODY_LIMIT = 128 * 1024;

export interface AppDeps {
  readonly config: Config;
  readonly db: Database;
  /**
   * Redis for the shared rate-limit counters. Undefined: opened from REDIS_URL when set (and closed with the
   * app); null: count in memory even if REDIS_URL is set.
   */
  readonly redis?: Redis | null;
  /** A logger to share with the rest of the process; default: a pino logger at LOG_LEVEL. */
  readonly logger?: FastifyBaseLogger;
  /** Default `<SERVICE_NAME>:ratelimit:`. */
  readonly rateLimitKeyPrefix?: string;
  readonly bodyLimit?: number;
  /**
   * The service RPC's view of the chain head, for status, stats and ledger/head; production passes
   * `{ head: () => rpcClient.getLatestLedger() }`. Undefined: no RPC, reported as down.
   */
  readonly chain?: ChainHeadSource;
  /** The clock that freshness is judged by; default: the system clock. */
  readonly now?: () => Date;
  /** Live contract reads, prepare and submit for the routes the spec marks live. Undefined: no RPC. */
  readonly chainClient?: ChainClient;
  /** The process's metrics, shared with an indexer in the same process; default: a registry of the app's own. */
  readonly metrics?: ServiceMetrics;
  /** False: every request goes through Fastify (the fast path's tests compare both). Default on. */
  readonly fastResolve?: boolean;
  /** The resolve cache's bounds and clock; default: 100,000 answers, 60 s / 5 s, `performance.now()`. */
  readonly resolveCache?: ResolveCacheOptions;
  /**
   * `namereg dev` only: the demo accounts the web app's "Demo wallet" signs with (`GET /dev/demo-wallet`,
   * plugins/demo-wallet.ts). Undefined (serve, start, tests of them): no such route, no such option on the page.
   */
  readonly demoWallet?: DemoWallet;
  /** How webhook target host names are resolved at registration; default the system's resolver (tests: their own). */
  readonly webhookResolver?: Resolver;
}

/** A hop count is what Fastify does at run time for a number, which its types do not admit. */
function trustProxy(value: Config["trustProxy"]): ProxyTrust {
  if (typeof value === "number") return (_address, hop) => hop < value;
  return typeof value === "boolean" ? value : [...value];
}

/** Builds the app without listening; callers may add routes before `ready()`/`listen()`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const proxyTrust = trustProxy(config.trustProxy);
  const answers = answerSink();
  const options = {
    trustProxy: proxyTrust,
    bodyLimit: deps.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Keep answering (in our error format, not Fastify's) while in-flight work drains on shutdown.
    return503OnClosing: false,
    frameworkErrors: frameworkErrorsTold(
      answers === null
        ? null
        : ({ method, status, body }) =>
            answers({ method, route: null, status, contentType: "application/json; charset=utf-8", body }),
    ),
    // A client must send its whole request (headers and body) in time: a body shorter than its Content-Length
    // would otherwise hold the connection forever. Idle kept-alive connections go after keepAliveTimeout.
    requestTimeout: config.http.requestTimeoutMs,
    // Node checks those deadlines every 30 s by default, which would let a 5 s timeout run to 35 s.
    // Node's own answer to an HTTP/1.1 request without Host is an empty 400; the error plugin answers it in the
    // house format instead, with the duplicate-Host check (plugins/errors.ts).
    http: {
      connectionsCheckingInterval: Math.min(1000, config.http.requestTimeoutMs),
      requireHostHeader: false,
    },
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    clientErrorHandler,
    // One line per request instead of Fastify's two (request-log.ts).
    logController: new OneLinePerRequest(),
  };
  const fastify =
    deps.logger === undefined
      ? Fastify({ ...options, logger: loggerOptions(config) })
      : Fastify({ ...options, loggerInstance: deps.logger });
  const app: App = fastify.withTypeProvider<ZodTypeProvider>();
  // The fast resolve path sits in front of Fastify's own request listener (fast-resolve.ts). The listener is
  // swapped rather than given through `serverFactory`, which would have to repeat every server setting Fastify
  // applies to the server it creates.
  const fastPath = new FastPathSlot();
  const [fastifyListener] = app.server.listeners("request") as Handler[];
  if (fastifyListener !== undefined) {
    app.server.removeAllListeners("request");
    app.server.on("request", fastPath.listener(fastifyListener));
  }
  // CONNECT bypasses the request listener; without this Node closes the socket with no answer (plugins/errors.ts).
  app.server.on("connect", connectRefused);
  // Beyond this many open connections new ones are refused at accept, before they cost a request each.
  app.server.maxConnections = config.http.maxConnections;
  // Headers must arrive within the request timeout too (Node's default is a minute on its own).
  app.server.headersTimeout = Math.min(config.http.requestTimeoutMs, 60_000);
  // Every body the API accepts is JSON; a text/plain body gets 415 like any other type, not a confusing 400.
  app.removeContentTypeParser("text/plain");
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // First of all hooks, so every answer (errors, 429s and 404s included) carries the caching policy.
  installNoStore(app);
  const answerLog = answers === null ? null : installAnswerLog(app, answers);

  try {
    let redis = deps.redis ?? null;
    if (deps.redis === undefined && config.redisUrl !== null) {
      const owned = await connectRedis(config.redisUrl, app.log);
      app.addHook("onClose", () => closeRedis(owned, config.rateLimit.redisTimeoutMs));
      redis = owned;
    }
    const shared =
      redis === null
        ? null
        : new SharedLimits(redis, { timeoutMs: config.rateLimit.redisTimeoutMs, log: app.log });
    if (shared !== null) {
      app.addHook("onClose", async () => shared.close());
      await shared.calibrate();
    }

    // Before any route: each declares its errors and limit group in its options, which the readers below take.
    recordRouteRules(app);
    await registerCors(app);
    // Decorates every reply with `helmet()` and applies it to none: only the page-serving scopes call it.
    const browserPolicy = { publicUrl: config.publicUrl, publicRpcUrl: config.chain.publicRpcUrl };
    await registerWebHeaders(app, browserPolicy);
    const localLimit = await registerRateLimit(app, {
      perMinute: config.rateLimit.perMinute,
      shared,
      keyPrefix: deps.rateLimitKeyPrefix ?? `${config.serviceName}:ratelimit:`,
    });
    installRouteLimits(app, {
      auth: config.rateLimit.authPerMinute,
      prepare: config.rateLimit.preparePerMinute,
      submit: config.rateLimit.submitPerMinute,
      intent: config.rateLimit.intentPerMinute,
      "chain-read": config.rateLimit.chainReadPerMinute,
    });
    refuseUnknownQuery(app);
    // Unknown paths count against the limit too, so probing for routes is not free.
    installErrorHandling(
      app,
      app.rateLimit(),
      webPageNotFound({ demoWallet: deps.demoWallet !== undefined }),
    );
    // Before the routes: the document is built from the routes registered after it.
    await registerOpenApi(app, { publicUrl: config.publicUrl, browserPolicy });

    const now = deps.now ?? (() => new Date());
    const base = { config, db: deps.db, chain: deps.chain, chainClient: deps.chainClient, now };
    const resolution = await resolutionServicesOf(app, { ...base, cache: deps.resolveCache ?? {} });
    const routeDeps: RouteDeps = { ...base, resolution, ...(shared === null ? {} : { rateLimits: shared }) };
    const metrics = config.metricsEnabled ? (deps.metrics ?? new ServiceMetrics()) : null;
    if (metrics !== null) {
      registerMetrics(app, {
        metrics,
        db: deps.db,
        config,
        cache: routeDeps.resolution.cache,
        now,
      });
    }
    await registerWebPage(app, { demoWallet: deps.demoWallet !== undefined });
    if (deps.demoWallet !== undefined) registerDemoWallet(app, deps.demoWallet);
    await app.register(healthRoutes, routeDeps);
    await app.register(statusRoutes, routeDeps);
    await app.register(ledgerRoutes, routeDeps);
    await app.register(networkRoutes, routeDeps);
    await app.register(archiveRoutes, routeDeps);
    await app.register(streamRoutes, routeDeps);
    await app.register(authRoutes, routeDeps);
    // The console's routes share one scope, whose onRequest hook authenticates before anything else runs.
    await app.register(async (scope) => {
      const context = installConsoleGuard(scope, routeDeps);
      await scope.register(consolePolicyRoutes, { ...context, config });
      await scope.register(consoleProfileRoutes, context);
      await scope.register(consoleAnnounceRoutes, { ...context, config });
      await scope.register(consoleListingRoutes, { ...context, config });
      await scope.register(consoleBillingRoutes, { ...context, config });
      await scope.register(webhookRoutes, {
        ...context,
        config,
        resolve: deps.webhookResolver ?? systemResolver,
      });
      await scope.register(consoleWithdrawRoutes, { ...context, config });
      await scope.register(sellerConsoleRoutes, { ...context, config });
    });
    await app.register(subnameRoutes, routeDeps);
    await app.register(chainAddressRoutes, routeDeps);
    await app.register(holderTxRoutes, routeDeps);
    await app.register(resolutionRoutes, routeDeps);
    await app.register(discoveryRoutes, routeDeps);
    await app.register(directoryRoutes, routeDeps);
    await app.register(federationRoutes, routeDeps);
    await app.register(allocationRoutes, routeDeps);
    await app.register(claimFeeRoutes, routeDeps);
    // The marketplace's public routes share one scope, which answers 409 market_disabled while it is off.
    await app.register(async (scope) => {
      const market = marketRouteOptions(routeDeps);
      refuseWhenDisabled(scope, market.market);
      await scope.register(listingRoutes, market);
      await scope.register(intentRoutes, market);
      await scope.register(buyerPrepareRoutes, market);
      await scope.register(buyerStateRoutes, market);
      await scope.register(historyRoutes, market);
    });
    if (deps.fastResolve !== false) {
      // The fast path counts a hit against the global limit only, as the route itself would be counted.
      const resolve = declaredRoutes(app).find((r) => r.method === "GET" && r.url === RESOLVE_ROUTE);
      if (resolve?.limitGroup !== "global") {
        throw new Error(
          `${RESOLVE_ROUTE} must count against the global limit only: the fast path applies no other`,
        );
      }
      fastPath.fast = new FastResolve({
        resolution: routeDeps.resolution,
        limit: (app as unknown as { createRateLimit(): GlobalLimitCheck }).createRateLimit(),
        localLimit,
        corsHeaders: { ...PUBLIC_GET_HEADERS, ...NO_STORE_HEADERS },
        trustProxy: proxyTrust,
        logger: app.log,
        metrics,
        onAnswer: answers,
      });
      recordFastResolve(app, fastPath.fast);
    }
  } catch (error) {
    // Whatever was opened so far (the Redis connection) closes with the app; the first failure is the news.
    await app.close().catch(() => {});
    throw error;
  }
  answerLog?.seal();
  return app;
}
