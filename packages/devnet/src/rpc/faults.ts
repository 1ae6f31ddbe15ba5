// Fault injection: latency, a seeded share of internal errors, shortened retention, a frozen head and
// truncated getEvents pages; set at start and changed at runtime through /admin/faults on the admin endpoint
// (server.ts, startAdminServer), never on the RPC port.

export interface Faults {
  /** Added latency per JSON-RPC request, milliseconds. */
  latencyMs: number;
  /** Share (0..1) of JSON-RPC requests answered with a -32603 internal error. */
  errorRate: number;
  /** Seed of the error draw, so a run is reproducible. */
  seed: number;
  /** Retention window the RPC reports and serves, in ledgers; null = the configured one. */
  retentionLedgers: number | null;
  /** Ledgers stop closing; the head stays where it is. */
  freezeHead: boolean;
  /** At most this many events per getEvents page (with a cursor that resumes correctly); null = off. */
  truncateEventsTo: number | null;
  // What real providers send in front of the RPC: a share (0..1) of JSON-RPC requests each, drawn once per
  // request from the same seeded dice as `errorRate`, in this order.
  /** HTTP 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitedRate: number;
  retryAfterSeconds: number;
  /** HTTP 503 from a gateway. */
  unavailableRate: number;
  /** The connection is reset before any answer. */
  resetRate: number;
  /** No answer for `hangMs`, then the connection is dropped (a client with a shorter timeout times out). */
  hangRate: number;
  hangMs: number;
  /** HTTP 200 with a body cut in the middle of its JSON. */
  malformedRate: number;
}

/** The transport faults, in the order the dice bands are laid out. */
export const TRANSPORT_FAULTS = ["rateLimited", "unavailable", "reset", "hang", "malformed"] as const;
export type TransportFault = (typeof TRANSPORT_FAULTS)[number];

export const NO_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  seed: 1,
  retentionLedgers: null,
  freezeHead: false,
  truncateEventsTo: null,
  rateLimitedRate: 0,
  retryAfterSeconds: 1,
  unavailableRate: 0,
  resetRate: 0,
  hangRate: 0,
  hangMs: 20_000,
  malformedRate: 0,
};

export class FaultValidationError extends Error {}

function check(condition: boolean, message: string): void {
  if (!condition) throw new FaultValidationError(message);
}

/** Validates a partial update (JSON from the admin route or start options) against the current faults. */
export function mergeFaults(current: Faults, update: unknown): Faults {
  check(
    typeof update === "object" && update !== null && !Array.isArray(update),
    "faults must be a JSON object",
  );
  const u = update as Record<string, unknown>;
  const known = new Set(Object.keys(NO_FAULTS));
  for (const key of Object.keys(u)) check(known.has(key), `unknown fault ${key}`);
  const next = { ...current };
  if ("latencyMs" in u) {
    check(
      typeof u.latencyMs === "number" && u.latencyMs >= 0 && u.latencyMs <= 60_000,
      "latencyMs must be 0..60000",
    );
    next.latencyMs = u.latencyMs as number;
  }
  if ("errorRate" in u) {
    check(typeof u.errorRate === "number" && u.errorRate >= 0 && u.errorRate <= 1, "errorRate must be 0..1");
    next.errorRate = u.errorRate as number;
  }
  if ("seed" in u) {
    check(Number.isInteger(u.seed), "seed must be an integer");
    next.seed = u.seed as number;
  }
  if ("retentionLedgers" in u) {
    check(
      u.retentionLedgers === null ||
        (Number.isInteger(u.retentionLedgers) && (u.retentionLedgers as number) >= 1),
      "retentionLedgers must be a positive integer or null",
    );
    next.retentionLedgers = u.retentionLedgers as number | null;
  }
  if ("freezeHead" in u) {
    check(typeof u.freezeHead === "boolean", "freezeHead must be a boolean");
    next.freezeHead = u.freezeHead as boolean;
  }
  if ("truncateEventsTo" in u) {
    check(
      u.truncateEventsTo === null ||
        (Number.isInteger(u.truncateEventsTo) && (u.truncateEventsTo as number) >= 1),
      "truncateEventsTo must be a positive integer or null",
    );
    next.truncateEventsTo = u.truncateEventsTo as number | null;
  }
  for (const key of [
    "rateLimitedRate",
    "unavailableRate",
    "resetRate",
    "hangRate",
    "malformedRate",
  ] as const) {
    if (!(key in u)) continue;
    const v = u[key];
    check(typeof v === "number" && v >= 0 && v <= 1, `${key} must be 0..1`);
    next[key] = v as number;
  }
  if ("retryAfterSeconds" in u) {
    const v = u.retryAfterSeconds;
    check(
      Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 3600,
      "retryAfterSeconds must be 0..3600",
    );
    next.retryAfterSeconds = v as number;
  }
  if ("hangMs" in u) {
    const v = u.hangMs;
    check(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 600_000, "hangMs must be 0..600000");
    next.hangMs = v as number;
  }
  const transport =
    next.rateLimitedRate + next.unavailableRate + next.resetRate + next.hangRate + next.malformedRate;
  check(transport <= 1, "the transport fault rates must add up to at most 1");
  return next;
}

/** mulberry32: a tiny deterministic PRNG, reseeded whenever the seed changes. */
export class FaultDice {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
