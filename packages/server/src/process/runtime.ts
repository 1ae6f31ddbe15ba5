// What every subcommand opens first: the configuration for its role, the logger and the migrated database.
// The API's listener is runtime/commands/start-api.ts: an operator command opening a runtime never loads the API.
import { type Logger, pino } from "pino";
import { type Config, describeConfig, type Env, loadConfigOrExit, type Role } from "../config/index.ts";
import { type Database, openDatabase } from "../db/index.ts";
import { loggerOptions } from "./logger.ts";

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
  const logger = pino(loggerOptions(config));
  logger.info({ config: describeConfig(config) }, `${command} starting`);
  for (const warning of config.warnings) logger.warn(warning);
  const database = await openDatabase({
    url: config.database.url,
    readUrl: config.database.readUrl,
    statementTimeoutMs: config.database.statementTimeoutMs,
    poolSize: config.database.poolSize,
  });
  await database.migrate();
  return { config, logger, database };
}
