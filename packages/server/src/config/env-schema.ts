// The environment as the operator writes it: one entry per variable, with the defaults of docs/configuration.md.
// Every variable is parsed here and nowhere else; `load.ts` turns the parsed result into the Config shape.
import { isIP } from "node:net";
import { isAccountId, isContractId } from "@namereg/protocol";
import { Keypair, StrKey } from "@stellar/stellar-sdk";
import { z } from "zod";
import { databaseUrlKind } from "./database-url.ts";
import { durationMs } from "./duration.ts";
import { trustProxy } from "./trust-proxy.ts";

/** An empty or blank variable counts as unset, as it does in most deployment tools' env files. */
function blankToUndefined(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}

function variable<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToUndefined, schema);
}

function integer(min: number, max: number) {
  return z
    .string()
    .trim()
    .regex(/^[+-]?\d+$/, { error: `must be an integer from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be an integer from ${min} to ${max}` })
        .max(max, { error: `must be an integer from ${min} to ${max}` }),
    );
}

const boolean = () =>
  z.stringbool({ truthy: ["true", "1"], falsy: ["false", "0"], error: "must be true, false, 1 or 0" });

const text = (what: string) =>
  z
    .string()
    .trim()
    .min(1, { error: `must be ${what}` });

const httpUrl = () => z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

/**
 * The service's own base URL as clients reach it (scheme, host, optional path), printed in stellar.toml. Only
 * http and https: a URL wallets follow must never carry another scheme. No query or fragment.
 */
const publicUrl = () =>
  httpUrl()
    .refine((url) => !url.includes("?") && !url.includes("#"), { error: "must not have a query or fragment" })
    .transform((url) => url.replace(/\/+$/, ""));

/**
 * The Stellar RPC the service names to wallets and to its web page (GET /v1/network), which check what they sign
 * against the chain there rather than trusting the service (docs/claims.md). A browser calls it, so no
 * credentials in it: whatever it holds every visitor reads.
 */
const publicRpcUrl = () =>
  httpUrl().refine(
    (url) => {
      const { username, password } = new URL(url);
      return username === "" && password === "";
    },
    { error: "must not carry credentials: every visitor of the web app reads it" },
  );

const redisUrl = () => z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" });

const databaseUrl = () =>
  z
    .string()
    .trim()
    .refine((url) => databaseUrlKind(url) !== null, {
      error: "must be a postgres:// or postgresql:// URL, memory://, or a file:// URL of a PGlite directory",
    });

const contractId = () =>
  z.string().trim().refine(isContractId, { error: "must be a contract ID (a C… strkey)" });

const accountId = () =>
  z.string().trim().refine(isAccountId, { error: "must be an account ID (a G… strkey)" });

const secretSeed = () =>
  z
    .string()
    .trim()
    .refine((s) => StrKey.isValidEd25519SecretSeed(s), { error: "must be a secret key (an S… strkey)" });

export { durationMs };

const duration = (min: number, max: number) =>
  z
    .string()
    .trim()
    .transform((raw, ctx) => {
      const ms = durationMs(raw);
      if (ms === null || ms < min || ms > max) {
        ctx.addIssue({
          code: "custom",
          message: `must be a duration such as 30s, 5m, 2h or 5d (${min} ms to ${max / 86_400_000} days)`,
        });
        return z.NEVER;
      }
      return ms;
    });

/** A comma-separated list of durations (a retry schedule): `5s,5m,30m,2h`. */
const durationList = (maxItems: number) =>
  z
    .string()
    .trim()
    .transform((raw, ctx) => {
      const items = raw.split(",").map((item) => durationMs(item));
      if (items.length > maxItems || items.some((ms) => ms === null || ms < 1 || ms > 7 * 86_400_000)) {
        ctx.addIssue({
          code: "custom",
          message: `must be 1 to ${maxItems} comma-separated durations such as 5s,5m,30m,2h (each at most 7d)`,
        });
        return z.NEVER;
      }
      return items as number[];
    });

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: about 27.6 hours from the first attempt to giving up. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

const LEDGER_MAX = 2 ** 32 - 1;
const ledger = () => integer(1, LEDGER_MAX);

/** A calendar date means "through the end of that day (UTC)"; a date-time with offset is taken as the instant. */
const isoDate = () =>
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: "must be an ISO 8601 date (2026-01-31) or date-time with offset (2026-01-31T12:00:00Z)",
  });

/** Whole or decimal XLM with at most 7 decimals (a stroop), more than zero. */
const xlmAmount = () =>
  z
    .string()
    .trim()
    .regex(/^\d{1,12}(\.\d{1,7})?$/, {
      error: "must be an XLM amount such as 10 or 2.5 (at most 7 decimals)",
    })
    .refine((v) => /[1-9]/.test(v), { error: "must be more than 0" });

const hostName = () =>
  z
    .string()
    .trim()
    .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i, {
      error: "must be a host name such as example.com (no scheme, no path)",
    });

/** What the API binds to: an IP address or a host name (checked here, not first at listen). */
const listenHost = () =>
  z
    .string()
    .trim()
    .refine((v) => isIP(v) !== 0 || /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(v), {
      error: "must be an IP address (127.0.0.1, 0.0.0.0, ::) or a host name",
    });

export const CONTRACTS = ["REGISTRY", "ALLOCATOR", "LOOKUP", "PRIMARY"] as const;

/** Variables whose values are never echoed in errors nor logged. */
export const SECRET_VARIABLES: ReadonlySet<string> = new Set(["ESCROW_SECRET", "SESSION_SECRET"]);

/** Variables that may embed credentials in a URL; their passwords are masked wherever they are shown. */
export const URL_VARIABLES: ReadonlySet<string> = new Set(["DATABASE_URL", "DATABASE_READ_URL", "REDIS_URL"]);

const envShape = {
  PORT: variable(integer(0, 65535).default(8080)),
  HOST: variable(listenHost().default("127.0.0.1")),
  SERVICE_NAME: variable(
    text("a non-empty name").max(64, { error: "must be at most 64 characters" }).default("namereg"),
  ),
  LOG_LEVEL: variable(
    z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
        error: "must be one of fatal, error, warn, info, debug, trace, silent",
      })
      .default("info"),
  ),
  DATA_DIR: variable(text("a directory path").default("./data")),
  TRUST_PROXY: variable(trustProxy().optional()),
  METRICS_ENABLED: variable(boolean().default(true)),
  METRICS_PORT: variable(integer(1, 65535).optional()),
  METRICS_HOST: variable(listenHost().optional()),
  HTTP_REQUEST_TIMEOUT_MS: variable(integer(1000, 600_000).default(30_000)),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: variable(integer(1000, 600_000).default(5_000)),
  HTTP_MAX_CONNECTIONS: variable(integer(1, 1_000_000).default(10_000)),
  DATABASE_STATEMENT_TIMEOUT_MS: variable(integer(100, 600_000).default(5_000)),
  WRITER_STALL_TIMEOUT_MS: variable(integer(1000, 600_000).default(10_000)),
  DATABASE_POOL_SIZE: variable(integer(1, 1000).default(10)),
  DATABASE_URL: variable(databaseUrl().optional()),
  DATABASE_READ_URL: variable(databaseUrl().optional()),
  READ_REPLICA_MAX_LAG_SECONDS: variable(integer(1, 86_400).default(30)),
  REDIS_URL: variable(redisUrl().optional()),
  REDIS_TIMEOUT_MS: variable(integer(5, 5000).default(50)),
  RPC_URL: variable(httpUrl().optional()),
  PUBLIC_RPC_URL: variable(publicRpcUrl().optional()),
  NETWORK_PASSPHRASE: variable(text("a network passphrase").optional()),
  REGISTRY_ID: variable(contractId().optional()),
  ALLOCATOR_ID: variable(contractId().optional()),
  LOOKUP_ID: variable(contractId().optional()),
  PRIMARY_ID: variable(contractId().optional()),
  REGISTRY_START_LEDGER: variable(ledger().optional()),
  LEGACY_LABELS_FILE: variable(text("a file path").optional()),
  ALLOCATOR_START_LEDGER: variable(ledger().optional()),
  LOOKUP_START_LEDGER: variable(ledger().optional()),
  PRIMARY_START_LEDGER: variable(ledger().optional()),
  // Up to well above what one process can answer in a minute (~4M at 60k/s): a client behind one address (a proxy
  // not in TRUST_PROXY, a load test) must be able to run unlimited in effect.
  RATE_LIMIT_PER_MINUTE: variable(integer(1, 1_000_000_000).default(600)),
  INTENT_RATE_LIMIT_PER_MINUTE: variable(integer(1, 1_000_000).default(10)),
  AUTH_RATE_LIMIT_PER_MINUTE: variable(integer(1, 1_000_000).default(30)),
  PREPARE_RATE_LIMIT_PER_MINUTE: variable(integer(1, 1_000_000).default(60)),
  SUBMIT_RATE_LIMIT_PER_MINUTE: variable(integer(1, 1_000_000).default(30)),
  CHAIN_READ_RATE_LIMIT_PER_MINUTE: variable(integer(1, 1_000_000).default(120)),
  STREAM_MAX_PER_IP: variable(integer(1, 100_000).default(10)),
  STREAM_HEARTBEAT_MS: variable(integer(100, 600_000).default(15_000)),
  CHANGE_RETENTION_DAYS: variable(integer(1, 3650).default(7)),
  INDEXER_HEAD_POLL_MS: variable(integer(0, 60_000).default(200)),
  MARKET_ENABLED: variable(boolean().default(false)),
  ESCROW_ACCOUNT: variable(accountId().optional()),
  ESCROW_SECRET: variable(secretSeed().optional()),
  MARKET_FEE_BPS: variable(integer(0, 10_000).default(250)),
  MARKET_BOND_BPS: variable(integer(0, 10_000).default(1000)),
  MARKET_BOND_MIN_XLM: variable(integer(0, 1_000_000_000).default(10)),
  ESCROW_START_LEDGER: variable(ledger().optional()),
  ESCROW_POLL_MS: variable(integer(10, 600_000).default(2000)),
  BILLING_ENABLED: variable(boolean().default(false)),
  BILLING_ACCOUNT: variable(accountId().optional()),
  BILLING_GRACE_UNTIL: variable(isoDate().optional()),
  BILLING_PRICE_XLM: variable(xlmAmount().default("10")),
  BILLING_START_LEDGER: variable(ledger().optional()),
  BILLING_POLL_MS: variable(integer(10, 600_000).default(5000)),
  WEBHOOK_ALLOW_HTTP: variable(boolean().default(false)),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: variable(boolean().default(false)),
  WEBHOOK_MAX_ENDPOINTS: variable(integer(1, 1000).default(10)),
  WEBHOOK_RATE_PER_MINUTE: variable(integer(1, 1_000_000).default(600)),
  WEBHOOK_RETRY_SCHEDULE: variable(durationList(20).default([...DEFAULT_RETRY_SCHEDULE_MS])),
  WEBHOOK_DISABLE_AFTER: variable(duration(1000, 365 * 86_400_000).default(5 * 86_400_000)),
  WEBHOOK_TIMEOUT_MS: variable(integer(100, 60_000).default(15_000)),
  WEBHOOK_POLL_MS: variable(integer(10, 600_000).default(500)),
  SESSION_SECRET: variable(
    z.string().min(32, { error: "must be at least 32 characters (use a random string)" }).optional(),
  ),
  HOME_DOMAIN: variable(hostName().default("localhost")),
  PUBLIC_URL: variable(publicUrl().optional()),
};

export const envSchema = z.object(envShape);

export type ParsedEnv = z.output<typeof envSchema>;

export interface RelationProblem {
  readonly variable: string;
  readonly message: string;
}

const INVALID = Symbol("invalid");

/**
 * Problems between variables. Each variable is parsed on its own here so these are found even while other
 * variables are bad, and a variable that is itself invalid (already reported) takes part in no check.
 */
export function relationProblems(raw: Readonly<Record<string, string | undefined>>): RelationProblem[] {
  type Shape = typeof envShape;
  const value = <K extends keyof Shape>(name: K): z.output<Shape[K]> | typeof INVALID => {
    const parsed = envShape[name].safeParse(raw[name]);
    // TypeScript cannot narrow the union of all fields' outputs to field K's.
    return parsed.success ? (parsed.data as z.output<Shape[K]>) : INVALID;
  };
  const problems: RelationProblem[] = [];
  const problem = (variable: string, message: string) => problems.push({ variable, message });

  const readUrl = value("DATABASE_READ_URL");
  const writeUrl = value("DATABASE_URL");
  if (typeof readUrl === "string") {
    if (databaseUrlKind(readUrl) !== "postgres") {
      problem("DATABASE_READ_URL", "must be a postgres:// or postgresql:// URL");
    } else if (
      writeUrl === undefined ||
      (typeof writeUrl === "string" && databaseUrlKind(writeUrl) !== "postgres")
    ) {
      problem("DATABASE_READ_URL", "needs DATABASE_URL to be a PostgreSQL URL as well");
    }
  }

  for (const contract of CONTRACTS) {
    if (value(`${contract}_START_LEDGER`) !== undefined && value(`${contract}_ID`) === undefined) {
      problem(`${contract}_START_LEDGER`, `is set but ${contract}_ID is not`);
    }
  }

  const escrowAccount = value("ESCROW_ACCOUNT");
  const escrowSecret = value("ESCROW_SECRET");
  if (value("MARKET_ENABLED") === true) {
    if (escrowAccount === undefined) problem("ESCROW_ACCOUNT", "is required when MARKET_ENABLED is true");
    if (escrowSecret === undefined) problem("ESCROW_SECRET", "is required when MARKET_ENABLED is true");
  }
  if (
    typeof escrowAccount === "string" &&
    typeof escrowSecret === "string" &&
    Keypair.fromSecret(escrowSecret).publicKey() !== escrowAccount
  ) {
    problem("ESCROW_SECRET", "is not the secret key of ESCROW_ACCOUNT");
  }

  if (value("BILLING_ENABLED") === true && value("BILLING_ACCOUNT") === undefined) {
    problem("BILLING_ACCOUNT", "is required when BILLING_ENABLED is true");
  }
  return problems;
}
