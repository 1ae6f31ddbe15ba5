// What every subcommand opens first: the configuration for its role, the logger and the migrated database.
// The API's listener is runtime/commands/start-api.ts: an operator command opening a runtime never loads the API.
import { type Logger, pino } from "pino";
import { type Config, describeConfig, loadConfigOrExit, type Role } from "../config/index.ts";
import { type Database, openDatabase } from "../db/index.ts";
import { CommandExit, type CommandIo } from "./command-io.ts";
import { loggerOptions } from "./logger.ts";

export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
}

export interface RuntimeOptions {
  /** How the command names itself in its log and in configuration errors (default `namereg <role>`). */
  readonly command?: string;
  /** An operator command: logs at `warn` unless LOG_LEVEL says otherwise, so its own output stands alone. */
  readonly quiet?: boolean;
}

export async function openRuntime(
  role: Role,
  io: Pick<CommandIo, "env" | "err" | "log">,
  { command = `namereg ${role}`, quiet = false }: RuntimeOptions = {},
): Promise<Runtime> {
  const env = quiet ? { ...io.env, LOG_LEVEL: io.env.LOG_LEVEL ?? "warn" } : io.env;
  // A configuration that does not load: every problem listed on err, then exit 1 (through the dispatcher).
  const config = loadConfigOrExit(
    env,
    { role, command },
    {
      write: (text) => io.err(text.replace(/\n$/, "")),
      exit: (code) => {
        throw new CommandExit(code);
      },
    },
  );
  const options = loggerOptions(config);
  const logger = io.log === undefined ? pino(options) : pino(options, io.log);
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
