// The shape every module receives. Unset optional values are `null` so the shape is the same in every deployment.

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/** The `namereg` command a configuration is loaded for; it decides which variables are required. */
export type Role = "dev" | "start" | "serve" | "index" | "migrate" | "deliver";

export type ContractName = "registry" | "allocator" | "lookup" | "primary";

export interface ContractConfig {
  readonly id: string | null;
  /** The ledger the contract was deployed in, where the indexer starts; null: the oldest the RPC retains. */
  readonly startLedger: number | null;
}

export interface Config {
  readonly role: Role;
  readonly port: number;
  readonly host: string;
  readonly serviceName: string;
  readonly logLevel: LogLevel;
  /** Absolute. */
  readonly dataDir: string;
  readonly trustProxy: false | number | readonly string[];
  /** GET /metrics (Prometheus text). */
  readonly metricsEnabled: boolean;
  /**
   * METRICS_PORT: a listener of its own serving `/health` and `/metrics` (every long-running process); with it the
   * API no longer serves `/metrics` on its public port. Null: none (the API serves `/metrics` as before).
   */
  readonly metricsListener: { readonly port: number; readonly host: string } | null;
  readonly http: {
    /** A request (headers and body) must arrive within this; a slow client gets 408 and is closed. */
    readonly requestTimeoutMs: number;
    /** An idle kept-alive connection is closed after this. */
    readonly keepAliveTimeoutMs: number;
    /** Open connections beyond this are refused at accept. */
    readonly maxConnections: number;
  };
  readonly database: {
    /** `postgres://…`, `memory://`, or `file://…` (PGlite directory; default `DATA_DIR/pglite`). */
    readonly url: string;
    /** Equal to `url` unless a read replica is configured. */
    readonly readUrl: string;
    /** `/v1/status` reports the read replica `degraded` while it is further behind than this (seconds). */
    readonly readReplicaMaxLagSeconds: number;
    /** PostgreSQL: no statement runs longer; a stuck database fails fast (503) instead of holding requests. */
    readonly statementTimeoutMs: number;
    /**
     * PostgreSQL: longest the writer (`index`, `start`) may stop talking to the database — frozen, paused, cut
     * off — before it loses the writer lock and its open batch, so a standby takes over (docs/operations.md).
     */
    readonly writerStallTimeoutMs: number;
    /** PostgreSQL: most connections each pool (the writer's, the replica's) opens (DATABASE_POOL_SIZE). */
    readonly poolSize: number;
  };
  readonly redisUrl: string | null;
  readonly chain: {
    readonly rpcUrl: string | null;
    /**
     * The Stellar RPC named to wallets and the web page (GET /v1/network) for their own checks of what they sign;
     * null: none, and the page does not announce claims (docs/claims.md).
     */
    readonly publicRpcUrl: string | null;
    readonly networkPassphrase: string | null;
    readonly contracts: Readonly<Record<ContractName, ContractConfig>>;
    /**
     * Absolute path of the discovery file naming hash-only legacy allocations (docs/operations.md "The indexer"); every entry is
     * verified by hashing before use. Null: none.
     */
    readonly legacyLabelsFile: string | null;
  };
  readonly rateLimit: {
    readonly perMinute: number;
    readonly intentPerMinute: number;
    /** SEP-10 challenges and tokens (GET/POST /auth) per IP. */
    readonly authPerMinute: number;
    /** Every prepare route per IP (each is a simulation on the RPC). */
    readonly preparePerMinute: number;
    /** Every submit route per IP (each is a send to the network). */
    readonly submitPerMinute: number;
    /** Every public GET that reads contract state live per IP (each is one or more simulations on the RPC). */
    readonly chainReadPerMinute: number;
    /** Longest a Redis call of the limits may take before this process counts alone (docs/api.md "Rate limits"). */
    readonly redisTimeoutMs: number;
  };
  /** GET /v1/stream (docs/api.md "GET /v1/stream"). */
  readonly stream: {
    /** Open streams per client IP; one more is answered 429 rate_limited. */
    readonly maxPerIp: number;
    /** A comment line goes out this often on an idle stream, so proxies keep it open. */
    readonly heartbeatMs: number;
  };
  /** The change outbox behind the stream and the webhooks (docs/webhooks.md). */
  readonly changes: {
    /** Changes older than this are pruned by the indexer; a resume from before them is reset. */
    readonly retentionDays: number;
    /**
     * How often the idle indexer asks the RPC whether a new ledger closed (INDEXER_HEAD_POLL_MS; 0: only the
     * 1 s idle pass), so a change reaches the mirror and the stream within a fraction of a second of its ledger.
     */
    readonly headPollMs: number;
  };
  readonly market: {
    readonly enabled: boolean;
    readonly escrowAccount: string | null;
    readonly escrowSecret: string | null;
    readonly feeBps: number;
    /** Seller bond: `bondBps` of the price, at least `bondMinXlm` whole XLM (docs/market.md). */
    readonly bondBps: number;
    readonly bondMinXlm: number;
    /** First ledger the escrow watcher pages from on its first run; null: the chain head at that moment. */
    readonly escrowStartLedger: number | null;
    /** Pause between escrow watcher passes. */
    readonly escrowPollMs: number;
  };
  readonly billing: {
    readonly enabled: boolean;
    readonly account: string | null;
    /** ISO instant; enforcement applies from this instant on. Null: no grace period. */
    readonly graceUntil: string | null;
    /** Price of one 30-day period in stroops (BILLING_PRICE_XLM). */
    readonly pricePerPeriod: bigint;
    /** First ledger the billing watcher pages from on its first run; null: the chain head at that moment. */
    readonly startLedger: number | null;
    /** Pause between billing watcher passes. */
    readonly pollMs: number;
  };
  /** Hosted webhooks (docs/webhooks.md): who may be a target, the caps, and the deliverer's schedule. */
  readonly webhooks: {
    /** Plain http:// targets accepted (development); otherwise https:// only. */
    readonly allowHttp: boolean;
    /** Loopback, private, link-local and metadata addresses accepted as targets (development). */
    readonly allowPrivateTargets: boolean;
    /** Endpoints one namespace may register. */
    readonly maxEndpoints: number;
    /** Delivery attempts per minute for all of one namespace's endpoints together. */
    readonly ratePerMinute: number;
    /** Waits before each retry, in ms: the n-th retry waits `retryScheduleMs[n-1]`; after the last, given up. */
    readonly retryScheduleMs: readonly number[];
    /** An endpoint whose deliveries have failed for this long without a success is disabled. */
    readonly disableAfterMs: number;
    /** One attempt (connect, send, answer) ends after this. */
    readonly timeoutMs: number;
    /** Pause between the deliverer's passes when nothing woke it. */
    readonly pollMs: number;
  };
  readonly session: {
    readonly secret: string;
    /** True when SESSION_SECRET was unset and a per-process secret was made up. */
    readonly generated: boolean;
  };
  readonly homeDomain: string;
  /**
   * The service's base URL (no trailing slash) for everything that prints its own address; from PUBLIC_URL, else
   * derived from HOME_DOMAIN. Never taken from request headers (Host, X-Forwarded-Proto).
   */
  readonly publicUrl: string;
  /** Things an operator should hear about at startup that do not stop it. */
  readonly warnings: readonly string[];
}
