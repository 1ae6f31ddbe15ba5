// The HTTP application: shared plugins first (CORS, rate limit, errors), then one routes plugin per spec area.
import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Redis } from "ioredis";
import type { ContractReader } from "../chain/contract-reader.ts";
import type { Config } from "../config/index.ts";
import type { Database } from "../db/index.ts";
import type { ChainHeadSource } from "./chain-head.ts";
import { loggerOptions } from "./logger.ts";
import { registerCors } from "./plugins/cors.ts";
import { frameworkErrors, installErrorHandling } from "./plugins/errors.ts";
import { registerRateLimit } from "./plugins/rate-limit.ts";
import { connectRedis } from "./redis.ts";
import { archiveRoutes } from "./routes/archive.ts";
import { authRoutes } from "./routes/auth.ts";
import { chainAddressRoutes } from "./routes/chain-addresses.ts";
import { claimFeeRoutes } from "./routes/claims/claim-fee.ts";
import { consoleRoutes } from "./routes/console.ts";
import { directoryRoutes } from "./routes/directory.ts";
import { discoveryRoutes } from "./routes/discovery.ts";
import { federationRoutes } from "./routes/federation.ts";
import { healthRoutes } from "./routes/health.ts";
import { holderTxRoutes } from "./routes/holder-tx.ts";
import { ledgerRoutes } from "./routes/ledger.ts";
import { marketRoutes } from "./routes/market/index.ts";
import { resolutionRoutes } from "./routes/resolution.ts";
import { statusRoutes } from "./routes/status.ts";
import { subnameRoutes } from "./routes/subnames.ts";

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
  /** Live contract reads (simulateTransaction) for the routes the spec marks live. Undefined: no RPC. */
  readonly reader?: ContractReader;
}

/** A hop count is what Fastify does at run time for a number, which its types do not admit. */
function trustProxy(
  value: Config["trustProxy"],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === "number") return (_address, hop) => hop < value;
  return typeof value === "boolean" ? value : [...value];
}

/** Builds the app without listening; callers may add routes before `ready()`/`listen()`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const options = {
    trustProxy: trustProxy(config.trustProxy),
    bodyLimit: deps.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Keep answering (in our error format, not Fastify's) while in-flight work drains on shutdown.
    return503OnClosing: false,
    frameworkErrors,
  };
  const fastify =
    deps.logger === undefined
      ? Fastify({ ...options, logger: loggerOptions(config) })
      : Fastify({ ...options, loggerInstance: deps.logger });
  const app: App = fastify.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  try {
    let redis = deps.redis ?? null;
    if (deps.redis === undefined && config.redisUrl !== null) {
      const owned = await connectRedis(config.redisUrl, app.log);
      app.addHook("onClose", async () => {
        await owned.quit();
      });
      redis = owned;
    }

    await registerCors(app);
    await registerRateLimit(app, {
      perMinute: config.rateLimit.perMinute,
      redis,
      keyPrefix: deps.rateLimitKeyPrefix ?? `${config.serviceName}:ratelimit:`,
    });
    // Unknown paths count against the limit too, so probing for routes is not free.
    installErrorHandling(app, app.rateLimit());

    await app.register(healthRoutes, { serviceName: config.serviceName });
    const mirror = { db: deps.db, chain: deps.chain, now: deps.now ?? (() => new Date()) };
    // Routes of later areas take `{ ...mirror, config, reader: deps.reader }` and register below.
    await app.register(statusRoutes, { ...mirror, escrowWatcher: config.market.enabled });
    await app.register(ledgerRoutes, mirror);
    await app.register(archiveRoutes, mirror);
    await app.register(authRoutes, { ...mirror, config });
    await app.register(consoleRoutes, { ...mirror, config, reader: deps.reader });
    await app.register(subnameRoutes, { ...mirror, reader: deps.reader });
    await app.register(chainAddressRoutes, { ...mirror, reader: deps.reader });
    await app.register(holderTxRoutes, { ...mirror, reader: deps.reader });
    await app.register(resolutionRoutes, { ...mirror, config, reader: deps.reader });
    await app.register(discoveryRoutes, mirror);
    await app.register(directoryRoutes, { ...mirror, config });
    await app.register(federationRoutes, { ...mirror, config });
    await app.register(marketRoutes, { ...mirror, config });
    await app.register(claimFeeRoutes, {
      allocatorId: config.chain.contracts.allocator.id,
      reader: deps.reader,
    });
  } catch (error) {
    // Whatever was opened so far (the Redis connection) closes with the app; the first failure is the news.
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}
