// Fault injection: latency, a seeded share of internal errors, shortened retention, a frozen head and
// truncated getEvents pages; set at start and changed at runtime through /admin/faults.

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
}

export const NO_FAULTS: Faults = {
  latencyMs: 0,
  errorRate: 0,
  seed: 1,
  retentionLedgers: null,
  freezeHead: false,
  truncateEventsTo: null,
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
