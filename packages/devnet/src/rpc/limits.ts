// The request limits of the devnet's RPC, named and defaulted as stellar-rpc's own options (v27/v28), so a client
// meets the same refusals here as against a real node. What each limit answers, as stellar-rpc answers it:
// - a body over `maxRequestBytes` (stellar-rpc: 512 KiB, a constant there): HTTP 500, `text/plain`,
//   `http: request body too large`, connection closed;
// - an HTTP request (a single call or a whole batch) still running `maxRequestExecutionMs` after its body was read
//   (`max-request-execution-duration`, 25 s): HTTP 504 with an empty body;
// - one call running longer than its method's `methodExecutionMs` (`max-<method>-execution-duration`): that call
//   answers -32001 `request exceeded processing limit threshold`;
// - more than `requestBacklogGlobal` HTTP requests in flight at once (`request-backlog-global-queue-limit`): HTTP
//   503 with an empty body;
// - a page `limit` above `max*Limit` (`max-events-limit` etc.): -32602; an absent or zero limit is `default*Limit`.
// stellar-rpc has no limit on the number of calls in a batch: the body size and the execution time bound it.
// Its per-method backlog queues never fill here: the devnet runs one call at a time.

export const METHOD_NAMES = [
  "getHealth",
  "getNetwork",
  "getVersionInfo",
  "getLatestLedger",
  "getLedgers",
  "getLedgerEntries",
  "getEvents",
  "simulateTransaction",
  "sendTransaction",
  "getTransaction",
  "getTransactions",
  "getFeeStats",
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export interface RpcLimits {
  /** Largest request body, bytes. */
  maxRequestBytes: number;
  /** Longest an HTTP request may run before it is answered 504, ms. */
  maxRequestExecutionMs: number;
  /** Longest one call of each method may run before it answers -32001, ms. */
  methodExecutionMs: Record<MethodName, number>;
  /** Most HTTP requests in flight at once before the next is answered 503. */
  requestBacklogGlobal: number;
  maxEventsLimit: number;
  defaultEventsLimit: number;
  maxTransactionsLimit: number;
  defaultTransactionsLimit: number;
  maxLedgersLimit: number;
  defaultLedgersLimit: number;
}

export const STELLAR_RPC_LIMITS: RpcLimits = {
  maxRequestBytes: 512 * 1024,
  maxRequestExecutionMs: 25_000,
  methodExecutionMs: {
    getHealth: 5_000,
    getNetwork: 5_000,
    getVersionInfo: 5_000,
    getLatestLedger: 5_000,
    getLedgers: 10_000,
    getLedgerEntries: 5_000,
    getEvents: 10_000,
    simulateTransaction: 15_000,
    sendTransaction: 15_000,
    getTransaction: 5_000,
    getTransactions: 5_000,
    getFeeStats: 5_000,
  },
  requestBacklogGlobal: 5_000,
  maxEventsLimit: 10_000,
  defaultEventsLimit: 100,
  maxTransactionsLimit: 200,
  defaultTransactionsLimit: 50,
  maxLedgersLimit: 200,
  defaultLedgersLimit: 50,
};

export type RpcLimitsUpdate = Partial<Omit<RpcLimits, "methodExecutionMs">> & {
  methodExecutionMs?: Partial<Record<MethodName, number>>;
};

export class LimitsValidationError extends Error {}

function positiveInt(name: string, v: unknown): number {
  if (!Number.isSafeInteger(v) || (v as number) < 1)
    throw new LimitsValidationError(`${name} must be a positive integer`);
  return v as number;
}

/** stellar-rpc's defaults with `update` applied; throws LimitsValidationError on a bad value. */
export function resolveLimits(update: RpcLimitsUpdate = {}): RpcLimits {
  const known = new Set(Object.keys(STELLAR_RPC_LIMITS));
  for (const key of Object.keys(update))
    if (!known.has(key)) throw new LimitsValidationError(`unknown limit ${key}`);
  const next: RpcLimits = {
    ...STELLAR_RPC_LIMITS,
    methodExecutionMs: { ...STELLAR_RPC_LIMITS.methodExecutionMs },
  };
  const { methodExecutionMs, ...scalars } = update;
  if (
    methodExecutionMs !== undefined &&
    (typeof methodExecutionMs !== "object" || methodExecutionMs === null)
  )
    throw new LimitsValidationError("methodExecutionMs must be an object of method names to ms");
  for (const [key, value] of Object.entries(scalars)) {
    if (value === undefined) continue;
    (next as unknown as Record<string, number>)[key] = positiveInt(key, value);
  }
  for (const [method, value] of Object.entries(methodExecutionMs ?? {})) {
    if (!(METHOD_NAMES as readonly string[]).includes(method))
      throw new LimitsValidationError(`unknown method ${method} in methodExecutionMs`);
    if (value === undefined) continue;
    next.methodExecutionMs[method as MethodName] = positiveInt(`methodExecutionMs.${method}`, value);
  }
  for (const kind of ["Events", "Transactions", "Ledgers"] as const) {
    if (next[`default${kind}Limit`] > next[`max${kind}Limit`])
      throw new LimitsValidationError(`default${kind}Limit cannot exceed max${kind}Limit`);
  }
  return next;
}
