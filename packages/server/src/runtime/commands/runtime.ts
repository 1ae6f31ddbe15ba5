// What every subcommand opens first: the configuration for its role, the logger and the migrated database;
// and the API listener the serving commands start.
import { type Logger, pino } from "pino";
import { coalescedHead } from "../../api/chain-head.ts";
import { type App, type AppDeps, buildApp } from "../../api/index.ts";
import { loggerOptions } from "../../api/logger.ts";
import { ChainClient } from "../../chain/chain-client.ts";
import { RpcClient } from "../../chain/rpc-client.ts";
import { type Config, describeConfig, type Env, loadConfigOrExit, type Role } from "../../config/index.ts";
import { type Database, openDatabase } from "../../db/index.ts";
import type { ServiceMetrics } from "../../metrics/service-metrics.ts";

export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
}

export async function openRuntime(
  role: Role,
  env: Env = process.env,
  command = `namereg ${role}`,
): Promise<Runtime> {
  const config = loadConfigOrExit(env, { role, command });
  const logger = pino(loggerOptions(config) as object);
  logger.info({ config: describeConfig(config) }, `${command} starting`);
  for (const warning of config.warnings) logger.warn(warning);
  const database = await openDatabase({
    url: config.database.url,
    readUrl: config.database.readUrl,
    statementTimeoutMs: config.database.statementTimeoutMs,
  });
  await database.migrate();
  return { config, logger, database };
}

/** What a command adds to the app beyond its configuration: `namereg dev`'s Demo wallet. */
export type ApiExtras = Pick<AppDeps, "demoWallet">;

export async function startApi(
  rt: Runtime,
  metrics?: ServiceMetrics,
  extras: ApiExtras = {},
): Promise<{ app: App; url: string }> {
  const { config } = rt;
  const rpc =
    config.chain.rpcUrl === null ? null : new RpcClient(config.chain.rpcUrl, { retries: 0, timeoutMs: 2000 });
  const { rpcUrl, networkPassphrase } = config.chain;
  const app = await buildApp({
    config,
    db: rt.database,
    logger: rt.logger,
    ...extras,
    ...(metrics === undefined ? {} : { metrics }),
    ...(rpc === null ? {} : { chain: coalescedHead({ head: () => rpc.getLatestLedger() }) }),
    ...(rpcUrl === null || networkPassphrase === null
      ? {}
      : { chainClient: new ChainClient(rpcUrl, networkPassphrase) }),
  });
  const url = await app.listen({ port: config.port, host: config.host });
  return { app, url };
}
