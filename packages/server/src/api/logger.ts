import type { FastifyServerOptions } from "fastify";
import type { Config } from "../config/index.ts";

/** JSON logs through pino at LOG_LEVEL; credentials in headers are never written. */
export function loggerOptions(config: Config): NonNullable<FastifyServerOptions["logger"]> {
  return {
    level: config.logLevel,
    name: config.serviceName,
    redact: {
      paths: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
      censor: "[redacted]",
    },
  };
}
