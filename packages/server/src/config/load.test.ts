import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Keypair, StrKey } from "@stellar/stellar-sdk";
import { describe, expect, it } from "vitest";
import { describeConfig, REDACTED } from "./describe.ts";
import { loadConfigOrExit } from "./exit.ts";
import { ConfigError, type Env, loadConfig } from "./load.ts";

const CONTRACT = StrKey.encodeContract(Buffer.alloc(32, 7));
const escrow = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1));
const other = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2));

function problemsOf(env: Env, role?: "serve" | "index" | "start"): Record<string, string> {
  try {
    loadConfig(env, role === undefined ? {} : { role });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return Object.fromEntries(error.problems.map((p) => [p.variable, p.message]));
  }
  throw new Error("expected a ConfigError");
}

describe("loadConfig defaults", () => {
  const config = loadConfig({});

  it("fills every default of docs/configuration.md", () => {
    expect(config).toMatchObject({
      role: "serve",
      port: 8080,
      host: "127.0.0.1",
      serviceName: "namereg",
      logLevel: "info",
      dataDir: resolve("./data"),
      trustProxy: false,
      metricsEnabled: true,
      metricsListener: null,
      http: { requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 10_000 },
      redisUrl: null,
      chain: { rpcUrl: null, publicRpcUrl: null, networkPassphrase: null },
      rateLimit: { perMinute: 600, intentPerMinute: 10 },
      stream: { maxPerIp: 10, heartbeatMs: 15_000 },
      changes: { retentionDays: 7 },
      market: {
        enabled: false,
        escrowAccount: null,
        escrowSecret: null,
        feeBps: 250,
        bondBps: 1000,
        bondMinXlm: 10,
        escrowStartLedger: null,
        escrowPollMs: 2000,
      },
      billing: {
        enabled: false,
        account: null,
        graceUntil: null,
        pricePerPeriod: 100_000_000n,
        startLedger: null,
        pollMs: 5000,
      },
      homeDomain: "localhost",
    });
    for (const name of ["registry", "allocator", "lookup", "primary"] as const) {
      expect(config.chain.contracts[name]).toEqual({ id: null, startLedger: null });
    }
  });

  it("puts an embedded PGlite database in DATA_DIR/pglite and reads from it too", () => {
    const url = pathToFileURL(resolve("./data/pglite")).href;
    expect(config.database).toEqual({
      url,
      readUrl: url,
      readReplicaMaxLagSeconds: 30,
      statementTimeoutMs: 5000,
      writerStallTimeoutMs: 10_000,
      poolSize: 10,
    });
    const elsewhere = loadConfig({ DATA_DIR: "/srv/namereg" });
    expect(elsewhere.database.url).toBe("file:///srv/namereg/pglite");
  });

  it("makes up a session secret with a warning when SESSION_SECRET is unset", () => {
    expect(config.session.generated).toBe(true);
    expect(config.session.secret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}).session.secret).not.toBe(config.session.secret);
    expect(config.warnings.join(" ")).toMatch(/SESSION_SECRET/);
    // The indexer and the operator tools sign no session: nothing to warn about there.
    expect(loadConfig({}, { role: "migrate" }).warnings).toEqual([]);
    expect(loadConfig({}, { role: "dev" }).warnings.join(" ")).toMatch(/SESSION_SECRET/);
  });

  it("treats blank variables as unset", () => {
    const blank = loadConfig({ PORT: "", MARKET_FEE_BPS: "  ", REDIS_URL: "" });
    expect(blank.port).toBe(8080);
    expect(blank.market.feeBps).toBe(250);
    expect(blank.redisUrl).toBeNull();
  });
});

describe("loadConfig values", () => {
  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "9000",
      HOST: "0.0.0.0",
      SERVICE_NAME: "acme-names",
      LOG_LEVEL: "debug",
      TRUST_PROXY: "10.0.0.0/8, 127.0.0.1",
      DATABASE_URL: "postgres://app@db:5432/namereg",
      DATABASE_READ_URL: "postgresql://app@replica:5432/namereg",
      READ_REPLICA_MAX_LAG_SECONDS: "5",
      REDIS_URL: "redis://cache:6379/0",
      RPC_URL: "http://127.0.0.1:8000/rpc",
      NETWORK_PASSPHRASE: "Standalone Network ; February 2017",
      REGISTRY_ID: CONTRACT,
      REGISTRY_START_LEDGER: "12",
      RATE_LIMIT_PER_MINUTE: "1200",
      INTENT_RATE_LIMIT_PER_MINUTE: "5",
      MARKET_ENABLED: "1",
      ESCROW_ACCOUNT: escrow.publicKey(),
      ESCROW_SECRET: escrow.secret(),
      MARKET_FEE_BPS: "0",
      BILLING_ENABLED: "TRUE",
      BILLING_ACCOUNT: other.publicKey(),
      BILLING_GRACE_UNTIL: "2026-01-31",
      BILLING_PRICE_XLM: "2.5",
      BILLING_START_LEDGER: "40",
      BILLING_POLL_MS: "1000",
      SESSION_SECRET: "x".repeat(32),
      HOME_DOMAIN: "names.example.com",
    });
    expect(config).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      serviceName: "acme-names",
      logLevel: "debug",
      trustProxy: ["10.0.0.0/8", "127.0.0.1"],
      database: {
        url: "postgres://app@db:5432/namereg",
        readUrl: "postgresql://app@replica:5432/namereg",
        readReplicaMaxLagSeconds: 5,
      },
      redisUrl: "redis://cache:6379/0",
      chain: { rpcUrl: "http://127.0.0.1:8000/rpc", networkPassphrase: "Standalone Network ; February 2017" },
      rateLimit: { perMinute: 1200, intentPerMinute: 5 },
      market: {
        enabled: true,
        escrowAccount: escrow.publicKey(),
        escrowSecret: escrow.secret(),
        feeBps: 0,
        bondBps: 1000,
        bondMinXlm: 10,
        escrowStartLedger: null,
        escrowPollMs: 2000,
      },
      billing: {
        enabled: true,
        account: other.publicKey(),
        graceUntil: "2026-02-01T00:00:00.000Z",
        pricePerPeriod: 25_000_000n,
        startLedger: 40,
        pollMs: 1000,
      },
      session: { secret: "x".repeat(32), generated: false },
      homeDomain: "names.example.com",
      warnings: [],
    });
    expect(config.chain.contracts.registry).toEqual({ id: CONTRACT, startLedger: 12 });
  });

  it("takes memory:// and file:// database URLs, and a date-time grace end as the instant", () => {
    expect(loadConfig({ DATABASE_URL: "memory://" }).database).toEqual({
      url: "memory://",
      readUrl: "memory://",
      readReplicaMaxLagSeconds: 30,
      statementTimeoutMs: 5000,
      writerStallTimeoutMs: 10_000,
      poolSize: 10,
    });
    expect(loadConfig({ DATABASE_URL: "file:///var/lib/nr" }).database.url).toBe("file:///var/lib/nr");
    expect(loadConfig({ BILLING_GRACE_UNTIL: "2026-03-01T10:00:00+02:00" }).billing.graceUntil).toBe(
      "2026-03-01T08:00:00.000Z",
    );
  });

  it("reads METRICS_PORT (on HOST unless METRICS_HOST) and DATABASE_POOL_SIZE", () => {
    expect(loadConfig({ METRICS_PORT: "9464" }).metricsListener).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(
      loadConfig({ METRICS_PORT: "9464", HOST: "0.0.0.0", METRICS_HOST: "10.0.0.5" }).metricsListener,
    ).toEqual({ port: 9464, host: "10.0.0.5" });
    expect(loadConfig({ DATABASE_POOL_SIZE: "3" }).database.poolSize).toBe(3);
    expect(problemsOf({ METRICS_PORT: "0", DATABASE_POOL_SIZE: "0" })).toEqual({
      METRICS_PORT: 'must be an integer from 1 to 65535 (got "0")',
      DATABASE_POOL_SIZE: 'must be an integer from 1 to 1000 (got "0")',
    });
  });

  it("reads TRUST_PROXY as false, a hop count or a list", () => {
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    // One hop, not "trust everything": X-Forwarded-For must not pick the address the limit counts.
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
  });
});

describe("loadConfig validation", () => {
  it.each([
    ["PORT", "http", /integer from 0 to 65535/],
    ["PORT", "70000", /integer from 0 to 65535/],
    ["PORT", "80.5", /integer/],
    ["SERVICE_NAME", "n".repeat(65), /at most 64/],
    ["LOG_LEVEL", "verbose", /one of fatal, error/],
    ["HOST", "not_a_host!", /IP address/],
    ["TRUST_PROXY", "proxy.example", /hop count/],
    // Every hop trusted: any client could pick the address the per-IP limits count with X-Forwarded-For.
    ["TRUST_PROXY", "true", /must not be true.*number of proxies in front/],
    ["TRUST_PROXY", "TRUE", /must not be true/],
    ["DATABASE_URL", "mysql://db/x", /postgres/],
    ["DATABASE_URL", "./data/pg", /file:\/\//],
    ["REDIS_URL", "http://cache", /redis:\/\//],
    ["RPC_URL", "ws://rpc", /http/],
    ["RPC_URL", "not a url", /http/],
    ["REGISTRY_ID", "GABC", /contract ID/],
    ["ALLOCATOR_ID", escrow.publicKey(), /contract ID/],
    ["LOOKUP_ID", "C123", /contract ID/],
    ["PRIMARY_ID", CONTRACT.toLowerCase(), /contract ID/],
    ["RATE_LIMIT_PER_MINUTE", "0", /integer from 1/],
    ["INTENT_RATE_LIMIT_PER_MINUTE", "-1", /integer from 1/],
    ["READ_REPLICA_MAX_LAG_SECONDS", "0", /integer from 1 to 86400/],
    ["MARKET_ENABLED", "yes", /true, false, 1 or 0/],
    ["BILLING_ENABLED", "on", /true, false, 1 or 0/],
    ["ESCROW_ACCOUNT", CONTRACT, /account ID/],
    ["BILLING_ACCOUNT", "G", /account ID/],
    ["ESCROW_SECRET", escrow.publicKey(), /secret key/],
    ["MARKET_FEE_BPS", "10001", /0 to 10000/],
    ["MARKET_FEE_BPS", "2.5", /integer/],
    ["BILLING_GRACE_UNTIL", "31/01/2026", /ISO 8601/],
    ["BILLING_GRACE_UNTIL", "2026-02-30", /ISO 8601/],
    ["BILLING_PRICE_XLM", "0", /more than 0/],
    ["BILLING_PRICE_XLM", "1.12345678", /at most 7 decimals/],
    ["BILLING_PRICE_XLM", "-3", /XLM amount/],
    ["SESSION_SECRET", "short", /at least 32/],
    ["HOME_DOMAIN", "https://names.example.com", /host name/],
    ["PUBLIC_RPC_URL", "wss://rpc.example", /http:\/\/ or https:\/\/ URL/],
    ["PUBLIC_RPC_URL", "https://user:key@rpc.example", /must not carry credentials/],
  ])("rejects %s=%j", (variable, value, message) => {
    const problems = problemsOf({ [variable]: value });
    expect(Object.keys(problems)).toEqual([variable]);
    expect(problems[variable]).toMatch(message);
  });

  it.each(["REGISTRY", "ALLOCATOR", "LOOKUP", "PRIMARY"])(
    "rejects %s_START_LEDGER that is not positive",
    (c) => {
      const problems = problemsOf({ [`${c}_ID`]: CONTRACT, [`${c}_START_LEDGER`]: "0" });
      expect(problems[`${c}_START_LEDGER`]).toMatch(/integer from 1/);
    },
  );

  it("rejects a start ledger without its contract", () => {
    expect(problemsOf({ LOOKUP_START_LEDGER: "5" })).toEqual({
      LOOKUP_START_LEDGER: "is set but LOOKUP_ID is not",
    });
  });

  it("rejects a read replica unless both URLs are PostgreSQL", () => {
    expect(problemsOf({ DATABASE_READ_URL: "postgres://replica/x" })).toEqual({
      DATABASE_READ_URL: "needs DATABASE_URL to be a PostgreSQL URL as well",
    });
    expect(problemsOf({ DATABASE_URL: "postgres://db/x", DATABASE_READ_URL: "memory://" })).toEqual({
      DATABASE_READ_URL: "must be a postgres:// or postgresql:// URL",
    });
  });

  it("requires the escrow keys, matching each other, when the marketplace is on", () => {
    expect(Object.keys(problemsOf({ MARKET_ENABLED: "true" }))).toEqual(["ESCROW_ACCOUNT", "ESCROW_SECRET"]);
    expect(
      problemsOf({
        MARKET_ENABLED: "true",
        ESCROW_ACCOUNT: other.publicKey(),
        ESCROW_SECRET: escrow.secret(),
      }),
    ).toEqual({ ESCROW_SECRET: "is not the secret key of ESCROW_ACCOUNT" });
  });

  it("reports problems between variables while other variables are bad too", () => {
    expect(
      problemsOf({ PORT: "x", BILLING_ENABLED: "1", MARKET_ENABLED: "true", ESCROW_ACCOUNT: "bad" }),
    ).toEqual({
      PORT: 'must be an integer from 0 to 65535 (got "x")',
      BILLING_ACCOUNT: "is required when BILLING_ENABLED is true",
      ESCROW_ACCOUNT: 'must be an account ID (a G… strkey) (got "bad")',
      ESCROW_SECRET: "is required when MARKET_ENABLED is true",
    });
  });

  it("requires the billing account when billing is on", () => {
    expect(problemsOf({ BILLING_ENABLED: "1" })).toEqual({
      BILLING_ACCOUNT: "is required when BILLING_ENABLED is true",
    });
  });

  it("requires RPC_URL for the indexer and start, not for serve", () => {
    const serving = { SESSION_SECRET: "s".repeat(32), HOME_DOMAIN: "names.example.com" };
    expect(problemsOf({}, "index")).toEqual({ RPC_URL: "is required for `namereg index`" });
    expect(problemsOf(serving, "start")).toEqual({ RPC_URL: "is required for `namereg start`" });
    expect(() => loadConfig(serving, { role: "serve" })).not.toThrow();
    expect(loadConfig({ RPC_URL: "https://rpc.example" }, { role: "index" }).chain.rpcUrl).toBe(
      "https://rpc.example",
    );
  });

  it("refuses serve and start without SESSION_SECRET and a public HOME_DOMAIN, saying what to set", () => {
    for (const role of ["serve", "start"] as const) {
      const problems = problemsOf({ RPC_URL: "https://rpc.example" }, role);
      expect(Object.keys(problems)).toEqual(["HOME_DOMAIN", "SESSION_SECRET"]);
      expect(problems.SESSION_SECRET).toMatch(new RegExp(`^is required for \`namereg ${role}\`: set it to`));
      expect(problems.HOME_DOMAIN).toMatch(/^must be the public host name wallets reach this service at/);
    }
    for (const local of ["localhost", "127.0.0.1:8080", "api.localhost", "::1"]) {
      expect(problemsOf({ SESSION_SECRET: "s".repeat(32), HOME_DOMAIN: local }, "serve")).toHaveProperty(
        "HOME_DOMAIN",
      );
    }
    // Development and role-less tools are not serving anyone.
    expect(() => loadConfig({})).not.toThrow();
    expect(() => loadConfig({}, { role: "dev" })).not.toThrow();
  });

  it("takes a public RPC for wallets, https when serving unless it is this machine's own", () => {
    const serving = { SESSION_SECRET: "s".repeat(32), HOME_DOMAIN: "names.example.com" };
    const url = "https://soroban-testnet.stellar.org";
    expect(loadConfig({ ...serving, PUBLIC_RPC_URL: url }, { role: "serve" }).chain.publicRpcUrl).toBe(url);
    expect(problemsOf({ ...serving, PUBLIC_RPC_URL: "http://rpc.example:8000" }, "serve")).toEqual({
      PUBLIC_RPC_URL:
        'must be an https:// URL for `namereg serve` (got "http://rpc.example:8000"): browsers and wallets check transactions against it',
    });
    const local = "http://127.0.0.1:8000";
    expect(loadConfig({ ...serving, PUBLIC_RPC_URL: local }, { role: "serve" }).chain.publicRpcUrl).toBe(
      local,
    );
    expect(loadConfig({ PUBLIC_RPC_URL: "http://devnet:8000" }, { role: "dev" }).chain.publicRpcUrl).toBe(
      "http://devnet:8000",
    );
  });

  it("lists every bad variable at once, in one human message", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "x", LOG_LEVEL: "loud", MARKET_FEE_BPS: "-5" }, { role: "index" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      [
        "Invalid configuration (4 problems); see docs/configuration.md:",
        '  - LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        '  - MARKET_FEE_BPS: must be an integer from 0 to 10000 (got "-5")',
        '  - PORT: must be an integer from 0 to 65535 (got "x")',
        "  - RPC_URL: is required for `namereg index`",
      ].join("\n"),
    );
  });

  it("never echoes secrets, and masks passwords in URLs", () => {
    const message = (env: Env) => {
      try {
        loadConfig(env);
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    };
    expect(message({ SESSION_SECRET: "hunter2" })).not.toContain("hunter2");
    expect(message({ ESCROW_SECRET: "SBADSECRETVALUE" })).not.toContain("SBADSECRETVALUE");
    const url = message({ DATABASE_URL: "mysql://app:pa55word@db/x" });
    expect(url).toContain("mysql://app:***@db/x");
    expect(url).not.toContain("pa55word");
  });
});

describe("the loaded configuration", () => {
  it("is deeply frozen", () => {
    const config = loadConfig({ TRUST_PROXY: "127.0.0.1" });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.chain.contracts.registry)).toBe(true);
    expect(Object.isFrozen(config.trustProxy)).toBe(true);
    expect(Object.isFrozen(config.warnings)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.market as { feeBps: number }).feeBps = 1;
    }).toThrow(TypeError);
  });

  it("does not change the environment it was given", () => {
    const env = Object.freeze({ PORT: "81" });
    expect(loadConfig(env).port).toBe(81);
  });
});

describe("describeConfig", () => {
  it("redacts secrets and URL passwords for startup logs", () => {
    const config = loadConfig({
      MARKET_ENABLED: "true",
      ESCROW_ACCOUNT: escrow.publicKey(),
      ESCROW_SECRET: escrow.secret(),
      SESSION_SECRET: "s".repeat(40),
      DATABASE_URL: "postgres://app:dbpass@db/namereg",
      DATABASE_READ_URL: "postgres://app:dbpass@replica/namereg?sslmode=require",
      REDIS_URL: "redis://:redispass@cache:6379",
    });
    const described = describeConfig(config);
    const text = JSON.stringify(described);
    for (const secret of [escrow.secret(), "s".repeat(40), "dbpass", "redispass"]) {
      expect(text).not.toContain(secret);
    }
    expect(described).toMatchObject({
      database: {
        url: "postgres://app:***@db/namereg",
        readUrl: "postgres://app:***@replica/namereg?sslmode=require",
      },
      redisUrl: "redis://:***@cache:6379",
      market: { escrowAccount: escrow.publicKey(), escrowSecret: REDACTED },
      session: { secret: REDACTED, generated: false },
      port: 8080,
    });
  });

  it("keeps an unset secret visible as null", () => {
    expect(describeConfig(loadConfig({})).market).toMatchObject({ escrowSecret: null });
  });
});

describe("loadConfigOrExit", () => {
  it("prints the problems and exits with code 1", () => {
    const written: string[] = [];
    const codes: number[] = [];
    const io = { write: (t: string) => written.push(t), exit: (c: number) => codes.push(c) };
    expect(() => loadConfigOrExit({ PORT: "x" }, {}, io)).toThrow(ConfigError);
    expect(codes).toEqual([1]);
    expect(written.join("")).toMatch(/^Invalid configuration \(1 problem\).*\n {2}- PORT: /);
  });

  it("returns the configuration when it is valid", () => {
    const io = { write: () => {}, exit: () => expect.unreachable() };
    expect(loadConfigOrExit({ PORT: "81" }, {}, io).port).toBe(81);
  });
});

describe("webhook settings", () => {
  it("defaults to https public targets, 10 endpoints, 600 attempts a minute and the documented schedule", () => {
    expect(loadConfig({}).webhooks).toEqual({
      allowHttp: false,
      allowPrivateTargets: false,
      maxEndpoints: 10,
      ratePerMinute: 600,
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      disableAfterMs: 5 * 86_400_000,
      timeoutMs: 15_000,
      pollMs: 500,
    });
  });

  it("reads durations with their units and refuses what is not one", () => {
    const config = loadConfig({
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
      WEBHOOK_RETRY_SCHEDULE: "50ms, 1s,2m",
      WEBHOOK_DISABLE_AFTER: "3h",
      WEBHOOK_MAX_ENDPOINTS: "3",
    });
    expect(config.webhooks).toMatchObject({
      allowHttp: true,
      allowPrivateTargets: true,
      retryScheduleMs: [50, 1000, 120_000],
      disableAfterMs: 3 * 3_600_000,
      maxEndpoints: 3,
    });
    expect(problemsOf({ WEBHOOK_RETRY_SCHEDULE: "5s,soon", WEBHOOK_DISABLE_AFTER: "5 days" })).toEqual({
      WEBHOOK_RETRY_SCHEDULE: expect.stringMatching(/^must be 1 to 20 comma-separated durations/),
      WEBHOOK_DISABLE_AFTER: expect.stringMatching(/^must be a duration such as 30s/),
    });
  });
});
