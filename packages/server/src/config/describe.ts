import { stroopsToXlm } from "@namereg/protocol";
import type { Config } from "./config.ts";
import { redactUrl } from "./database-url.ts";

export const REDACTED = "[redacted]";

/**
 * The configuration as it may be logged at startup: secrets replaced, passwords in URLs masked. Unset secrets stay
 * null so an operator can still see whether one was given.
 */
export function describeConfig(config: Config): Record<string, unknown> {
  const secret = (value: string | null) => (value === null ? null : REDACTED);
  return {
    ...config,
    database: { url: redactUrl(config.database.url), readUrl: redactUrl(config.database.readUrl) },
    redisUrl: config.redisUrl === null ? null : redactUrl(config.redisUrl),
    market: { ...config.market, escrowSecret: secret(config.market.escrowSecret) },
    session: { ...config.session, secret: REDACTED },
    // A bigint does not survive JSON; the operator wrote XLM anyway.
    billing: { ...config.billing, pricePerPeriod: `${stroopsToXlm(config.billing.pricePerPeriod)} XLM` },
  };
}
