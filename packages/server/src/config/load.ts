import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { xlmToStroops } from "@namereg/protocol";
import type { Config, ContractConfig, ContractName, Role } from "./config.ts";
import { redactUrl } from "./database-url.ts";
import {
  type CONTRACTS,
  envSchema,
  type ParsedEnv,
  type RelationProblem,
  relationProblems,
  SECRET_VARIABLES,
  URL_VARIABLES,
} from "./env-schema.ts";
import { deepFreeze } from "./freeze.ts";

export type Env = Readonly<Record<string, string | undefined>>;

export interface LoadOptions {
  /** Which command runs; decides which variables are required. Default `serve`. */
  readonly role?: Role;
  /** The command as the operator typed it, for messages (`namereg escrow watch`); default `namereg <role>`. */
  readonly command?: string;
}

export interface ConfigProblem {
  readonly variable: string;
  readonly message: string;
}

export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    const lines = problems.map((p) => `  - ${p.variable}: ${p.message}`);
    const noun = problems.length === 1 ? "problem" : "problems";
    super(
      `Invalid configuration (${problems.length} ${noun}); see docs/configuration.md:\n${lines.join("\n")}`,
    );
    this.name = "ConfigError";
    this.problems = problems;
  }
}

const REQUIRED_BY_ROLE: Readonly<Record<Role, readonly string[]>> = {
  dev: [],
  serve: [],
  migrate: [],
  // The webhook deliverer reads the database and talks to receivers, never to the chain.
  deliver: [],
  start: ["RPC_URL"],
  index: ["RPC_URL"],
};

/**
 * Reads the environment once into a deeply frozen Config. Throws ConfigError naming every bad variable.
 * The environment is only read, never changed.
 */
export function loadConfig(env: Env = process.env, options: LoadOptions = {}): Config {
  const role = options.role ?? "serve";
  const problems: ConfigProblem[] = [];

  for (const name of REQUIRED_BY_ROLE[role]) {
    if ((env[name] ?? "").trim() === "") {
      problems.push({
        variable: name,
        message: `is required for \`${options.command ?? `namereg ${role}`}\``,
      });
    }
  }

  problems.push(...relationProblems(env));
  if (options.role === "serve" || options.role === "start")
    problems.push(...servingProblems(env, options.role));
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? "environment");
      problems.push({ variable, message: withValue(issue.message, variable, env[variable]) });
    }
  }

  if (!parsed.success || problems.length > 0) {
    throw new ConfigError(problems.sort((a, b) => a.variable.localeCompare(b.variable)));
  }
  return deepFreeze(toConfig(parsed.data, role));
}

/** Host names that only make sense on the machine itself. */
const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?|[^:]*\.localhost)(:\d+)?$/i;

/**
 * A serving process outside development (`namereg serve`, `namereg start`) signs wallet sessions: without a
 * shared SESSION_SECRET every replica (and every restart) would reject the others' tokens, and SEP-10
 * challenges name HOME_DOMAIN, which wallets show and check, so "localhost" cannot be right. `namereg dev` and
 * tools that build a Config without a role are not serving anyone and may go without.
 */
function servingProblems(env: Env, role: "serve" | "start"): RelationProblem[] {
  const problems: RelationProblem[] = [];
  if ((env.SESSION_SECRET ?? "").trim() === "") {
    problems.push({
      variable: "SESSION_SECRET",
      message:
        `is required for \`namereg ${role}\`: set it to the same random string (at least 32 characters, e.g. ` +
        "`openssl rand -base64 48`) on every replica, so wallet sessions survive restarts and work on all of them",
    });
  }
  const home = (env.HOME_DOMAIN ?? "").trim();
  if (home === "" || LOCAL_HOST.test(home)) {
    problems.push({
      variable: "HOME_DOMAIN",
      message:
        `must be the public host name wallets reach this service at (e.g. names.example.com) for ` +
        `\`namereg ${role}\`${home === "" ? "" : ` (got ${JSON.stringify(home)})`}; \`namereg dev\` is the way to run without one`,
    });
  }
  // A page served over https may not call a plain-http RPC (mixed content), and a chain view anyone on the path
  // can rewrite is no check at all: outside development the public RPC is https, unless it is this machine's own.
  const publicRpc = (env.PUBLIC_RPC_URL ?? "").trim();
  if (publicRpc.startsWith("http://") && !LOCAL_HOST.test(hostOf(publicRpc))) {
    problems.push({
      variable: "PUBLIC_RPC_URL",
      message: `must be an https:// URL for \`namereg ${role}\` (got ${JSON.stringify(publicRpc)}): browsers and wallets check transactions against it`,
    });
  }
  return problems;
}

/** The host (and port) of a URL, "" when it is not one (the schema reports that). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

function withValue(message: string, variable: string, raw: string | undefined): string {
  if (raw === undefined || raw.trim() === "" || SECRET_VARIABLES.has(variable)) return message;
  const shown = URL_VARIABLES.has(variable) ? redactUrl(raw) : raw;
  const clipped = shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
  return `${message} (got ${JSON.stringify(clipped)})`;
}

function toConfig(env: ParsedEnv, role: Role): Config {
  const dataDir = resolve(env.DATA_DIR);
  const databaseUrl = env.DATABASE_URL ?? pathToFileURL(resolve(dataDir, "pglite")).href;
  const warnings: string[] = [];

  let sessionSecret = env.SESSION_SECRET;
  const generated = sessionSecret === undefined;
  if (sessionSecret === undefined) {
    sessionSecret = randomBytes(32).toString("base64url");
    // Only where sessions are served: the indexer and the operator tools never sign one, and the warning in
    // front of a tool's own output read as a problem with the tool.
    if (role !== "index" && role !== "migrate" && role !== "deliver")
      warnings.push(
        "SESSION_SECRET is unset: wallet sessions are signed with a secret made up for this process, so they end " +
          "when it stops and are not accepted by other replicas. Set SESSION_SECRET outside development.",
      );
  }

  const contract = (name: (typeof CONTRACTS)[number]): ContractConfig => ({
    id: env[`${name}_ID`] ?? null,
    startLedger: env[`${name}_START_LEDGER`] ?? null,
  });
  const contracts: Record<ContractName, ContractConfig> = {
    registry: contract("REGISTRY"),
    allocator: contract("ALLOCATOR"),
    lookup: contract("LOOKUP"),
    primary: contract("PRIMARY"),
  };

  return {
    role,
    port: env.PORT,
    host: env.HOST,
    serviceName: env.SERVICE_NAME,
    logLevel: env.LOG_LEVEL,
    dataDir,
    trustProxy: env.TRUST_PROXY ?? false,
    metricsEnabled: env.METRICS_ENABLED,
    metricsListener:
      env.METRICS_PORT === undefined ? null : { port: env.METRICS_PORT, host: env.METRICS_HOST ?? env.HOST },
    http: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: env.HTTP_MAX_CONNECTIONS,
    },
    database: {
      url: databaseUrl,
      readUrl: env.DATABASE_READ_URL ?? databaseUrl,
      readReplicaMaxLagSeconds: env.READ_REPLICA_MAX_LAG_SECONDS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      writerStallTimeoutMs: env.WRITER_STALL_TIMEOUT_MS,
      poolSize: env.DATABASE_POOL_SIZE,
    },
    redisUrl: env.REDIS_URL ?? null,
    chain: {
      rpcUrl: env.RPC_URL ?? null,
      publicRpcUrl: env.PUBLIC_RPC_URL ?? null,
      networkPassphrase: env.NETWORK_PASSPHRASE ?? null,
      contracts,
      legacyLabelsFile: env.LEGACY_LABELS_FILE === undefined ? null : resolve(env.LEGACY_LABELS_FILE),
    },
    rateLimit: {
      perMinute: env.RATE_LIMIT_PER_MINUTE,
      intentPerMinute: env.INTENT_RATE_LIMIT_PER_MINUTE,
      authPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE,
      preparePerMinute: env.PREPARE_RATE_LIMIT_PER_MINUTE,
      submitPerMinute: env.SUBMIT_RATE_LIMIT_PER_MINUTE,
      chainReadPerMinute: env.CHAIN_READ_RATE_LIMIT_PER_MINUTE,
      redisTimeoutMs: env.REDIS_TIMEOUT_MS,
    },
    stream: {
      maxPerIp: env.STREAM_MAX_PER_IP,
      heartbeatMs: env.STREAM_HEARTBEAT_MS,
    },
    changes: { retentionDays: env.CHANGE_RETENTION_DAYS, headPollMs: env.INDEXER_HEAD_POLL_MS },
    market: {
      enabled: env.MARKET_ENABLED,
      escrowAccount: env.ESCROW_ACCOUNT ?? null,
      escrowSecret: env.ESCROW_SECRET ?? null,
      feeBps: env.MARKET_FEE_BPS,
      bondBps: env.MARKET_BOND_BPS,
      bondMinXlm: env.MARKET_BOND_MIN_XLM,
      escrowStartLedger: env.ESCROW_START_LEDGER ?? null,
      escrowPollMs: env.ESCROW_POLL_MS,
    },
    billing: {
      enabled: env.BILLING_ENABLED,
      account: env.BILLING_ACCOUNT ?? null,
      graceUntil: env.BILLING_GRACE_UNTIL === undefined ? null : graceEnd(env.BILLING_GRACE_UNTIL),
      pricePerPeriod: xlmToStroops(env.BILLING_PRICE_XLM),
      startLedger: env.BILLING_START_LEDGER ?? null,
      pollMs: env.BILLING_POLL_MS,
    },
    webhooks: {
      allowHttp: env.WEBHOOK_ALLOW_HTTP,
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      maxEndpoints: env.WEBHOOK_MAX_ENDPOINTS,
      ratePerMinute: env.WEBHOOK_RATE_PER_MINUTE,
      retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE,
      disableAfterMs: env.WEBHOOK_DISABLE_AFTER,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      pollMs: env.WEBHOOK_POLL_MS,
    },
    session: { secret: sessionSecret, generated },
    homeDomain: env.HOME_DOMAIN,
    publicUrl: env.PUBLIC_URL ?? defaultPublicUrl(env.HOME_DOMAIN),
    warnings,
  };
}

/** Without PUBLIC_URL: https on the home domain, except a local one (development), which is plain http. */
export function defaultPublicUrl(homeDomain: string): string {
  const host = homeDomain.split(":", 1)[0] ?? homeDomain;
  const local = host === "localhost" || host === "127.0.0.1";
  return `${local ? "http" : "https"}://${homeDomain}`;
}

/** A bare date grants grace through the whole of that day (UTC); a date-time is the instant itself. */
function graceEnd(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    return new Date(start + 24 * 60 * 60 * 1000).toISOString();
  }
  return new Date(value).toISOString();
}
