// The logger's options, one set for every process: the API's Fastify logger and the operator commands' pino alike.
import type { LoggerOptions } from "pino";
import type { Config } from "../config/index.ts";

/** JSON logs through pino at LOG_LEVEL; credentials in headers are never written. */
export function loggerOptions(config: Config): LoggerOptions {
  return {
    level: config.logLevel,
    name: config.serviceName,
    redact: {
      paths: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
      censor: "[redacted]",
    },
  };
}
